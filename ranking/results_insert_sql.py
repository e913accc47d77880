"""The one insert of the results file's import that is SQL of our own: a season's ranked
results written as multi-row INSERTs (docs/architecture.md, *Conventions*: SQL of our own
only where a benchmark shows the ORM missing a target).

The figures (`benchmarks/ranking.py` and the same 7,200 rows alone: 16 interclubs of 150
players, 3 games each; this 2-core machine, shared, load average about 10): on SQLite
`bulk_create` took 0.63–0.71 s (model instances, and each value prepared field by field
for 58 statements of 124 rows, SQLite's limit of 999 parameters), an `executemany` 0.08 s,
these statements 0.05–0.06 s; the whole import of the season went from 2.3 s to 0.9 s, and
with the season ranking it must stay under 2 s. On PostgreSQL all three took 0.7–1.2 s
under that load (the server's time, not Python's). The columns are the model's own
(`_meta`), so a renamed column cannot drift from it; a new column without a default in
the database fails here at once, in the import's tests.

Django: a database cursor.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Field

from ranking.models import RankedResult

#: Rows in one INSERT where the database sets no limit of parameters.
ROWS_PER_STATEMENT = 1000

COLUMNS = (
    "game",
    "player",
    "federation_number",
    "name",
    "club",
    "club_name",
    "points",
    "percentage",
)


def _column(name: str) -> str:
    field = RankedResult._meta.get_field(name)
    assert isinstance(field, Field) and field.column
    return field.column


#: PostgreSQL's type of each column in `_insert_json`.
COLUMN_TYPES = ("integer", "integer", "text", "text", "integer", "text", "integer", "float8")


def ranked_results_insert(rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert `rows`, each the values of `COLUMNS` in that order (foreign keys as ids),
    in the caller's transaction: on PostgreSQL one statement of one JSON document; else
    as many rows a statement as the database takes parameters (SQLite: 999, so 124 rows),
    the full ones run as one statement over many rows of values (`executemany`: a season's
    58 statements prepared once, 70 ms → 56, benchmarks/ranking.py)."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(name)) for name in COLUMNS)
    table = quote(RankedResult._meta.db_table)
    if connection.vendor == "postgresql":
        _insert_json(table, rows)
        return
    most = connection.features.max_query_params
    size = min(ROWS_PER_STATEMENT, most // len(COLUMNS)) if most else ROWS_PER_STATEMENT
    one = "(" + ", ".join(["%s"] * len(COLUMNS)) + ")"

    def statement(count: int) -> str:
        return f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * count)}"

    def values(chunk: Sequence[tuple[Any, ...]]) -> list[Any]:
        return [value for row in chunk for value in row]

    whole = len(rows) - len(rows) % size
    with connection.cursor() as cursor:
        # The full chunks as one statement prepared once (the backend rewrites a
        # statement's 992 placeholders and SQLite parses it: once, not 58 times).
        if whole:
            cursor.executemany(
                statement(size),
                [values(rows[start : start + size]) for start in range(0, whole, size)],
            )
        if whole < len(rows):
            cursor.execute(statement(len(rows) - whole), values(rows[whole:]))


def _insert_json(table: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """PostgreSQL: the rows as one JSON document in one short statement. A multi-row
    VALUES of 1,000 rows made psycopg split an 8,000-placeholder query text on every call
    (0.6 of the season import's 1.2 s, benchmarks/ranking.py: 7,200 rows), and arrays
    are dumped value by value in Python (0.25 s); `json.dumps` is C."""
    names = [_column(name) for name in COLUMNS]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(name) for name in names)
    shape = ", ".join(
        f"{quote(name)} {kind}" for name, kind in zip(names, COLUMN_TYPES, strict=True)
    )
    document = json.dumps([dict(zip(names, row, strict=True)) for row in rows])
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) SELECT {columns} "
            f"FROM json_to_recordset(%s::json) AS r({shape})",
            [document],
        )
