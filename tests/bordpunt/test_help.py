"""The command's help and refusals, in-process: each subcommand's usage line read as a
person reads it, and one language in one output (argparse's words, the system's reasons,
the demo's logins without their password in the club's network)."""

import errno
import re

import pytest

from bordpunt.cli import main
from bordpunt.i18n import activate, reason
from bordpunt.server import demo_logins
from demo.management.commands.seed_demo import DEMO_PASSWORD


@pytest.mark.parametrize(("lang", "prefix"), [("nl", "gebruik: "), ("en", "usage: ")])
@pytest.mark.parametrize("command", ["run", "demo", "backup", "restore", "lexicon"])
def test_a_subcommands_help_says_usage_once(capsys, lang, prefix, command):
    with pytest.raises(SystemExit) as stopped:
        main(["--lang", lang, command, "--help"])
    assert stopped.value.code == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{prefix}bordpunt {command} ")
    assert first.count(prefix.strip()) == 1


@pytest.mark.parametrize(
    ("lang", "foreign"),
    [
        ("nl", ["options", "positional arguments", "error", "usage", "HOME", "PORT", "invalid"]),
        ("en", ["opties", "argumenten", "fout", "gebruik", "MAP", "POORT", "ongeldig"]),
    ],
)
@pytest.mark.parametrize(
    "argv", [["backup", "--help"], ["run", "--help"], ["run", "--port", "x"], ["lexicon"], ["x"]]
)
def test_help_and_argparse_refusals_speak_one_language(capsys, lang, foreign, argv):
    with pytest.raises(SystemExit):
        main(["--lang", lang, *argv])
    said = capsys.readouterr()
    words = set(re.findall(r"[A-Za-z_]+", said.out + said.err))
    assert words & set(foreign) == set(), said


def test_the_systems_reasons_are_in_the_language():
    activate("nl")
    try:
        assert reason(FileExistsError(errno.EEXIST, "File exists")) == (
            "een bestand met die naam staat in de weg"
        )
        assert reason(OSError(errno.EIO, "Input/output error")) == "EIO"  # a code, no English
    finally:
        activate("en")


def test_the_demo_password_is_not_said_in_the_club_network():
    assert DEMO_PASSWORD in demo_logins(lan=False)
    assert DEMO_PASSWORD not in demo_logins(lan=True)
