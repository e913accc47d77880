"""The slip hand-in's reads in SQL of our own: the one place in `duplicate/` that does not
ask the ORM, because a benchmark shows the ORM missing the target.

`benchmarks/duplicate_http.py` (160 phones hand in a turn's slips at once; gunicorn, 2
workers, SQLite, the 2-core machine, quiet; the target is p95 < 500 ms): with these
reads written by the ORM a slip's post cost the server 6.1-7.9 ms of CPU and p95 was 608
ms (5.2-5.6 ms a post in one process); with the SQL here, 3.7-4.0 ms a post in one
process and p95 409 and 485 ms in runs alone on the machine (docs/duplicate.md,
*Benchmark over HTTP*, gives every run, 2026-12-06). Building a query's SQL is most of
the ORM's cost here: the evening with its competition and club took 472 µs against 19
µs for the same SELECT written out (`Evening.objects` with `select_related`, 2,000
calls), and a slip's post asks three such reads.

Only reads are here: the phone's slip page reads the evening and its turns before any
transaction; a hand-in reads its turn again, held, inside its transaction (`turn_held`,
as `clubs.locks.row_lock` would hold it), and scores the slip on that: a redo of the
turn between the page's read and the hand-in is seen by the hand-in. What it writes (the
slip, its history entry, the competition's last change) stays the ORM's. The rows become
model instances through Django's own `from_db`, with every concrete field of each model,
so a field added later is read here too.
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from django.db import connection
from django.db.models import Model

from clubs.models import Club, Player
from duplicate.models import DuplicateCompetition, Evening, Participant, Turn

#: The models of the evening's read, in the order of their columns, with their aliases.
_EVENING_READ: tuple[tuple[type[Model], str], ...] = (
    (Evening, "e"),
    (DuplicateCompetition, "c"),
    (Club, "k"),
    (Participant, "p"),
    (Player, "pl"),
)


def _columns(model: type[Model], alias: str) -> list[str]:
    quote = connection.ops.quote_name
    # A concrete field always has its column (`column` is None only for the others).
    return [f"{alias}.{quote(cast(str, field.column))}" for field in model._meta.concrete_fields]


def _table(model: type[Model], alias: str) -> str:
    return f"{connection.ops.quote_name(model._meta.db_table)} {alias}"


@cache
def _evening_sql() -> str:
    columns = ", ".join(c for model, alias in _EVENING_READ for c in _columns(model, alias))
    e, c, k, p, pl = (_table(model, alias) for model, alias in _EVENING_READ)
    # The user's entry: a participant of the competition whose player is the user's; the
    # lowest id when a user has two (as `.first()` would).
    return (
        f"SELECT {columns} FROM {e} "
        f"JOIN {c} ON c.id = e.competition_id "
        f"JOIN {k} ON k.id = c.club_id "
        f"LEFT JOIN ({p} JOIN {pl} ON pl.id = p.player_id AND pl.user_id = %s) "
        f"ON p.competition_id = c.id "
        f"WHERE k.slug = %s AND c.slug = %s AND e.number = %s "
        f"ORDER BY p.id LIMIT 1"
    )


@cache
def _turns_sql() -> str:
    return (
        f"SELECT {', '.join(_columns(Turn, 't'))} FROM {_table(Turn, 't')} "
        f"WHERE t.evening_id = %s ORDER BY t.number"
    )


@cache
def _converters(model: type[Model]) -> list[tuple[Any, list]]:
    """Per concrete field: the column and the converters the ORM's compiler would apply
    to its value (JSON decoded, booleans and dates made Python's on SQLite)."""
    table = model._meta.db_table
    out = []
    for field in model._meta.concrete_fields:
        column = field.get_col(table)
        out.append(
            (column, connection.ops.get_db_converters(column) + field.get_db_converters(connection))
        )
    return out


def _instance(model: type[Model], row: tuple[Any, ...], start: int) -> tuple[Any, int]:
    """The instance of `model` made of `row` from column `start` (None for a row the LEFT
    JOIN found nothing for), and where the next model's columns start."""
    fields = model._meta.concrete_fields
    end = start + len(fields)
    if row[start] is None:  # the primary key comes first
        return None, end
    values = []
    for value, (column, converters) in zip(row[start:end], _converters(model), strict=True):
        for converter in converters:
            value = converter(value, column, connection)
        values.append(value)
    names = [field.attname for field in fields]
    return model.from_db(connection.alias, names, values), end


def evening_and_entry(
    *, club_slug: str, competition_slug: str, number: int, user_id: int | None
) -> tuple[Evening, Participant | None] | None:
    """The evening with its competition and club, and the user's entry in the competition
    with its player (None when not entered); None when there is no such evening. One
    query: `selectors.evening_and_participation` asks the same in two."""
    with connection.cursor() as cursor:
        cursor.execute(_evening_sql(), [user_id, club_slug, competition_slug, number])
        row = cursor.fetchone()
    if row is None:
        return None
    evening, at = _instance(Evening, row, 0)
    competition, at = _instance(DuplicateCompetition, row, at)
    club, at = _instance(Club, row, at)
    participation, at = _instance(Participant, row, at)
    player, _at = _instance(Player, row, at)
    competition.club = club
    evening.competition = competition
    if participation is not None:
        participation.player = player
        participation.competition = competition
    return evening, participation


def turns_of(evening: Evening) -> list[Turn]:
    """The evening's turns in order, each knowing its evening (one query, as
    `selectors.evening_state` reads them)."""
    with connection.cursor() as cursor:
        cursor.execute(_turns_sql(), [evening.pk])
        rows = cursor.fetchall()
    turns = [_instance(Turn, row, 0)[0] for row in rows]
    for turn in turns:
        turn.evening = evening
    return turns


@cache
def _turn_held_sql() -> str:
    features = connection.features
    # As `clubs.locks.row_lock` holds a row: FOR NO KEY UPDATE of the row alone, where
    # the database has it (PostgreSQL); SQLite's transaction holds the whole file.
    held = features.has_select_for_update_of and features.has_select_for_no_key_update
    return f"SELECT {', '.join(_columns(Turn, 't'))} FROM {_table(Turn, 't')} WHERE t.id = %s" + (
        " FOR NO KEY UPDATE OF t" if held else ""
    )


def turn_held(turn: Turn) -> Turn:
    """``turn`` as it is now, its row held until the transaction ends (a redo of the turn
    holds it too): the one read a hand-in makes in its transaction, so the slip is scored
    on the rack current in it. Inside `transaction.atomic` only."""
    if not connection.in_atomic_block:
        raise RuntimeError("turn_held holds a row: call it inside transaction.atomic")
    with connection.cursor() as cursor:
        cursor.execute(_turn_held_sql(), [turn.pk])
        row = cursor.fetchone()
    if row is None:
        raise Turn.DoesNotExist
    current = _instance(Turn, row, 0)[0]
    current.evening = turn.evening
    return current
