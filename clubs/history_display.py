"""History entries as people read them: field labels and values in the reader's language.

An entry stores codes and plain values (`"outcome": "flag_fall"`, `"tiebreaks": ["spread",
"wins"]`). `clubs` knows nothing of games or competitions, so the apps that own the codes
register their labels here when they start (`AppConfig.ready`); this module turns an
entry's `before`/`after` into rows of text and knows no app.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from clubs.history import FIELD_LABELS
from clubs.models import HistoryEntry

_labels: dict[str, Any] = {}
_choices: dict[str, dict[Any, Any]] = {}

EMPTY = "—"


def register(
    *,
    labels: Mapping[str, Any] | None = None,
    choices: Mapping[str, Iterable[tuple[Any, Any]]] | None = None,
) -> None:
    """Name keys of `before`/`after` (`labels`) and the codes their values hold (`choices`)."""
    _labels.update(labels or {})
    for key, pairs in (choices or {}).items():
        _choices[key] = dict(pairs)


def field_label(key: str) -> Any:
    return FIELD_LABELS.get(key) or _labels.get(key) or key


def value_text(key: str, value: Any) -> str:
    """One stored value as text: codes by their label, lists joined, nothing as a dash."""
    if value is None or value == "" or value == [] or value == {}:
        return EMPTY
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, list):
        return ", ".join(value_text(key, item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{field_label(k)}: {value_text(k, v)}" for k, v in value.items())
    labels = _choices.get(key, {})
    return str(labels.get(value, value))


@dataclass(frozen=True)
class ChangeRow:
    label: str
    before: str
    after: str


def entry_changes(entry: HistoryEntry) -> list[ChangeRow]:
    """The fields an entry changed, as text; a value that is not a dict is one row."""
    return [
        ChangeRow(str(label), value_text(key, old), value_text(key, new))
        for key, label, old, new in _changed_keys(entry)
    ]


def _changed_keys(entry: HistoryEntry) -> list[tuple[str, Any, Any, Any]]:
    before, after = entry.before, entry.after
    if not isinstance(before, dict) and not isinstance(after, dict):
        if before == after:
            return []
        return [("", "", before, after)]
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    return [
        (key, field_label(key), before.get(key), after.get(key))
        for key in dict.fromkeys([*before, *after])
        if before.get(key) != after.get(key)
    ]
