"""A GCG upload never gives a server error: every refusal is a Dutch message with the line
number, and every code the engine and the GCG reader can raise has a Dutch text."""

import re
from html import unescape
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings

import rules
from games import rule_messages
from games.forms import GcgUploadForm
from games.models import Move
from games.moves import MoveError, moves_import_gcg
from tests.games.conftest import DEMO
from tests.rules.test_gcg_fuzz import ODD_LINES, mutated

pytestmark = pytest.mark.django_db

RULES_DIR = Path(rules.__file__).parent


def raised_codes() -> set[str]:
    """Every code the engine and the GCG reader raise or warn with, read from the source."""
    codes = set()
    for path in RULES_DIR.glob("*.py"):
        if path.name.startswith("lexicon"):
            continue
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'Error\(\s*"([a-z_0-9]+)"', text))
        codes |= set(re.findall(r'MoveWarning\(\s*"([a-z_0-9]+)"', text))
    # Raised without a code, e.g. RuleSetError(reason=...): the class's own.
    return codes | {rules.InvalidMoveError.default_code, rules.RuleSetError.default_code}


def test_every_code_has_a_dutch_text():
    codes = raised_codes()
    # gcg_move shows the text of the engine code it wraps (walked here as well).
    assert {"gcg_score", "gcg_move", "gcg_bad_pragma", "too_many_tiles"} <= codes
    for code in sorted(codes - {"gcg_move"}):
        assert code in rule_messages.MESSAGES, code
        with translation.override("nl"):
            dutch = str(rule_messages.MESSAGES[code])
        with translation.override("en"):
            english = str(rule_messages.MESSAGES[code])
        assert dutch != english, f"{code} has no Dutch text"


def test_a_wrapped_engine_error_shows_the_engine_codes_dutch_text():
    error = rules.GCGError(
        "gcg_move", line=7, reason="x", cause="gap", cause_params={"square": "H9"}
    )
    with translation.override("nl"):
        assert rule_messages.error_message(error) == "Regel 7: Het woord heeft een gat op H9."


def upload(client, game, data: bytes):
    version = type(game).objects.get(pk=game.pk).version
    return client.post(
        reverse("gcg_upload", args=[game.pk]),
        {"file": SimpleUploadedFile("partij.gcg", data), "version": version},
    )


DEMO_1 = (DEMO / "demo-1.gcg").read_bytes()


#: Odd first lines that are harmless: a lone byte order mark, a note.
HARMLESS = {b"\xef\xbb\xbf", b"#note \r\n continuation"}


@pytest.mark.parametrize("line", ODD_LINES)
def test_an_odd_line_gets_a_dutch_message_with_its_line(secretary_client, game, line):
    response = upload(secretary_client, game, line + b"\n" + DEMO_1)
    if line in HARMLESS:
        assert response.status_code == 302
        assert Move.objects.filter(game=game).count() == 16
        return
    assert response.status_code == 200
    page = unescape(response.content.decode())
    assert re.search(r"Regel \d+: ", page), page
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize("ruleset", [rules.STANDARD, rules.GOUDS_8], ids=["standard", "gouds8"])
@pytest.mark.parametrize("players", [3, 4])
def test_a_file_of_more_players_than_the_table_is_refused_in_dutch(
    secretary_client, make_game, players, ruleset
):
    game = make_game(ruleset)
    header = "".join(f"#player{i} p{i} Speler {i}\n" for i in range(1, players + 1))
    data = (header + "#rules standard\n#tiles dutch\n>p1: ZOEN 8G ZOEN +14 14\n").encode()
    response = upload(secretary_client, game, data)
    assert response.status_code == 200
    assert (
        f"Dit bestand beschrijft een partij met {players} spelers; aan deze tafel zitten er 2."
        in unescape(response.content.decode())
    )
    assert not Move.objects.filter(game=game).exists()


def test_a_huge_file_is_refused_before_it_is_read(secretary_client, game):
    response = upload(secretary_client, game, b"#note " + b"x" * GcgUploadForm.MAX_BYTES)
    assert response.status_code == 200
    assert "Het bestand is te groot (hoogstens 256 kB)" in unescape(response.content.decode())


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=mutated())
def test_any_mutated_file_is_stored_or_refused_with_a_dutch_message(make_game, data):
    game = make_game(rules.STANDARD)
    with translation.override("nl"):
        try:
            moves_import_gcg(game=game, data=data, by=None)
        except MoveError as error:
            assert re.match(r"(Regel|Zet) \d+: |Dit bestand beschrijft", str(error.message))
            assert not Move.objects.filter(game=game).exists()
