"""The one insert of the results file's import that is SQL of our own: a season's ranked
results written with one `executemany` (docs/architecture.md, *Conventions*: SQL of our own
only where a benchmark shows the ORM missing a target).

The figure (`benchmarks/ranking.py`, SQLite, this 2-core machine): 7,200 ranked results
(16 interclubs of 150 players, 3 games each) took 1.17 s through `bulk_create` (0.17 s
making the model instances, 1.0 s building 58 statements of 124 rows, SQLite's limit of
999 parameters a statement), against 0.13 s through one `executemany`; the import and the
season ranking together must stay under 2 s. The columns are the model's own
(`_meta`), so a renamed column cannot drift from it; a new column with no default in the
database would fail here at once, in the tests of the import.

Django: a database cursor.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection

from ranking.models import RankedResult

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


def ranked_results_insert(rows: Iterable[tuple[Any, ...]]) -> None:
    """Insert `rows`, each the values of `COLUMNS` in that order (foreign keys as ids),
    in the caller's transaction."""
    meta = RankedResult._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in COLUMNS)
    marks = ", ".join(["%s"] * len(COLUMNS))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})",
            list(rows),
        )
