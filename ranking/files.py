"""An event's results file: what carries an event's results from the Bordpunt that played it
to the federation's, where they are ranked (docs/results-file.md describes the format).

Two forms: JSON, the file that travels (a format marker, a version, the event, its games
with every player's points and percentage, and a checksum over the canonical content so
that a hand edit is seen), and CSV for spreadsheets (one row per player and game: number,
name, club, points, the unrounded percentage), which is never read back.

`results_file_read` reads the JSON strictly: anything that is not exactly a results file
of a version we know is refused as a whole, with one `ResultsFileError` whose code says
why (`MESSAGES` in the reader's language). `event_results_file` builds the file of an
event played here, from its duplicate divisions; the import is `ranking.files_import`.

Django: reads the event's rows; the writer and the reader need no database.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from statistics import median
from typing import Any, NamedTuple

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.inputs import validate_plain_text
from clubs.models import Player
from clubs.names import name_key
from competition.spreadsheets import csv_text
from duplicate.models import Evening
from duplicate.selectors import absent_from, evening_results, evening_state
from events.models import Entry, Event, Season
from events.permissions import directs_event
from ranking.core import stored_percentages

#: What the file says it is; another program's JSON does not say this.
FORMAT = "bordpunt-results"
#: The version this Bordpunt writes; it reads this one and every older one. 2: each game
#: names the players recorded absent (`absent`; version 1 has none).
VERSION = 2
CHECKSUM_PREFIX = "sha256:"

# Limits: far above any real event (an interclub: 150 players, 3 games; a file of 100 kB),
# so that only a broken or hostile file meets them.
MAX_GAMES = 100
MAX_RESULTS = 1000  # per game
MAX_NAME = 120
MAX_NUMBER = 20  # a federation number, a club's federation code
MIN_POINTS, MAX_POINTS = -10_000, 10_000
MAX_PERCENTAGE = 1e9  # the file's own percentages are read, never trusted (see docs)
MIN_YEAR, MAX_YEAR = 1900, 2999
#: The GV used for an event without a season: the default of a new season.
DEFAULT_GAP_VALUE: Decimal = Season._meta.get_field("gap_value").default


# --- the file as records ----------------------------------------------------------------


@dataclass(frozen=True)
class FileClub:
    """A club as the file names it: its name, and its code at the federation (which the
    federation's Bordpunt matches it by)."""

    name: str
    federation_code: str | None


class FileResult(NamedTuple):
    """One player's result in a game (a named tuple: a season's import reads 7,200, and
    one is made in 0.8 µs against a frozen dataclass's 2)."""

    federation_number: str | None
    name: str
    club: FileClub | None  # None: a guest
    points: int
    percentage: float


@dataclass(frozen=True)
class FileAbsent:
    """A player of the game recorded absent (`duplicate.models.Presence`): no result."""

    federation_number: str | None
    name: str
    club: FileClub | None  # None: a guest


@dataclass(frozen=True)
class FileGame:
    number: int
    date: date
    division: str
    #: The GV the percentages were computed with.
    gap_value: Decimal
    results: tuple[FileResult, ...]
    absent: tuple[FileAbsent, ...] = ()


@dataclass(frozen=True)
class ResultsFile:
    uid: uuid.UUID
    name: str
    organiser: FileClub
    kind: str
    date: date
    #: The short name of the event's season where it was played; informative only: the
    #: federation's official chooses the season the results count for.
    season: str | None
    games: tuple[FileGame, ...]
    #: The program that wrote it, e.g. "Bordpunt 1.4" (informative).
    program: str = ""

    @property
    def results(self) -> int:
        return sum(len(game.results) for game in self.games)

    @property
    def kind_label(self) -> str:
        return str(Event.Kind(self.kind).label)


# --- writing ------------------------------------------------------------------------------


def _club_content(club: FileClub | None) -> dict[str, Any] | None:
    if club is None:
        return None
    return {"name": club.name, "federation_code": club.federation_code}


def file_content(results: ResultsFile) -> dict[str, Any]:
    """The file's content as JSON values, without its checksum."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "program": results.program,
        "event": {
            "uid": str(results.uid),
            "name": results.name,
            "organiser": _club_content(results.organiser),
            "kind": results.kind,
            "date": results.date.isoformat(),
            "season": results.season,
        },
        "games": [
            {
                "number": game.number,
                "date": game.date.isoformat(),
                "division": game.division,
                "gap_value": str(game.gap_value),
                "results": [
                    {
                        "federation_number": result.federation_number,
                        "name": result.name,
                        "club": _club_content(result.club),
                        "points": result.points,
                        "percentage": result.percentage,
                    }
                    for result in game.results
                ],
                "absent": [
                    {
                        "federation_number": player.federation_number,
                        "name": player.name,
                        "club": _club_content(player.club),
                    }
                    for player in game.absent
                ],
            }
            for game in results.games
        ],
    }


def canonical(content: dict[str, Any]) -> bytes:
    """The bytes the checksum is taken over: the content as JSON with the keys sorted, no
    spaces, UTF-8 (docs/results-file.md, *Checksum*).

    >>> canonical({"b": [1, 2.5], "a": "é"})
    b'{"a":"\\xc3\\xa9","b":[1,2.5]}'
    """
    text = json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text.encode("utf-8")


def checksum(content: dict[str, Any]) -> str:
    return CHECKSUM_PREFIX + hashlib.sha256(canonical(content)).hexdigest()


def results_file_json(results: ResultsFile) -> bytes:
    """The JSON file: the content and its checksum, indented to be read by people."""
    content = file_content(results)
    signed = {**content, "checksum": checksum(content)}
    return (json.dumps(signed, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode()


CSV_COLUMNS = ("game", "division", "number", "name", "club", "points", "percentage")


def results_file_csv(results: ResultsFile) -> str:
    """One row per player and game, as the federation's spreadsheets take it: federation
    number, name, club, points and the percentage unrounded (a dot before the decimals);
    every cell through the one writer, so that no name runs as a formula there."""
    return csv_text(
        [
            CSV_COLUMNS,
            *(
                [
                    game.number,
                    game.division,
                    result.federation_number or "",
                    result.name,
                    result.club.name if result.club else "",
                    result.points,
                    repr(result.percentage),
                ]
                for game in results.games
                for result in game.results
            ),
        ]
    )


def results_with_percentages(
    rows: Sequence[tuple[str | None, str, FileClub | None, int]], gap_value: Decimal
) -> tuple[FileResult, ...]:
    """A game's results, each with its percentage by the NTSV formula
    (`ranking.core.game_percentages`), best first."""
    percentages = stored_percentages([points for *_rest, points in rows], gap_value)
    results = [
        FileResult(number, name, club, points, percentage)
        for (number, name, club, points), percentage in zip(rows, percentages, strict=True)
    ]
    return tuple(sorted(results, key=lambda r: (-r.points, r.name)))


def winner_and_median(points: Sequence[int]) -> tuple[int, float]:
    """The winner's points and the median player's, as a ranked game keeps them.

    >>> winner_and_median([300, 500, 400, 200])
    (500, 350.0)
    """
    return max(points), float(median(points))


# --- reading ------------------------------------------------------------------------------


MESSAGES: dict[str, Any] = {
    "not_utf8": _("This is not a Bordpunt results file: it is not text (UTF-8)."),
    "not_json": _(
        "This is not a Bordpunt results file: it is not JSON (line %(line)s, column %(column)s)."
    ),
    "truncated": _(
        "The file ends too early: it was cut off while copying or downloading. "
        "Export it again from the event's page."
    ),
    "not_ours": _(
        "This is not a Bordpunt results file: it does not say “%(format)s”. A file "
        "from another program cannot be read; export the event's results from Bordpunt."
    ),
    "newer_version": _(
        "This results file was made by a newer Bordpunt (version %(version)s of the "
        "format; this Bordpunt reads up to %(known)s). Update Bordpunt first."
    ),
    "bad_version": _("The file's version “%(value)s” is not a version of the format."),
    "no_checksum": _("The file has no checksum; it was not written by Bordpunt as it is."),
    "checksum": _(
        "The file was changed after it was exported (its checksum no longer fits its "
        "content): it may have been edited by hand. Export it again from the event's page; "
        "a correction is made there, not in the file."
    ),
    "duplicate_key": _("The file names “%(key)s” twice in one place."),
    "missing": _("%(where)s: “%(key)s” is missing."),
    "unknown": _("%(where)s: “%(key)s” is not part of the format."),
    "not_object": _("%(where)s must be an object ({…})."),
    "not_list": _("%(where)s must be a list ([…])."),
    "not_text": _("%(where)s must be text."),
    "empty_text": _("%(where)s is empty."),
    "too_long": _("%(where)s is longer than %(max)s characters."),
    "control_character": _("%(where)s contains a control character or a line break."),
    "not_integer": _("%(where)s must be a whole number from %(low)s to %(high)s, not %(value)s."),
    "not_number": _("%(where)s must be a number, not %(value)s."),
    "odd_percentage": _(
        "%(where)s: the percentage %(value)s is not a percentage any game can give."
    ),
    "bad_uid": _("The event's identity “%(value)s” is not a valid identity (UUID)."),
    "bad_date": _("%(where)s: “%(value)s” is not a date (YYYY-MM-DD)."),
    "bad_kind": _("The event's kind “%(value)s” is not one of %(known)s."),
    "bad_gap_value": _(
        "%(where)s: the GV “%(value)s” must be a number above 0 and at most 100, with at "
        "most three decimals."
    ),
    "no_games": _("The file holds no games."),
    "too_many_games": _("The file holds %(count)s games; an event has at most %(max)s."),
    "no_results": _("Game %(game)s has no results."),
    "too_many_results": _("Game %(game)s has %(count)s results; a game has at most %(max)s."),
    "game_twice": _("Game %(game)s is in the file twice."),
    "person_twice_in_game": _(
        "Game %(game)s: federation number %(number)s is in it twice (%(names)s). One "
        "person plays a game once."
    ),
    "person_two_clubs": _(
        "Federation number %(number)s (%(name)s) plays this event for two clubs: "
        "%(clubs)s. A person plays an event for one club; correct the entry where the "
        "event was played and export it again."
    ),
    "person_two_names": _(
        "Federation number %(number)s is claimed by two persons in this file: %(names)s. "
        "Two clubs cannot claim one person; correct the federation number where the event "
        "was played and export it again."
    ),
}


class ResultsFileError(ValueError):
    """A results file refused: a stable code, its parameters, the message by code."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        return str(MESSAGES[self.code] % self.params)


def _shown(value: Any, limit: int = 40) -> str:
    """A value as a message quotes it: short and printable."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)[:200]
    text = "".join(ch if ch.isprintable() else "\ufffd" for ch in text[:limit])
    return f"“{text}”" if isinstance(value, str) else text


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) < len(pairs):  # rare: then look for the key written twice
        keys = [key for key, _value in pairs]
        twice = next(key for key in keys if keys.count(key) > 1)
        raise ResultsFileError("duplicate_key", key=_shown(twice)[1:-1])
    return found


def _no_constant(name: str) -> Any:
    """JSON has no NaN or Infinity; Python's reader would take them."""
    raise ResultsFileError("not_number", where=_("A value"), value=name)


def _finite_float(text: str) -> float:
    """A number too large for a float (1e999) is not read as infinity."""
    number = float(text)
    if not math.isfinite(number):
        raise ResultsFileError("not_number", where=_("A value"), value=text[:40])
    return number


def _parse(data: bytes) -> Any:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ResultsFileError("not_utf8") from None
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_twice,
            parse_constant=_no_constant,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as error:
        stripped = text.strip()
        # An object that never ends: the rest of the file was cut off.
        ends_early = not stripped.endswith("}") or error.pos >= len(text.rstrip())
        if stripped.startswith("{") and ends_early:
            raise ResultsFileError("truncated") from None
        raise ResultsFileError("not_json", line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise ResultsFileError("not_json", line=1, column=1) from None


@functools.lru_cache(maxsize=4096)
def _cleaned(text: str) -> tuple[bool, str]:
    """Whether `text` passes `validate_plain_text`, and the text with its runs of spaces
    made one: once per distinct text, as a file names each club and person in every game
    (a season's 7,200 results read 29,000 texts, of some 700 distinct ones)."""
    try:
        validate_plain_text(text)
    except ValidationError:
        return False, " ".join(text.split())
    return True, " ".join(text.split())


@functools.lru_cache(maxsize=4096)
def _club_once(name: str, federation_code: str | None) -> FileClub:
    """One `FileClub` a club of the file, not one a result (it is frozen: shared safely)."""
    return FileClub(name, federation_code)


class _Reader:
    """Reads one object of the file, saying where each refusal was."""

    def __init__(self, value: Any, where: Any, keys: frozenset[str]) -> None:
        #: Where this object is, for a message: text, or a function giving it (a message
        #: is rare; a file of 7,000 results need not name each place in words).
        self._where = where
        if not isinstance(value, dict):
            raise ResultsFileError("not_object", where=self.where)
        if not keys.issuperset(value):  # the loop only to name the first stranger
            for key in value:
                if key not in keys:
                    raise ResultsFileError("unknown", where=self.where, key=_shown(key)[1:-1])
        self.value = value

    @property
    def where(self) -> str:
        return str(self._where() if callable(self._where) else self._where)

    @where.setter
    def where(self, where: Any) -> None:
        self._where = where

    def get(self, key: str) -> Any:
        try:
            return self.value[key]
        except KeyError:
            raise ResultsFileError("missing", where=self.where, key=key) from None

    def text(self, key: str, *, max_length: int = MAX_NAME, optional: bool = False) -> Any:
        value = self.get(key)
        if type(value) is str and len(value) <= max_length:
            plain, cleaned = _cleaned(value)
            if plain and cleaned:  # the usual case, first: a text that passes
                return cleaned
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise ResultsFileError("not_text", where=f"{self.where}, {key}")
        plain, cleaned = _cleaned(value)
        if not cleaned:  # spaces only: str.split and str.strip know the same spaces
            if optional:
                return None
            raise ResultsFileError("empty_text", where=f"{self.where}, {key}")
        if len(value) > max_length:
            raise ResultsFileError("too_long", where=f"{self.where}, {key}", max=max_length)
        if not plain:
            raise ResultsFileError("control_character", where=f"{self.where}, {key}")
        return cleaned

    def integer(self, key: str, low: int, high: int) -> int:
        value = self.get(key)
        # bool is an int in Python, not in JSON.
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ResultsFileError(
                "not_integer", where=f"{self.where}, {key}", low=low, high=high, value=_shown(value)
            )
        return value

    def date(self, key: str) -> date:
        value = self.get(key)
        try:
            parsed = (
                date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
            )
        except ValueError:
            parsed = None
        if parsed is None or not MIN_YEAR <= parsed.year <= MAX_YEAR:
            raise ResultsFileError(
                "bad_date", where=f"{self.where}, {key}", value=_shown(value)[1:-1]
            )
        return parsed

    def club(self, key: str, *, optional: bool) -> FileClub | None:
        value = self.get(key)
        if value is None and optional:
            return None
        club = _Reader(value, lambda: f"{self.where}, {key}", CLUB_KEYS)
        return _club_once(
            club.text("name"), club.text("federation_code", max_length=MAX_NUMBER, optional=True)
        )


def _version(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ResultsFileError("bad_version", value=_shown(value))
    if value > VERSION:
        raise ResultsFileError("newer_version", version=value, known=VERSION)
    return value


def _gap_value(value: Any, where: str) -> Decimal:
    try:
        gap = Decimal(value) if isinstance(value, str) and len(value) <= 12 else None
    except InvalidOperation:
        gap = None
    if (
        gap is None
        or not gap.is_finite()
        or not Decimal("0") < gap <= Decimal("100")
        or gap != gap.quantize(Decimal("0.001"))
    ):
        raise ResultsFileError("bad_gap_value", where=where, value=_shown(value)[1:-1])
    return gap


def _percentage(row: _Reader, key: str) -> float:
    value = row.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ResultsFileError("not_number", where=f"{row.where}, {key}", value=_shown(value))
    number = float(value) if abs(value) < 1e300 else math.inf
    if not math.isfinite(number) or abs(number) > MAX_PERCENTAGE or number > 100:
        raise ResultsFileError("odd_percentage", where=f"{row.where}, {key}", value=_shown(value))
    return number


def _game(value: Any, index: int, version: int) -> FileGame:
    keys = GAME_KEYS if version >= 2 else GAME_KEYS_1
    game = _Reader(value, _("Game %(index)s") % {"index": index}, keys)
    number = game.integer("number", 1, MAX_GAMES)
    where = _("Game %(game)s") % {"game": number}
    game.where = where
    entries = game.get("results")
    if not isinstance(entries, list):
        raise ResultsFileError("not_list", where=f"{where}, results")
    if not entries:
        raise ResultsFileError("no_results", game=number)
    if len(entries) > MAX_RESULTS:
        raise ResultsFileError("too_many_results", game=number, count=len(entries), max=MAX_RESULTS)
    results = []
    for position, entry in enumerate(entries, 1):
        row = _Reader(
            entry,
            lambda n=position: _("%(where)s, result %(n)s") % {"where": where, "n": n},
            RESULT_KEYS,
        )
        results.append(
            FileResult(
                federation_number=row.text(
                    "federation_number", max_length=MAX_NUMBER, optional=True
                ),
                name=row.text("name"),
                club=row.club("club", optional=True),
                points=row.integer("points", MIN_POINTS, MAX_POINTS),
                percentage=_percentage(row, "percentage"),
            )
        )
    return FileGame(
        number=number,
        date=game.date("date"),
        division=game.text("division"),
        gap_value=_gap_value(game.get("gap_value"), f"{where}, gap_value"),
        results=tuple(results),
        absent=_absent(game, where) if version >= 2 else (),
    )


def _absent(game: _Reader, where: str) -> tuple[FileAbsent, ...]:
    """The players of a game recorded absent (version 2 on): a list, maybe empty."""
    entries = game.get("absent")
    if not isinstance(entries, list):
        raise ResultsFileError("not_list", where=f"{where}, absent")
    if len(entries) > MAX_RESULTS:
        raise ResultsFileError(
            "too_many_results", game=game.value.get("number"), count=len(entries), max=MAX_RESULTS
        )
    absent = []
    for position, entry in enumerate(entries, 1):
        row = _Reader(
            entry,
            lambda n=position: _("%(where)s, absent %(n)s") % {"where": where, "n": n},
            ABSENT_KEYS,
        )
        absent.append(
            FileAbsent(
                federation_number=row.text(
                    "federation_number", max_length=MAX_NUMBER, optional=True
                ),
                name=row.text("name"),
                club=row.club("club", optional=True),
            )
        )
    return tuple(absent)


TOP_KEYS = frozenset(("format", "version", "program", "event", "games", "checksum"))
EVENT_KEYS = frozenset(("uid", "name", "organiser", "kind", "date", "season"))
GAME_KEYS_1 = frozenset(("number", "date", "division", "gap_value", "results"))
GAME_KEYS = GAME_KEYS_1 | {"absent"}
RESULT_KEYS = frozenset(("federation_number", "name", "club", "points", "percentage"))
ABSENT_KEYS = frozenset(("federation_number", "name", "club"))
CLUB_KEYS = frozenset(("name", "federation_code"))


def results_file_read(data: bytes) -> ResultsFile:
    """The results file in `data`, read strictly: the format marker first (another
    program's file), then the version (a newer Bordpunt's), the checksum (a hand edit),
    then every value. Raises `ResultsFileError`, with nothing read half."""
    top = _parse(data)
    if not isinstance(top, dict) or top.get("format") != FORMAT:
        raise ResultsFileError("not_ours", format=FORMAT)
    version = _version(top.get("version"))
    if not isinstance(top.get("checksum"), str):
        raise ResultsFileError("no_checksum")
    content = {key: value for key, value in top.items() if key != "checksum"}
    if checksum(content) != top["checksum"]:
        raise ResultsFileError("checksum")
    body = _Reader(top, _("The file"), TOP_KEYS)
    program = body.text("program", optional=True) or ""
    event = _Reader(body.get("event"), _("The event"), EVENT_KEYS)
    try:
        uid = uuid.UUID(event.get("uid")) if isinstance(event.get("uid"), str) else None
    except ValueError:
        uid = None
    if uid is None:
        raise ResultsFileError("bad_uid", value=_shown(event.get("uid"))[1:-1])
    kind = event.get("kind")
    if kind not in Event.Kind.values:
        raise ResultsFileError(
            "bad_kind", value=_shown(kind)[1:-1], known=", ".join(Event.Kind.values)
        )
    games_value = body.get("games")
    if not isinstance(games_value, list):
        raise ResultsFileError("not_list", where="games")
    if not games_value:
        raise ResultsFileError("no_games")
    if len(games_value) > MAX_GAMES:
        raise ResultsFileError("too_many_games", count=len(games_value), max=MAX_GAMES)
    games = tuple(_game(value, index, version) for index, value in enumerate(games_value, 1))
    results = ResultsFile(
        uid=uid,
        name=event.text("name"),
        organiser=event.club("organiser", optional=False),  # type: ignore[arg-type]
        kind=kind,
        date=event.date("date"),
        season=event.text("season", max_length=50, optional=True),
        games=games,
        program=program,
    )
    _check_persons(results)
    return results


def _club_key(club: FileClub | None) -> tuple[str, str] | None:
    if club is None:
        return None
    return (club.federation_code or "", name_key(club.name) if not club.federation_code else "")


def _check_persons(results: ResultsFile) -> None:
    """One person (a federation number) is in a game once, under one name, and plays the
    event for one club."""
    names: dict[str, dict[str, str]] = {}
    #: Each spelling of a number's name seen, so `name_key` runs once a spelling, not once
    #: a result (a person is in every game of the event).
    spellings: dict[str, set[str]] = {}
    clubs: dict[str, dict[tuple[str, str] | None, FileClub | None]] = {}
    seen_games: set[int] = set()
    for game in results.games:
        if game.number in seen_games:
            raise ResultsFileError("game_twice", game=game.number)
        seen_games.add(game.number)
        in_game: dict[str, list[str]] = {}
        for result in game.results:
            number = result.federation_number
            if number is None:
                continue
            in_game.setdefault(number, []).append(result.name)
            seen = spellings.setdefault(number, set())
            if result.name not in seen:
                seen.add(result.name)
                names.setdefault(number, {}).setdefault(name_key(result.name), result.name)
            clubs.setdefault(number, {}).setdefault(_club_key(result.club), result.club)
        for number, found in in_game.items():
            if len(found) > 1:
                raise ResultsFileError(
                    "person_twice_in_game", game=game.number, number=number, names=", ".join(found)
                )
    for number, spelled in names.items():
        if len(spelled) > 1:
            raise ResultsFileError(
                "person_two_names", number=number, names=", ".join(sorted(spelled.values()))
            )
    for number, claimed in clubs.items():
        if len(claimed) > 1:
            shown = sorted(club.name if club else str(_("guest")) for club in claimed.values())
            raise ResultsFileError(
                "person_two_clubs",
                number=number,
                name=next(iter(names[number].values())),
                clubs=", ".join(shown),
            )


def program_name() -> str:
    """This program as a results file names it."""
    try:
        return f"Bordpunt {importlib.metadata.version('bordpunt')}"
    except importlib.metadata.PackageNotFoundError:  # a checkout never installed
        return "Bordpunt"


# --- an event played here -----------------------------------------------------------------


def may_export(user: Any, event: Event) -> bool:
    """Who may download an event's results file: whoever directs the event (its directors,
    the organiser's secretaries, staff, the operator acting for the organiser). The file
    names persons with their federation numbers, so it is not public."""
    return getattr(user, "is_authenticated", False) and directs_event(user, event)


@dataclass(frozen=True)
class EventFile:
    """An event's results file, and the evenings left out of it (not finished yet)."""

    results: ResultsFile | None
    unfinished: tuple[str, ...]


def _file_club(club: Any) -> FileClub | None:
    if club is None:
        return None
    return FileClub(name=club.name, federation_code=club.federation_code or None)


def event_results_file(event: Event) -> EventFile:
    """The results file of an event played here: one game per finished evening of its
    duplicate divisions (division by division, evening by evening), each player with the
    club of their entry (none: a guest) and the percentages with the season's GV (an event
    without a season: the default GV). `results` is None while no evening is finished."""
    season = event.season
    gap_value = season.gap_value if season is not None else DEFAULT_GAP_VALUE
    entries = {
        entry.player_id: entry.club
        for entry in Entry.objects.filter(event=event).select_related("club")
    }
    evenings = (
        Evening.objects.filter(competition__event=event)
        .select_related("competition")
        .order_by("competition__name", "competition_id", "number")
    )
    games: list[FileGame] = []
    unfinished: list[str] = []
    for evening in evenings:
        division = evening.competition.name
        if not evening_state(evening).is_over:
            unfinished.append(f"{division} – {evening.number}")
            continue
        rows = evening_results(evening)
        if not rows:
            unfinished.append(f"{division} – {evening.number}")
            continue
        away = absent_from(evening)
        players = {p.pk: p for p in _players([row.player_id for row in rows] + away)}
        results = results_with_percentages(
            [
                (
                    players[row.player_id].federation_number or None,
                    players[row.player_id].name,
                    _file_club(entries.get(row.player_id)),
                    row.total,
                )
                for row in rows
            ],
            gap_value,
        )
        games.append(
            FileGame(
                number=len(games) + 1,
                date=evening.date or event.date or evening.created_at.date(),
                division=division,
                gap_value=gap_value,
                results=results,
                absent=tuple(
                    sorted(
                        (
                            FileAbsent(
                                players[player].federation_number or None,
                                players[player].name,
                                _file_club(entries.get(player)),
                            )
                            for player in away
                        ),
                        key=lambda absent: absent.name,
                    )
                ),
            )
        )
    if not games:
        return EventFile(None, tuple(unfinished))
    results_file = ResultsFile(
        uid=event.uid,
        name=event.name,
        organiser=FileClub(event.organiser.name, event.organiser.federation_code or None),
        kind=event.kind,
        date=event.date or games[0].date,
        season=season.slug if season is not None else None,
        games=tuple(games),
        program=program_name(),
    )
    return EventFile(results_file, tuple(unfinished))


def _players(ids: list[int]) -> list[Player]:
    return list(Player.objects.filter(pk__in=ids).only("name", "federation_number"))
