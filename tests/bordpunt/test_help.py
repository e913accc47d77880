"""The command's help, in-process: each subcommand's usage line read as a person reads it."""

import pytest

from bordpunt.cli import main


@pytest.mark.parametrize(("lang", "prefix"), [("nl", "gebruik: "), ("en", "usage: ")])
@pytest.mark.parametrize("command", ["run", "demo", "backup", "restore", "lexicon"])
def test_a_subcommands_help_says_usage_once(capsys, lang, prefix, command):
    with pytest.raises(SystemExit) as stopped:
        main(["--lang", lang, command, "--help"])
    assert stopped.value.code == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{prefix}bordpunt {command} ")
    assert first.count(prefix.strip()) == 1
