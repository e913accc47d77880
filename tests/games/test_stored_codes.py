"""Codes, not sentences, in the database: move warnings, move problems and automatic
reasons are stored as codes with parameters and shown in the reader's language."""

import importlib
import re
import string
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

import rules
from clubs.history import HistoryReason as ChangeReason
from games import rule_messages
from games.models import Move
from games.moves import move_add, move_correct
from interchange.tsh import MESSAGES as TSH_MESSAGES
from rules import gcg
from tests.factories import result_changes
from tests.games.test_gcg_upload_errors import raised_codes

RULES_DIR = Path(rules.__file__).parent
migration = importlib.import_module("games.migrations.0003_codes_not_sentences")


def sample_params(template: str) -> dict:
    """A value for every {placeholder} of a template (a number fits every format spec)."""
    names = {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name}
    return dict.fromkeys(names, 7)


def in_both_languages(code: str, params: dict) -> tuple[str, str]:
    with translation.override("nl"):
        dutch = rule_messages.describe(code, params)
    with translation.override("en"):
        english = rule_messages.describe(code, params)
    return dutch, english


def stored_codes() -> set[str]:
    """Every code a page may find stored: what the engine, the GCG reader raise or warn
    with, and Bordpunt's own."""
    return (raised_codes() - {"gcg_move"}) | {"not_scored_until"}


def test_every_stored_code_renders_in_dutch_and_english_not_as_its_code():
    codes = stored_codes()
    assert {"not_in_lexicon", "bad_notation", "gcg_score", "not_scored_until"} <= codes
    for code in sorted(codes):
        with translation.override("en"):
            params = sample_params(str(rule_messages.MESSAGES[code]))
        dutch, english = in_both_languages(code, params)
        for text in (dutch, english):
            assert text and text != code and "{" not in text, (code, text)
        assert dutch != english, f"{code} has no Dutch text"


def test_every_notation_detail_the_engine_gives_renders_in_both_languages():
    source = (RULES_DIR / "move.py").read_text(encoding="utf-8")
    details = set(re.findall(r'detail="([a-z_]+)"', source))
    # Every refusal of a notation says why with a detail code, never only in English.
    assert source.count("raise InvalidMoveError(") == len(re.findall(r"detail=", source))
    assert details == set(rule_messages.NOTATION_DETAILS)
    for detail in sorted(details):
        params = {"notation": "8H W1", "detail": detail, "reason": "ENGLISH", "letter": "1"}
        params |= {"character": "!", "position": "Z9"}
        dutch, english = in_both_languages("bad_notation", params)
        assert "ENGLISH" not in dutch + english
        assert dutch != english and "{" not in dutch + english, detail


def test_every_tsh_reader_code_renders_in_dutch():
    for code, template in TSH_MESSAGES.items():
        with translation.override("en"):
            english = str(template)
        params = dict.fromkeys(re.findall(r"%\((\w+)\)s", english), 7)
        with translation.override("nl"):
            dutch = str(template) % params
        assert dutch != english % params, code


def test_every_automatic_reason_has_a_dutch_label():
    for code in ChangeReason:
        with translation.override("nl"):
            dutch = str(ChangeReason(code).label)
        with translation.override("en"):
            english = str(ChangeReason(code).label)
        assert dutch != english, code


def test_a_bad_notation_in_a_gcg_file_is_refused_wholly_in_dutch():
    record = "#player1 anna Anna\n#player2 bert Bert\n>anna: WOORDEN 8H WO!RD +20 20\n"
    with pytest.raises(rules.RulesError) as refused:
        gcg.read(record, rules=rules.GOUDS_8, tiles=rules.DUTCH)
    with translation.override("nl"):
        text = rule_messages.error_message(refused.value)
    assert text.startswith("Regel 3: ")
    assert "“!” hoort niet in een woord" in text
    assert "unexpected" not in text and "word" not in text.replace("woord", "")


# --- stored in one language, read in the other -----------------------------------------


@pytest.mark.django_db
def test_a_warning_stored_in_dutch_reads_in_english_and_vice_versa(game):
    with translation.override("nl"):
        move_add(game=game, notation="8H XQZW", by=None)
    with translation.override("en"):
        move_add(game=game, notation="H8 .UUU", by=None)
    first, second = Move.objects.filter(game=game).order_by("number")
    assert first.warnings == [{"code": "not_in_lexicon", "params": {"word": "XQZW"}}]
    with translation.override("en"):
        assert first.warning_texts == ["XQZW is not in the word list."]
    with translation.override("nl"):
        assert second.warning_texts == ["XUUU staat niet in de woordenlijst."]


@pytest.mark.django_db
def test_the_board_shows_warnings_and_problems_in_the_readers_language(
    client, secretary, make_game, play
):
    client.force_login(secretary)
    with_warning, with_problems = make_game(), make_game()
    with translation.override("nl"):
        play(with_warning, "8H XQZW")
        play(with_problems, "8H WOORD", "H8 .AAS", "-")
        # Bert's H8 .AAS no longer fits once WOORD runs down to H8: it is refused.
        move_correct(game=with_problems, number=1, notation="H4 WOORD", by=None)
    refused = Move.objects.get(game=with_problems, number=2)
    assert (refused.problem_code, refused.problem_params) == ("word_extends", {"square": "H7"})
    waiting = Move.objects.get(game=with_problems, number=3)
    assert (waiting.problem_code, waiting.problem_params) == ("not_scored_until", {"number": 2})
    pages = [reverse("board", kwargs={"game_id": g.pk}) for g in (with_warning, with_problems)]

    dutch = "".join(client.get(url).content.decode() for url in pages)
    assert "XQZW staat niet in de woordenlijst." in dutch
    assert "Het woord loopt door op H7: schrijf het hele woord." in dutch
    assert "Niet geteld tot zet 2 is verbeterd." in dutch

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = "".join(client.get(url).content.decode() for url in pages)
    assert "XQZW is not in the word list." in english
    assert "The word continues at H7: write the whole word." in english
    assert "Not scored until move 2 is corrected." in english
    assert "woordenlijst" not in english and "verbeterd" not in english


@pytest.mark.django_db
def test_an_automatic_reason_is_a_code_shown_in_the_readers_language(client, secretary, game, play):
    with translation.override("nl"):
        play(game, "8H WOORD", "(annulled)")
    change = result_changes(game_id=game.pk).get()
    assert (change.reason_code, change.reason) == (ChangeReason.FROM_MOVES, "")
    # The game's page shows its HistoryEntry rows, the reason code in the reader's
    # language: tests/competition/test_history_pages.py.


# --- the data migration ----------------------------------------------------------------


def test_the_migration_turns_known_sentences_into_codes_and_keeps_the_rest():
    coded = migration._coded
    assert coded("XQZW staat niet in de woordenlijst.", migration.WARNINGS) == {
        "code": "not_in_lexicon",
        "params": {"word": "XQZW"},
    }
    assert coded("OEX is not in the word list.", migration.WARNINGS)["params"] == {"word": "OEX"}
    assert coded("Niet geteld tot zet 12 is verbeterd.", migration.PROBLEMS) == {
        "code": "not_scored_until",
        "params": {"number": 12},
    }
    kept = coded("Het woord heeft een gat op H9.", migration.PROBLEMS)
    assert kept == {"code": "text", "params": {"text": "Het woord heeft een gat op H9."}}
    with translation.override("en"):
        assert rule_messages.describe_stored(kept) == "Het woord heeft een gat op H9."
        assert rule_messages.describe_stored("an old bare string") == "an old bare string"
    assert migration.REASONS["geïmporteerd uit CSV"] == ChangeReason.CSV_IMPORT
    # Every reason that was once stored as a sentence (newer ones never were).
    assert set(migration.REASONS.values()) == {
        ChangeReason.FROM_MOVES,
        ChangeReason.CSV_IMPORT,
        ChangeReason.TSH_IMPORT,
    }
