"""History entries as people read them: field labels and values in the reader's language.

An entry stores codes and plain values (`"outcome": "flag_fall"`, `"tiebreaks": ["spread",
"wins"]`). `clubs` knows nothing of games or competitions, so the apps that own the codes
register how to read them here when they start (`AppConfig.ready`): labels of keys, the
codes a key's values hold, a function for a value that is more than a code (a pairing, a
move), and groups of keys that read as one (a result's outcome, winner and scores). This
module turns an entry's `before`/`after` into rows of text and knows no app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import FIELD_LABELS
from clubs.models import HistoryEntry

EMPTY = "—"


@dataclass(frozen=True)
class Reading:
    """What a value's text may depend on besides the value: the game's players' names, 2 to
    4 (as the entry's label keeps them), so that seat 2 reads as the player, not "player 3"."""

    names: tuple[str, ...] | None = None


#: A label: a text, or a function of the entry's values (before and after merged).
Label = Any
Text = Callable[[Any, Reading], str]


@dataclass(frozen=True)
class Group:
    """Keys that read as one row (`text` gets a dict of those of them the side holds),
    when the entry holds the key `needs` (the first key unless said)."""

    keys: tuple[str, ...]
    label: Label
    text: Text
    needs: str = ""

    def applies(self, key: str, values: Mapping[str, Any]) -> bool:
        return key in self.keys and (self.needs or self.keys[0]) in values


_labels: dict[str, Label] = {}
_choices: dict[str, dict[Any, Any]] = {}
_texts: dict[str, Text] = {}
_groups: list[Group] = []


def register(
    *,
    labels: Mapping[str, Label] | None = None,
    choices: Mapping[str, Iterable[tuple[Any, Any]]] | None = None,
    texts: Mapping[str, Text] | None = None,
    groups: Iterable[Group] = (),
) -> None:
    """Name keys of `before`/`after` (`labels`), the codes their values hold (`choices`),
    the values that need a function (`texts`) and the keys that read as one (`groups`)."""
    _labels.update(labels or {})
    for key, pairs in (choices or {}).items():
        _choices[key] = dict(pairs)
    _texts.update(texts or {})
    known = {group.keys for group in _groups}
    _groups.extend(group for group in groups if group.keys not in known)


def registered_choices() -> dict[str, dict[Any, Any]]:
    """Every code registered, by key (for the test that no code reaches a page raw)."""
    return {key: dict(pairs) for key, pairs in _choices.items()}


def field_label(key: str, values: Mapping[str, Any] | None = None, reading=None) -> str:
    label = FIELD_LABELS.get(key) or _labels.get(key) or key
    if callable(label):
        return str(label(values or {}, reading or Reading()))
    return str(label)


def value_text(key: str, value: Any, reading: Reading | None = None) -> str:
    """One stored value as text: codes by their label, lists joined, nothing as a dash."""
    reading = reading or Reading()
    if value == "" and "" in _choices.get(key, {}):
        return str(_choices[key][""])  # an empty choice that means something
    if value is None or value == "" or value == [] or value == {}:
        return EMPTY
    if key in _texts:
        return _texts[key](value, reading)
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, list):
        return ", ".join(value_text(key, item, reading) for item in value)
    if isinstance(value, dict):
        return "; ".join(
            f"{field_label(k, value, reading)}: {value_text(k, v, reading)}"
            for k, v in value.items()
        )
    labels = _choices.get(key, {})
    return str(labels.get(value, value))


def date_text(value: Any, reading: Reading | None = None) -> str:
    """A stored ISO date ("2026-06-13") as the reader writes it ("13 juni 2026")."""
    try:
        day = value if isinstance(value, date) else date.fromisoformat(str(value))
    except ValueError:
        return str(value)
    return formats.date_format(day, "j F Y")


def moment_text(value: Any, reading: Reading | None = None) -> str:
    """A stored ISO moment as the reader's local date and time ("13 juni 2026 20:15")."""
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return formats.date_format(moment, "j F Y H:i")


register(texts={"date": date_text, "valid_until": moment_text})


def entry_reading(entry: HistoryEntry) -> Reading:
    """The players' names of a game's entry, from its label ("An – Bert – Cor", as written
    by `games.history`); none for other entries or a label that does not split in 2 to 4."""
    if entry.game_id is None or entry.object_type != "game":
        return Reading()
    # An older label put the round and table first: "Ronde 3, tafel 2: An – Bert".
    names = entry.object_label.rpartition(": ")[2].split(" – ")
    if not 2 <= len(names) <= 4 or not all(name.strip() for name in names):
        return Reading()
    return Reading(names=tuple(names))


@dataclass(frozen=True)
class ChangeRow:
    label: str
    before: str
    after: str


def entry_changes(entry: HistoryEntry) -> list[ChangeRow]:
    """The fields an entry changed, as text in the reader's language; a value that is not
    a dict is one row; the keys of a group (a result, a move) are one row."""
    before, after = entry.before, entry.after
    reading = entry_reading(entry)
    if not isinstance(before, dict) and not isinstance(after, dict):
        if before == after:
            return []
        return [ChangeRow("", value_text("", before, reading), value_text("", after, reading))]
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    # What a label may depend on (who entered the result): as it is after, else before.
    values = {**before, **{key: value for key, value in after.items() if value not in (None, "")}}
    rows: list[ChangeRow] = []
    done: set[str] = set()
    for key in dict.fromkeys([*before, *after]):
        if key in done:
            continue
        group = next((group for group in _groups if group.applies(key, values)), None)
        if group is None:
            done.add(key)
            old_text = value_text(key, before.get(key), reading)
            new_text = value_text(key, after.get(key), reading)
            if before.get(key) != after.get(key) and old_text != new_text:
                rows.append(ChangeRow(field_label(key, values, reading), old_text, new_text))
            continue
        done.update(group.keys)
        old = {name: before[name] for name in group.keys if name in before}
        new = {name: after[name] for name in group.keys if name in after}
        if old != new:
            label = group.label(values, reading) if callable(group.label) else group.label
            rows.append(
                ChangeRow(
                    str(label),
                    group.text(old, reading) if old else EMPTY,
                    group.text(new, reading) if new else EMPTY,
                )
            )
    return rows
