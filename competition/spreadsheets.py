"""Every CSV file Bordpunt writes, through one writer: no cell runs as a formula.

A name typed on a form (a player's, a club's, a competition's, an event's) ends up in the
files that the clubs and the federation open in their spreadsheets. A text that starts with
= + - @ tab or CR would be run there as a formula (`=HYPERLINK(...)` becomes a live link),
so `csv_text` writes every cell through `spreadsheet_cell`. The pages, the results file and
the management commands all write their CSV here (`tests/test_csv_files.py` walks every CSV
the site and the commands offer with hostile names, and fails on a `csv` writer anywhere
else); the import reads the apostrophe off again (`competition.core.results_csv`).

Django: none but the reader's number format (`clubs.numbers`) in `spreadsheet_csv`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

from clubs import numbers
from competition.core.results_csv import FORMULA_START

PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+([.,][0-9]+)?")


def spreadsheet_cell(value: Any) -> Any:
    """A value a spreadsheet will show as text, never run as a formula.

    A text starting with = + - @ tab or CR gets a leading apostrophe (the OWASP advice
    against CSV injection); numbers, also negative ones written as text, stay numbers.

    >>> [spreadsheet_cell(v) for v in ["=HYPERLINK(1)", "@SUM(A1)", "-12", -12, "Anna", "-x"]]
    ["'=HYPERLINK(1)", "'@SUM(A1)", '-12', -12, 'Anna', "'-x"]
    """
    unsafe = isinstance(value, str) and value.startswith(FORMULA_START)
    return "'" + value if unsafe and not PLAIN_NUMBER.fullmatch(value) else value


def csv_text(
    rows: Iterable[Sequence[Any]], *, delimiter: str = ",", lineterminator: str = "\r\n"
) -> str:
    """`rows` (the header first) as CSV, every cell through `spreadsheet_cell`.

    >>> csv_text([["name", "points"], ["=1+1", -3], ["Anna", 412]], lineterminator="\\n")
    "name,points\\n'=1+1,-3\\nAnna,412\\n"
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=lineterminator)
    for row in rows:
        writer.writerow([spreadsheet_cell(value) for value in row])
    return buffer.getvalue()


def spreadsheet_csv(columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> str:
    """Rows as CSV for the reader's spreadsheet: a header of `columns`, then each row's
    values of those columns (others left out, a missing one empty).

    In Dutch a fraction has a decimal comma and the fields are separated by semicolons, as
    a Dutch spreadsheet opens them; in English a point and commas (`clubs.numbers`)."""
    return csv_text(
        [
            columns,
            *([numbers.csv_number(row.get(column)) for column in columns] for row in rows),
        ],
        delimiter=numbers.csv_delimiter(),
    )
