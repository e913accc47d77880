"""Reading a results file (CSV) into plain rows: the strict parser of the CSV import.

Pure: imports nothing from Django or the apps. Every problem is a :class:`CsvError` with a
stable ``code`` and its ``params`` (the line among them); the app renders it in the reader's
language (``competition.services.importing``), which also plans and writes the rows.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")

COLUMNS = ("round", "table", "player", "opponent", "score", "opponent_score", "outcome")
#: The long form: one row per player; the rows of one round and table are one game.
LONG_COLUMNS = ("round", "table", "player", "score", "outcome")
#: The long form's outcomes, each said of the row's own player.
LONG_OUTCOMES = ("normal", "flag", "forfeit", "annulled", "bye")
SEATS = "abcd"  # the seats in the kinds' codes ("flag_ac"), as games.services.SEAT_LETTERS
DELIMITERS = (",", ";", "\t")
MAX_FILE_BYTES = 2 * 1024 * 1024  # a season of a large club is well under 100 kB
MAX_ROWS = 5000
# A PositiveSmallIntegerField holds up to 32767 on every database Django supports.
MAX_NUMBER = 32767
BYE = "bye"
#: What a spreadsheet would run as a formula: every CSV the site writes puts an apostrophe
#: before a text that starts so (`competition.spreadsheets.spreadsheet_cell`), and reading
#: takes it off.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

# The result kinds are the codes of `games.services.ResultKind` (a test holds them equal).
NORMAL, FLAG_A, FLAG_B = "normal", "flag_a", "flag_b"
FORFEIT_A, FORFEIT_B, FORFEIT_BOTH, ANNULLED = "forfeit_a", "forfeit_b", "forfeit_both", "annulled"

# The file speaks from the row's player's point of view; the game's first player is `player`.
OUTCOMES = {
    "normal": NORMAL,
    "flag:player": FLAG_A,
    "flag:opponent": FLAG_B,
    "forfeit:player": FORFEIT_A,
    "forfeit:opponent": FORFEIT_B,
    "forfeit:both": FORFEIT_BOTH,
    "annulled": ANNULLED,
    "bye": BYE,
}
SCORED = frozenset({NORMAL, FLAG_A, FLAG_B})
MIRRORED = {FLAG_A: FLAG_B, FLAG_B: FLAG_A, FORFEIT_A: FORFEIT_B, FORFEIT_B: FORFEIT_A}


class CsvError(ValueError):
    """One problem of a results file: ``code`` is stable (the app translates on it),
    ``params`` fill the message, ``line`` is the file's line (0: the whole file)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        self.line: int = params.get("line", 0)
        super().__init__(code, params)  # not formatted here: a bad file makes thousands


class CsvRefused(ValueError):
    """The file's rows hold errors: every one of them, in file order."""

    def __init__(self, errors: list[CsvError]) -> None:
        self.errors = tuple(errors)
        super().__init__(f"{len(errors)} errors, the first: {errors[0]}")


@dataclass(frozen=True)
class ImportRow:
    line: int
    round: int
    table: int | None
    player: str
    opponent: str
    kind: str
    score: int | None
    opponent_score: int | None


@dataclass(frozen=True)
class TableRow:
    """One game of the long form: its players in the file's order (the table's order), the
    result kind as `games.services.ResultKind` codes it ("flag_b", "forfeit_c", "annulled",
    "bye") and each player's score (None for a forfeit, an annulled game and a bye).
    `line` is the game's first line; `lines` each player's."""

    line: int
    round: int
    table: int | None
    players: tuple[str, ...]
    kind: str
    scores: tuple[int | None, ...]
    lines: tuple[int, ...]


@dataclass(frozen=True)
class Limits:
    """What the database can hold: the longest name and the range of a score."""

    max_name: int
    min_score: int
    max_score: int


def name_key(name: str) -> str:
    """How names are matched: case and runs of spaces ignored.

    >>> name_key("  Anke   DE Vries ")
    'anke de vries'
    """
    return " ".join(name.split()).casefold()


def shown(value: str, limit: int = 30) -> str:
    """A value as quoted back in a message: short, without control characters.

    >>> shown("Anke\\x00") + "|" + shown("x" * 40)[-3:]
    'Anke�|xx…'
    """
    text = "".join(ch if ch.isprintable() else "\ufffd" for ch in value[:limit])
    return text + ("…" if len(value) > limit else "")


def decode(data: bytes) -> str:
    """The file's text: UTF-8 (a BOM allowed), at most MAX_FILE_BYTES."""
    if len(data) > MAX_FILE_BYTES:
        raise CsvError("too_large", size=MAX_FILE_BYTES // (1024 * 1024))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CsvError("not_utf8", line=data[: error.start].count(b"\n") + 1) from None


def delimiter(header: str) -> str:
    """The separator the header line uses: comma, semicolon (Dutch spreadsheets) or tab.

    >>> delimiter("round;table;player") + delimiter("round,table") + delimiter("x")
    ';,,'
    """
    return max(DELIMITERS, key=header.count) if any(d in header for d in DELIMITERS) else ","


def read(data: bytes, *, limits: Limits) -> list[ImportRow] | list[TableRow]:
    """Read and check every row: the short form's `ImportRow`s (one game a row, seen from
    its first player), or the long form's games (`TableRow`, one player a row).

    Raises :class:`CsvError` for a file that cannot be read at all, and :class:`CsvRefused`
    with every bad row's error (each with its line).
    """
    text = decode(data)
    stream = io.StringIO(text, newline="")
    header_line = text.split("\n", 1)[0]
    reader = csv.reader(
        stream, delimiter=delimiter(header_line), quotechar='"', doublequote=True,
        skipinitialspace=True, strict=False,
    )  # fmt: skip
    try:
        header = [name.strip().lower() for name in next(reader, [])]
    except csv.Error:
        raise CsvRefused([CsvError("not_csv", line=reader.line_num)]) from None
    if "opponent" not in header and all(name in header for name in LONG_COLUMNS):
        return _read_long(reader, header, limits=limits)
    missing = [name for name in COLUMNS if name not in header]
    if missing:
        raise CsvError("missing_columns", line=1, missing=", ".join(missing))
    rows, errors = _parsed(reader, header, COLUMNS, partial(parse_row, limits=limits))
    if errors:
        raise CsvRefused(errors)
    if not rows:
        raise CsvError("no_results")
    return rows


def _parsed(
    reader: Any,
    header: list[str],
    columns: Sequence[str],
    parse: Callable[[dict[str, str], int], T],
) -> tuple[list[T], list[CsvError]]:
    """Every non-empty row after the header through `parse`, and every row's error with
    its line (at most MAX_ROWS in all)."""
    position = {name: header.index(name) for name in columns}
    rows: list[T] = []
    errors: list[CsvError] = []
    try:
        for record in reader:
            line = reader.line_num
            values = {
                name: record[index].strip() if index < len(record) else ""
                for name, index in position.items()
            }
            if not any(values.values()):
                continue
            if len(rows) + len(errors) >= MAX_ROWS:
                # First, so that a capped list still shows it.
                errors.insert(0, CsvError("too_many_rows", line=line, count=MAX_ROWS))
                break
            try:
                rows.append(parse(values, line))
            except CsvError as error:
                # Without its traceback: thousands kept alive, each with its frames, would
                # make the garbage collector's rounds cost a third of the read.
                errors.append(error.with_traceback(None))
    except csv.Error:  # in practice: a quote left open swallowed the rest of the file
        errors.append(CsvError("not_csv", line=reader.line_num))
    return rows, errors


def _read_long(reader: Any, header: list[str], *, limits: Limits) -> list[TableRow]:
    """The long form's rows (one per player), grouped into games by round and table; every
    bad row and every game whose rows do not fit together refused with its line."""
    rows, errors = _parsed(reader, header, LONG_COLUMNS, partial(_parse_long_row, limits=limits))
    tables: dict[tuple[int, int | None, int], list[tuple[int, str, int | None, str]]] = {}
    for line, number, table, player, score, outcome in rows:
        # A bye is a game of its own; the other rows of a round and table are one game.
        key = (number, table, line if outcome == "bye" else 0)
        tables.setdefault(key, []).append((line, player, score, outcome))
    games: list[TableRow] = []
    if errors:  # a table missing a bad row would be refused for it once more
        raise CsvRefused(errors)
    for (number, table, _bye), seats in tables.items():
        try:
            games.append(_table_row(number, table, seats))
        except CsvError as error:
            errors.append(error.with_traceback(None))
    if errors:
        raise CsvRefused(sorted(errors, key=lambda error: error.line))
    if not games:
        raise CsvError("no_results")
    return sorted(games, key=lambda game: game.line)


def _round_table_outcome(
    values: dict[str, str], line: int, known: Sequence[str] | dict[str, str]
) -> tuple[int, int | None, str]:
    """The columns both forms share: the round (required), the table and the outcome,
    one of `known` ("normal" when empty)."""
    round_number = _required(
        _number(values["round"], line, "round", low=1, high=MAX_NUMBER), line, "round"
    )
    table = _number(values["table"], line, "table", low=1, high=MAX_NUMBER)
    outcome = values["outcome"].lower() or "normal"
    if outcome not in known:
        raise CsvError(
            "unknown_outcome", line=line, outcome=shown(values["outcome"]), known=", ".join(known)
        )
    return round_number, table, outcome


def _parse_long_row(
    values: dict[str, str], line: int, *, limits: Limits
) -> tuple[int, int, int | None, str, int | None, str]:
    round_number, table, outcome = _round_table_outcome(values, line, LONG_OUTCOMES)
    player = _name(values["player"], line, "player", limits)
    if not player:
        raise CsvError("no_player", line=line)
    if outcome != "bye" and table is None:
        raise CsvError("empty", line=line, column="table")
    score = _score(values["score"], line, "score", limits)
    if outcome in ("forfeit", "annulled", "bye") and score is not None:
        raise CsvError("long_score_not_allowed", line=line, outcome=outcome)
    return line, round_number, table, player, score, outcome


def _table_row(
    number: int, table: int | None, seats: list[tuple[int, str, int | None, str]]
) -> TableRow:
    """One game of the long form from its rows, or the reason they do not make one."""
    lines = tuple(line for line, *_rest in seats)
    first = lines[0]
    players = tuple(player for _line, player, _score, _outcome in seats)
    outcomes = [outcome for *_rest, outcome in seats]
    scores = tuple(score for _line, _player, score, _outcome in seats)
    if outcomes == ["bye"]:
        return TableRow(first, number, None, players, BYE, (None,), lines)
    if not 2 <= len(seats) <= len(SEATS):
        raise CsvError("table_size", line=first, round=number, table=table, count=len(seats))
    keys = [name_key(player) for player in players]
    twice = next((i for i, key in enumerate(keys) if key in keys[:i]), None)
    if twice is not None:
        raise CsvError("player_twice", line=lines[twice], name=shown(players[twice]))
    marked = "".join(SEATS[seat] for seat, outcome in enumerate(outcomes) if outcome != "normal")
    if "annulled" in outcomes:
        if set(outcomes) != {"annulled"}:
            raise CsvError("annulled_not_everywhere", line=first, round=number, table=table)
        return TableRow(first, number, table, players, ANNULLED, scores, lines)
    if "bye" in outcomes:
        raise CsvError("bye_at_table", line=lines[outcomes.index("bye")])
    if "forfeit" in outcomes:
        # At a table of 3 or 4 two or more may have played without who did not come: then
        # every one of them has a score (nobody played: none has).
        played = len(marked) <= len(seats) - 2 and "flag" not in outcomes
        if played and any(score is not None for score in scores):
            came = [seat for seat, outcome in enumerate(outcomes) if outcome != "forfeit"]
            missing = next((seat for seat in came if scores[seat] is None), None)
            if missing is not None:
                raise CsvError("empty", line=lines[missing], column="score")
        elif "flag" in outcomes or any(score is not None for score in scores):
            raise CsvError("forfeit_with_scores", line=first, round=number, table=table)
        if len(seats) == 2 and len(marked) == 2:
            return TableRow(first, number, table, players, FORFEIT_BOTH, scores, lines)
        return TableRow(first, number, table, players, f"forfeit_{marked}", scores, lines)
    missing = next((i for i, score in enumerate(scores) if score is None), None)
    if missing is not None:
        raise CsvError("empty", line=lines[missing], column="score")
    if len(marked) == len(seats):
        raise CsvError("every_flag_fell", line=first, round=number, table=table)
    kind = f"flag_{marked}" if marked else NORMAL
    return TableRow(first, number, table, players, kind, scores, lines)


def parse_row(values: dict[str, str], line: int, *, limits: Limits) -> ImportRow:
    """One row's values (by column name) as an :class:`ImportRow`; its first error raised."""
    round_number, table, outcome = _round_table_outcome(values, line, OUTCOMES)
    kind = OUTCOMES[outcome]
    player = _name(values["player"], line, "player", limits)
    opponent = _name(values["opponent"], line, "opponent", limits)
    if not player:
        raise CsvError("no_player", line=line)
    if kind == BYE and opponent:
        raise CsvError("bye_with_opponent", line=line)
    if kind != BYE and not opponent:
        raise CsvError("no_opponent", line=line)
    if name_key(player) == name_key(opponent):
        raise CsvError("against_self", line=line)
    score: int | None
    opponent_score: int | None
    if kind not in SCORED:
        if values["score"] or values["opponent_score"]:
            raise CsvError("scores_not_allowed", line=line, outcome=outcome)
        score = opponent_score = None
    else:
        score = _required(_score(values["score"], line, "score", limits), line, "score")
        opponent_score = _required(
            _score(values["opponent_score"], line, "opponent_score", limits),
            line,
            "opponent_score",
        )
    return ImportRow(
        line=line,
        round=round_number,
        table=table,
        player=player,
        opponent=opponent,
        kind=kind,
        score=score,
        opponent_score=opponent_score,
    )


def _number(value: str, line: int, column: str, *, low: int, high: int) -> int | None:
    """A whole number of ASCII digits within [low, high]; empty is None."""
    digits = value[1:] if value[:1] in "+-" else value
    if not value:
        return None
    # Ten digits are plenty; more would also make int() refuse (or take long) on its own.
    plain = digits.isascii() and digits.isdigit() and len(digits) <= 10
    if not plain or not low <= int(value) <= high:
        raise CsvError(
            "bad_number", line=line, column=column, low=low, high=high, value=shown(value)
        )
    return int(value)


def _required(value: int | None, line: int, column: str) -> int:
    if value is None:
        raise CsvError("empty", line=line, column=column)
    return value


def _name(value: str, line: int, column: str, limits: Limits) -> str:
    name = from_spreadsheet(" ".join(value.split()))
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise CsvError("control_character", line=line, column=column, value=shown(name))
    if len(name) > limits.max_name:
        raise CsvError("name_too_long", line=line, column=column, max=limits.max_name)
    return name


def from_spreadsheet(text: str) -> str:
    """A name as it was before the export guarded it against running as a formula: a
    file exported by Bordpunt reads back with the names it wrote.

    >>> [from_spreadsheet(v) for v in ["'=Anna", "'@Bo", "'t Hart", "'"]]
    ['=Anna', '@Bo', "'t Hart", "'"]
    """
    if text.startswith("'") and text[1:].startswith(FORMULA_START):
        return text[1:]
    return text


def _score(value: str, line: int, column: str, limits: Limits) -> int | None:
    return _number(value, line, column, low=limits.min_score, high=limits.max_score)


def same_game(first: ImportRow, second: ImportRow) -> bool:
    """Whether `second` is the same game told from the opponent's side."""
    return (
        first.kind != BYE
        and name_key(first.player) == name_key(second.opponent)
        and name_key(first.opponent) == name_key(second.player)
        and MIRRORED.get(second.kind, second.kind) == first.kind
        and (second.score, second.opponent_score) == (first.opponent_score, first.score)
    )


def without_mirrored(rows: list[ImportRow]) -> list[ImportRow]:
    """Drop each row that tells an earlier row's game from the opponent's side."""
    kept: list[ImportRow] = []
    seen: dict[tuple[int, str], ImportRow] = {}
    for row in rows:
        mirror = seen.get((row.round, name_key(row.player)))
        if mirror is not None and same_game(mirror, row):
            continue
        for name in (row.player, row.opponent):
            if name:
                seen.setdefault((row.round, name_key(name)), row)
        kept.append(row)
    return kept
