"""History values as people read them: codes by their label, lists joined, nothing a dash."""

import pytest
from django.utils import translation

from clubs.history_display import EMPTY, entry_changes, value_text
from clubs.models import HistoryEntry


@pytest.mark.parametrize(
    ("key", "value", "dutch"),
    [
        ("outcome", "flag_fall", "vlag gevallen"),
        ("tiebreaks", ["spread", "wins"], "saldo, winstpartijen"),
        ("rules", "standard", "standaardregels"),
        ("status", "published", "gepubliceerd"),
        ("archived", True, "ja"),
        ("score_a", 0, "0"),
        ("group", None, EMPTY),
        ("unknown_key", "as-is", "as-is"),
    ],
)
def test_values_in_dutch(key, value, dutch):
    with translation.override("nl"):
        assert value_text(key, value) == dutch


def test_only_changed_fields_in_the_order_stored():
    entry = HistoryEntry(
        before={"min_games": 0, "ranking": "totals"},
        after={"min_games": 3, "ranking": "totals", "tiebreaks": ["wins"]},
    )
    with translation.override("nl"):
        rows = [(row.label, row.before, row.after) for row in entry_changes(entry)]
    assert rows == [("minimum aantal partijen", "0", "3"), ("tiebreaks", EMPTY, "winstpartijen")]


def test_a_result_is_one_row_with_the_players_names():
    entry = HistoryEntry(
        object_type="game",
        game_id=1,
        object_label="An – Bert",
        before={"score_a": 300, "score_b": 200, "outcome": "normal", "winner": "a"},
        after={"score_a": 300, "score_b": 320, "outcome": "normal", "winner": "b"},
    )
    with translation.override("nl"):
        rows = [(row.label, row.before, row.after) for row in entry_changes(entry)]
    assert rows == [("uitslag", "An 300 – 200 Bert, An wint", "An 300 – 320 Bert, Bert wint")]
    entry.object_label = "An"  # a label that names no two players: the sides by their role
    with translation.override("nl"):
        (row,) = entry_changes(entry)
    assert row.after == "eerste speler 300 – 320 tweede speler, tweede speler wint"


def test_a_value_that_is_not_a_dict_is_one_row():
    rows = entry_changes(HistoryEntry(before=None, after=["8H WOORD", "9G AS"]))
    assert [(row.label, row.before, row.after) for row in rows] == [("", EMPTY, "8H WOORD, 9G AS")]
    assert entry_changes(HistoryEntry(before=None, after=None)) == []
