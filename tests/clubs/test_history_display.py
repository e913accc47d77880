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
        before={"score_a": 300, "score_b": 200, "outcome": "normal"},
        after={"score_a": 300, "score_b": 320, "outcome": "normal", "winner": "b"},
    )
    with translation.override("nl"):
        rows = [(row.label, row.before, row.after) for row in entry_changes(entry)]
    assert rows == [("score speler 2", "200", "320"), ("winnaar", EMPTY, "tweede speler")]


def test_a_value_that_is_not_a_dict_is_one_row():
    rows = entry_changes(HistoryEntry(before=None, after=["8H WOORD", "9G AS"]))
    assert [(row.label, row.before, row.after) for row in rows] == [("", EMPTY, "8H WOORD, 9G AS")]
    assert entry_changes(HistoryEntry(before=None, after=None)) == []
