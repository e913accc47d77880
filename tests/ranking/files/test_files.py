"""The results file's format: written, read back, and every bad file refused with its
reason (docs/results-file.md). No database."""

from __future__ import annotations

import json
import uuid
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest

from clubs.names import name_key
from ranking.files import (
    CSV_COLUMNS,
    FORMAT,
    VERSION,
    ResultsFileError,
    results_file_csv,
    results_file_read,
)
from tests.ranking.files.files_data import DELFT, GAME_ONE, GOUDA, as_json, edited, interclub


def refused(data: bytes) -> ResultsFileError:
    with pytest.raises(ResultsFileError) as caught:
        results_file_read(data)
    # Every refusal has a message in words, never a code alone.
    assert caught.value.message and "%(" not in caught.value.message
    return caught.value


def test_percentages_by_hand():
    # Winner 500, median 400 (of 500 450 400 350 300): VIW = 100; GV 20:
    # 100 − VMW × 20 / 100: 500 → 100, 450 → 90, 400 → 80, 350 → 70, 300 → 60.
    game = interclub().games[0]
    assert [(r.points, r.percentage) for r in game.results] == [
        (500, 100.0),
        (450, 90.0),
        (400, 80.0),
        (350, 70.0),
        (300, 60.0),
    ]


def test_unrounded_percentages_travel_exactly():
    # Winner 400, median 370 (of 400 370 300): VIW 30; GV 20: 300 → 100 − 100 × 20 / 30
    # = 33.33…, which the file keeps to the last bit of the float.
    rows = [("1", "A", GOUDA, 400), ("2", "B", GOUDA, 370), ("3", "C", GOUDA, 300)]
    results = interclub(games=[rows])
    read = results_file_read(as_json(results))
    assert read.games[0].results[2].percentage == float(Fraction(100, 3)) == 33.333333333333336
    assert read == results


def test_round_trip():
    results = interclub()
    read = results_file_read(as_json(results))
    assert read == results
    assert read.uid == results.uid and read.games[0].gap_value == Decimal("20")
    assert read.games[0].results[4].club is None  # the guest
    assert read.results == 10


def test_the_file_says_what_it_is():
    value = json.loads(as_json(interclub()))
    assert value["format"] == FORMAT == "bordpunt-results"
    assert value["version"] == VERSION == 2
    assert value["checksum"].startswith("sha256:")
    assert value["event"]["organiser"] == {"name": "De Goudse Letters", "federation_code": "GL"}
    assert value["games"][0]["results"][0] == {
        "federation_number": "1001",
        "name": "Anna de Vries",
        "club": {"name": "De Goudse Letters", "federation_code": "GL"},
        "points": 500,
        "percentage": 100.0,
    }


def test_csv_for_spreadsheets():
    rows = [("1", "A", GOUDA, 400), ("2", "B", GOUDA, 370), (None, "C", None, 300)]
    lines = results_file_csv(interclub(games=[rows])).splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS) == "game,division,number,name,club,points,percentage"
    assert lines[1] == "1,A,1,A,De Goudse Letters,400,100.0"
    # Unrounded: 100 − 30 × 20 / 30 = 80 exactly; 100 − 100 × 20 / 30 = 33.333…
    assert lines[2] == "1,A,2,B,De Goudse Letters,370,80.0"
    assert lines[3] == "1,A,,C,,300,33.333333333333336"


# --- refused -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b'{"name": "Interclub", "players": []}',  # another program's JSON
        b"[1, 2, 3]",
        b'"bordpunt-results"',
        b"number,name,points,percentage\n1001,Anna,500,100\n",  # a CSV
        "Naam;Punten\nAnna;500\n".encode("cp1252"),
        b"\x89PNG\r\n\x1a\n\x00\x00",
        b"",
    ],
)
def test_another_programs_file(data):
    error = refused(data)
    assert error.code in {"not_ours", "not_json", "not_utf8"}
    assert "Bordpunt" in error.message


def test_a_file_with_our_marker_but_no_checksum():
    data = edited(as_json(interclub()), lambda v: v.pop("checksum"))
    assert refused(data).code == "no_checksum"


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v["games"][0]["results"][1].update(points=499),
        lambda v: v["games"][0]["results"][1].update(percentage=95.0),
        lambda v: v["games"][0]["results"][1].update(name="Bert Bakkers"),
        lambda v: v["event"].update(date="2026-10-04"),
        lambda v: v["games"].pop(),
        lambda v: v["games"][0]["results"].pop(),
    ],
)
def test_edited_by_hand(change):
    error = refused(edited(as_json(interclub()), change))
    assert error.code == "checksum"
    assert "edited by hand" in error.message


def test_the_layout_may_change_the_content_not():
    """Indentation, key order and a BOM are not edits: the checksum is over the content."""
    results = interclub()
    value = json.loads(as_json(results))
    again = json.dumps(dict(reversed(list(value.items()))), indent=4).encode()
    assert results_file_read(b"\xef\xbb\xbf" + again) == results


@pytest.mark.parametrize("keep", [0.99, 0.5, 0.1, 0.01])
def test_truncated(keep):
    data = as_json(interclub())
    error = refused(data[: int(len(data) * keep)])
    assert error.code == "truncated"
    assert "cut off" in error.message


def test_truncated_after_an_inner_object():
    data = as_json(interclub())
    end = data.index(b"}", len(data) // 2) + 1
    assert refused(data[:end]).code == "truncated"


def test_every_length_of_a_file_cut_short_is_refused_cleanly():
    data = as_json(interclub(games=[GAME_ONE[:2]]))
    for end in range(len(data) - 2):
        assert refused(data[:end]).code in {"truncated", "not_json", "not_ours"}


def test_made_by_a_newer_bordpunt():
    data = edited(as_json(interclub()), lambda v: v.update(version=3), sign=True)
    error = refused(data)
    assert error.code == "newer_version" and "version 3" in error.message


def test_the_absent_players_of_version_2_and_a_file_of_version_1():
    """Version 2 names each game's players recorded absent; version 1 has no such list,
    and a key of the other version is refused."""
    away = {"federation_number": "1009", "name": "Dirk Afwezig", "club": None}

    def absent(value):
        value["games"][0]["absent"] = [away]

    read = results_file_read(edited(as_json(interclub()), absent, sign=True))
    assert [(a.federation_number, a.name, a.club) for a in read.games[0].absent] == [
        ("1009", "Dirk Afwezig", None)
    ]

    def version_1(value):
        value["version"] = 1
        for game in value["games"]:
            del game["absent"]

    assert (
        results_file_read(edited(as_json(interclub()), version_1, sign=True)).games[0].absent == ()
    )
    both = edited(as_json(interclub()), lambda v: (absent(v), v.update(version=1)), sign=True)
    assert refused(both).code == "unknown"
    missing = edited(as_json(interclub()), lambda v: v["games"][0].pop("absent"), sign=True)
    assert refused(missing).code == "missing"


def signed(change) -> bytes:
    """A file changed and signed again, as another program (or a careful hand) could."""
    return edited(as_json(interclub()), change, sign=True)


def result_of(value, game=0, row=0):
    return value["games"][game]["results"][row]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda v: result_of(v).update(points=10**30), "not_integer"),
        (lambda v: result_of(v).update(points=-(10**6)), "not_integer"),
        (lambda v: result_of(v).update(points=500.5), "not_integer"),
        (lambda v: result_of(v).update(points="500"), "not_integer"),
        (lambda v: result_of(v).update(points=True), "not_integer"),
        (lambda v: result_of(v).update(percentage=-1e300), "odd_percentage"),
        (lambda v: result_of(v).update(percentage=101), "odd_percentage"),
        (lambda v: result_of(v).update(percentage="100"), "not_number"),
        (lambda v: result_of(v).update(name="x" * 121), "too_long"),
        (lambda v: result_of(v).update(name="Anna\u202e"), "control_character"),
        (lambda v: result_of(v).update(name="   "), "empty_text"),
        (lambda v: result_of(v).update(federation_number="9" * 21), "too_long"),
        (lambda v: result_of(v).update(club={"name": "X"}), "missing"),
        (lambda v: result_of(v).update(extra=1), "unknown"),
        (lambda v: v["games"][0].update(number=0), "not_integer"),
        (lambda v: v["games"][0].update(number=10**9), "not_integer"),
        (lambda v: v["games"][0].update(date="2026-13-01"), "bad_date"),
        (lambda v: v["games"][0].update(date="0001-01-01"), "bad_date"),
        (lambda v: v["games"][0].update(gap_value="0"), "bad_gap_value"),
        (lambda v: v["games"][0].update(gap_value="1e400"), "bad_gap_value"),
        (lambda v: v["games"][0].update(gap_value="NaN"), "bad_gap_value"),
        (lambda v: v["games"][0].update(gap_value="20.0001"), "bad_gap_value"),
        (lambda v: v["games"][0].update(gap_value=20), "bad_gap_value"),
        (lambda v: v["games"][0].update(results=[]), "no_results"),
        (lambda v: v["games"][0].update(results={}), "not_list"),
        (lambda v: v["games"][0]["results"].extend([result_of(v)] * 1000), "too_many_results"),
        (lambda v: v.update(games=[]), "no_games"),
        (lambda v: v.update(games=v["games"] * 60), "too_many_games"),
        (lambda v: v["games"][1].update(number=1), "game_twice"),
        (lambda v: v["event"].update(uid="not-a-uuid"), "bad_uid"),
        (lambda v: v["event"].update(uid=12), "bad_uid"),
        (lambda v: v["event"].update(kind="party"), "bad_kind"),
        (lambda v: v["event"].pop("name"), "missing"),
        (lambda v: v.update(event=[]), "not_object"),
        (lambda v: v.update(version="1"), "bad_version"),
    ],
)
def test_odd_values(change, code):
    assert refused(signed(change)).code == code


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e999"])
def test_nan_and_infinity_are_not_json(number):
    data = as_json(interclub()).replace(b'"percentage": 100.0', b'"percentage": ' + number, 1)
    assert refused(data).code == "not_number"


def test_a_key_twice():
    data = as_json(interclub()).replace(b'"points": 500,', b'"points": 500, "points": 5000,', 1)
    assert refused(data).code == "duplicate_key"


def test_deeply_nested():
    assert refused(b"[" * 100_000).code in {"not_json", "not_ours"}


def test_one_person_twice_in_a_game():
    rows = [*GAME_ONE, ("1001", "Anna de Vries", GOUDA, 200)]
    error = refused(as_json(interclub(games=[rows])))
    assert error.code == "person_twice_in_game"
    assert "1001" in error.message


def test_one_person_for_two_clubs_in_one_event():
    """A person's results in two clubs at the same event."""
    moved = [("1001", "Anna de Vries", DELFT, 500), *GAME_ONE[1:]]
    error = refused(as_json(interclub(games=[GAME_ONE, moved])))
    assert error.code == "person_two_clubs"
    assert "De Goudse Letters" in error.message and "Scrabbleclub Delft" in error.message


def test_one_person_as_guest_and_for_a_club():
    guest = [("1001", "Anna de Vries", None, 500), *GAME_ONE[1:]]
    assert refused(as_json(interclub(games=[GAME_ONE, guest]))).code == "person_two_clubs"


def test_two_persons_under_one_number():
    """Two clubs claiming one person: the number under another name."""
    other = [("1001", "Els Evers", GOUDA, 500), *GAME_ONE[1:]]
    error = refused(as_json(interclub(games=[GAME_ONE, other])))
    assert error.code == "person_two_names"
    assert "Anna de Vries" in error.message and "Els Evers" in error.message


def test_one_name_spelled_two_ways_is_one_person():
    accents = [("1001", "Anna de  Vriës", GOUDA, 500), *GAME_ONE[1:]]
    read = results_file_read(as_json(interclub(games=[GAME_ONE, accents])))
    assert read.games[1].results[0].name == "Anna de Vriës"  # runs of spaces made one
    assert name_key("ANNA DE VRIËS") == name_key("anna de vries")


def test_a_date_is_a_date():
    results = interclub(day=date(2026, 2, 28))
    assert results_file_read(as_json(results)).date == date(2026, 2, 28)
    assert isinstance(results.uid, uuid.UUID)
