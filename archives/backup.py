"""Backup and restore of a whole club as one ZIP archive.

The archive holds `club.json` (every row of the club: players, memberships, competitions,
groups, entrants, rounds, absences, games, seats and moves), `history.json` (every history
entry, readable on its own) and `games/<id>.gcg` (each game with moves, as the GCG download
gives it). Rows are written field by field from the models' own metadata, so a field added
to a model is carried without a change here; foreign keys are written as the archive's ids
(renumbered on import) and user accounts by username only. No password leaves the database,
and a restore neither creates nor links an account: an archive can name anyone, so its
usernames are kept as names only (see `_Restorer`). A restore trusts nothing else either:
sizes are checked before unpacking, every field as the forms and the engine check it.
"""

from __future__ import annotations

import datetime
import io
import json
import os
import re
import struct
import uuid
import zipfile
import zlib
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from archives import schema
from clubs.inputs import file_size_text
from clubs.models import Club, HistoryEntry, Membership, Player, Submission, Throttle
from clubs.slugs import validate_club_slug
from competition.models import Absence, Competition, Entrant, Group, Round
from competition.services import CompetitionError
from duplicate.models import (
    DuplicateCompetition,
    Evening,
    Participant,
    Presence,
    Slip,
    SlipConflict,
    Turn,
)
from events.models import Entry, Event, Season
from games.models import MAX_SEAT, Game, GameClock, Move, Outcome, Seat
from games.moves import game_to_gcg
from games.rule_messages import describe
from rules import result as result_rules

FORMAT = "bordpunt-club"
#: 2: a game's players and result are its seats (docs/tables.md); 3: a duplicate
#: competition is its own model (docs/duplicate.md); 4: its thinking time is one of its
#: rules (`settings`), an evening keeps its slip rules, a turn its clock; 5: the events the
#: club organises (its seasons, when it is a federation), their entries, a competition's
#: event (an archive of 4 and before has none: its tables are empty); 6: who was at a
#: duplicate evening (`Presence`; an archive of 5 and before has none recorded).
VERSION = 6
#: The versions a restore reads: 1 through `schema.seats_from_sides`, 1 and 2 through
#: `schema.duplicate_apart`, 1 to 3 through `schema.thinking_time_into_the_rules`.
READS = (1, 2, 3, 4, 5, VERSION)

#: Every model of a club, parents before children (the order rows are restored in).
CLUB_MODELS: tuple[type[models.Model], ...] = (
    Club,
    Player,
    Membership,
    Season,
    Event,
    Entry,
    Competition,
    Group,
    Entrant,
    Round,
    Absence,
    Game,
    Seat,
    Move,
    DuplicateCompetition,
    Participant,
    Evening,
    Turn,
    Slip,
    Presence,
)
#: The history, written to history.json and restored after the rows it refers to.
HISTORY_MODELS: tuple[type[models.Model], ...] = (HistoryEntry,)
#: Not kept in an archive: the waits after wrong passwords and codes (per address, gone
#: within a day), and a board's running clock: what it timed is kept with each move
#: (`Move.think_ms`) and its start, pauses and flag in the history; a restored game that was
#: still being played goes on without its clock; and the keys of forms already saved
#: (`clubs.submissions`, kept three days against a form sent twice, and of no club); and a
#: jury room's second typings of a slip that differ from it (`SlipConflict`), waiting for
#: the spelleider: each resolution is in its slip and in the history, an archive restores
#: the slips as they count.
NOT_BACKED_UP: tuple[type[models.Model], ...] = (Throttle, GameClock, Submission, SlipConflict)
#: What a history entry's plain ids (`object_type`/`object_id`, `competition_id`, `game_id`)
#: refer to, to renumber them on restore. An id whose row is gone (a cleared pairing's game)
#: becomes empty; the entry's label still names it.
_HISTORY_OBJECTS: dict[str, type[models.Model]] = {
    "club": Club,
    "player": Player,
    "membership": Membership,
    "competition": Competition,
    "group": Group,
    "entrant": Entrant,
    "round": Round,
    "game": Game,
    "duplicate": DuplicateCompetition,
    "participant": Participant,
    "duplicate_evening": Evening,
    "duplicate_turn": Turn,
    "duplicate_slip": Slip,
    "event": Event,
}

#: How each model's rows of one club are found (Player is the exception: see `_rows_of`).
_CLUB_PATHS = {
    Club: "pk",  # filtered by the club itself
    Membership: "club",
    Season: "federation",
    Event: "organiser",
    Entry: "event__organiser",
    Competition: "club",
    Group: "competition__club",
    Entrant: "competition__club",
    Round: "competition__club",
    Absence: "round__competition__club",
    Game: "round__competition__club",
    Seat: "round__competition__club",
    Move: "game__round__competition__club",
    DuplicateCompetition: "club",
    Participant: "competition__club",
    Evening: "competition__club",
    Turn: "evening__competition__club",
    Slip: "turn__evening__competition__club",
    Presence: "evening__competition__club",
    HistoryEntry: "club",
}

# Limits on an archive, all checked before anything is unpacked. Measured: one season of a
# 300-player club (30 rounds, 4,500 games, 40 of them move by move) writes a 2.9 MB club.json
# and a 0.2 MB history.json, packed 17 and 29 to 1, in a 0.2 MB file (benchmarks/backup.py).
# Ten such seasons with a fifth of the games move by move come to about 80 MB of club.json
# and as much history; the limits leave twice that.
MB = 1024 * 1024
#: The archive file itself (the command checks it before reading the file).
MAX_ARCHIVE_BYTES = 64 * MB
#: Each JSON member, unpacked. Reading one takes about 4x its size in memory (12x at most,
#: see MIN_BYTES_PER_ELEMENT).
MAX_JSON_BYTES = 160 * MB
#: A games/<id>.gcg file (a long game's record is 1 to 2 kB); these are never unpacked.
MAX_GCG_BYTES = 256 * 1024
#: Every member together, unpacked.
MAX_UNPACKED_BYTES = 400 * MB
#: The club's JSON and history, and a GCG file per game with moves.
MAX_MEMBERS = 100_000
#: Unpacked size per packed byte: real members pack 2 to 30 to 1, a zip bomb 1,000 to 1.
MAX_RATIO = 100
#: ... checked for members above this size only (a tiny member cannot hurt).
RATIO_FREE_BYTES = 1 * MB
#: A JSON member must have at least this many bytes per element (a comma, a `{` or a `[`):
#: the app's JSON has 17 to 21, `[{},{},...]` has 3 and takes 25 times its size to read.
MIN_BYTES_PER_ELEMENT = 6
#: Central directory bytes per member: 46 fixed, the name (at most 30 here) and extras.
_DIRECTORY_BYTES_PER_MEMBER = 160
_JSON_MEMBERS = ("club.json", "history.json")
_GCG_NAME = re.compile(r"games/([1-9][0-9]{0,17})\.gcg")
_READ_CHUNK = 1 * MB
_END_RECORD = struct.Struct("<4s4H2LH")
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_END_RECORD = struct.Struct("<4sQ2H2L4Q")
#: What a broken or hostile ZIP can raise while it is opened or unpacked.
_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    OSError,
    EOFError,
    ValueError,
    NotImplementedError,
    struct.error,
)


class BackupError(CompetitionError):
    """An archive that cannot be written or restored; the message says why."""


@dataclass
class RestoreReport:
    club: Club
    rows: dict[str, int] = field(default_factory=dict)
    #: Players already here (same federation number) that the archive's rows now point to.
    shared_players: int = 0
    #: Usernames the archive names (authors, secretaries): none is linked to an account here.
    accounts: set[str] = field(default_factory=set)
    #: Players who were secretary in the archive, restored as members (their new ids).
    secretaries: list[int] = field(default_factory=list)
    #: ... and their names, for the command to say whom to make secretary again.
    secretary_names: list[str] = field(default_factory=list)


# --- writing -------------------------------------------------------------------------------


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _is_user(field_obj: models.Field) -> bool:
    return field_obj.is_relation and field_obj.related_model is get_user_model()


def _plain(value: Any) -> Any:
    """A field's value as JSON; dates and times in full ISO 8601 (to the microsecond)."""
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    return value


def _row_fields(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def row_to_dict(obj: models.Model, usernames: dict[int, str]) -> dict[str, Any]:
    """One row: its id, every concrete field by name; relations as ids, users as usernames."""
    row: dict[str, Any] = {"id": obj.pk}
    for field_obj in _row_fields(type(obj)):
        value = getattr(obj, field_obj.attname)
        if _is_user(field_obj):
            value = usernames.get(value) if value is not None else None
        row[field_obj.name] = _plain(value)
    return row


def _rows_of(model: type[models.Model], club: Club) -> models.QuerySet:
    if model is Player:
        # Members, and anyone who played, entered or was absent in the club's competitions.
        in_club = (
            Q(memberships__club=club)
            | Q(entries__competition__club=club)
            | Q(seats__round__competition__club=club)
            | Q(absences__round__competition__club=club)
            | Q(duplicate_slips__turn__evening__competition__club=club)
            | Q(duplicate_participations__competition__club=club)
            | Q(event_entries__event__organiser=club)
        )
        ids = Player.objects.filter(in_club).values("pk")
        return Player.objects.filter(pk__in=ids).order_by("pk")
    path = _CLUB_PATHS[model]
    value = club.pk if path == "pk" else club
    return model._default_manager.filter(**{path: value}).order_by("pk")


def _history_entry(row: dict[str, Any], entry: HistoryEntry) -> dict[str, Any]:
    """The readable summary every history entry has, and the row itself to restore."""
    return {
        "at": row["at"],
        "by": row["by"] or entry.by_name or None,
        "action": entry.action,
        "object": {
            "type": entry.object_type,
            "id": entry.object_id,
            "label": entry.object_label,
            "competition": entry.competition_id,
            "duplicate": entry.duplicate_id,
            "round": entry.round_number,
            "game": entry.game_id,
        },
        "before": entry.before,
        "after": entry.after,
        "reason": entry.reason,
        "reason_code": entry.reason_code,
        "model": _label(HistoryEntry),
        "row": row,
    }


@contextmanager
def _snapshot() -> Iterator[None]:
    """Read the whole club as of one moment, even while results are being entered."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def club_archive(*, club: Club) -> bytes:
    """The club as a ZIP archive (see the module's docstring)."""
    with _snapshot():
        usernames = dict(get_user_model().objects.values_list("pk", "username"))
        data = {
            _label(model): [row_to_dict(obj, usernames) for obj in _rows_of(model, club)]
            for model in CLUB_MODELS
        }
        _outside_left_out(data, club)
        history = []
        for model in HISTORY_MODELS:
            for change in _rows_of(model, club):
                history.append(_history_entry(row_to_dict(change, usernames), change))
        history.sort(key=lambda entry: (entry["at"], entry["row"]["id"]))
        games = (
            Game.objects.filter(round__competition__club=club, moves__isnull=False)
            .distinct()
            .with_seats()
            .order_by("pk")
        )
        gcg_files = {f"games/{game.pk}.gcg": game_to_gcg(game) for game in games}
    users = sorted(
        {
            row[f.name]
            for model in CLUB_MODELS
            for f in _row_fields(model)
            if _is_user(f)
            for row in data[_label(model)]
            if row.get(f.name)
        }
        | {entry["by"] for entry in history if entry["by"]}
    )
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "club": club.slug,
        "users": users,
        "data": data,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("club.json", _json_bytes(document))
        archive.writestr("history.json", _json_bytes(history))
        for name, text in gcg_files.items():
            archive.writestr(name, text.encode("utf-8"))
    return buffer.getvalue()


def _outside_left_out(data: dict[str, list[dict[str, Any]]], club: Club) -> None:
    """What an event row names outside the club is not in its archive, so it is written
    empty: the club another club's player entered for (the entry stays, as a guest's;
    their results are the division's), a season of another federation (the event is then
    not ranked where it is restored; ranked results travel by the results file)."""
    seasons = {row["id"] for row in data[_label(Season)]}
    for row in data[_label(Event)]:
        if row["season"] not in seasons:
            row["season"] = None
    for row in data[_label(Entry)]:
        if row["club"] != club.pk:
            row["club"] = None


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")


# --- reading -------------------------------------------------------------------------------


def _damaged(detail: Any) -> BackupError:
    return BackupError(
        _("This is not a usable Bordpunt club archive: %(detail)s") % {"detail": detail}
    )


def _no_constant(name: str) -> None:
    raise ValueError(name)


def _too_large(name: str) -> BackupError:
    return _damaged(_("%(name)s is too large.") % {"name": name})


def _archive_too_large(size: int) -> BackupError:
    return BackupError(
        _("The archive is too large (%(size)s); an archive may be at most %(limit)s.")
        % {"size": file_size_text(size), "limit": file_size_text(MAX_ARCHIVE_BYTES)}
    )


def _directory_size(data: bytes) -> tuple[int, int]:
    """The member count and central directory size the archive's end record declares, read
    before `zipfile` reads (and keeps in memory) the whole directory."""
    start = max(0, len(data) - _END_RECORD.size - 0xFFFF)
    at = data.rfind(b"PK\x05\x06", start)
    if at < 0 or at + _END_RECORD.size > len(data):
        raise _damaged(_("it is not a ZIP file."))
    _sig, _disk, _first, _here, count, size, _offset, _comment = _END_RECORD.unpack_from(data, at)
    if count == 0xFFFF or size == 0xFFFFFFFF:  # ZIP64: the real figures are further on
        locator = at - _ZIP64_LOCATOR.size
        if locator < 0 or data[locator : locator + 4] != b"PK\x06\x07":
            raise _damaged(_("it is not a ZIP file."))
        record = _ZIP64_LOCATOR.unpack_from(data, locator)[2]
        if record + _ZIP64_END_RECORD.size > len(data) or data[record : record + 4] != (
            b"PK\x06\x06"
        ):
            raise _damaged(_("it is not a ZIP file."))
        fields = _ZIP64_END_RECORD.unpack_from(data, record)
        count, size = fields[7], fields[8]
    return count, size


def _checked_members(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """Every member by name, each known, once, unencrypted and within the limits."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise _damaged(_("it holds too many files."))
    members: dict[str, zipfile.ZipInfo] = {}
    total = 0
    for info in infos:
        name = info.filename
        if name in members:
            raise _damaged(_("it holds %(name)s twice.") % {"name": name[:80]})
        if name in _JSON_MEMBERS:
            limit = MAX_JSON_BYTES
        elif _GCG_NAME.fullmatch(name):
            limit = MAX_GCG_BYTES
        else:
            raise _damaged(
                _("it holds a file Bordpunt does not write: %(name)s") % {"name": name[:80]}
            )
        if info.flag_bits & 0x1:
            raise _damaged(_("%(name)s is encrypted.") % {"name": name})
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise _damaged(
                _("%(name)s is packed in a way Bordpunt does not write.") % {"name": name}
            )
        if info.file_size > limit:
            raise _too_large(name)
        if info.file_size > RATIO_FREE_BYTES and info.file_size > MAX_RATIO * info.compress_size:
            raise _damaged(_("%(name)s is packed too tightly to be real.") % {"name": name})
        total += info.file_size
        if total > MAX_UNPACKED_BYTES:
            raise _damaged(_("its files are too large together."))
        members[name] = info
    for name in _JSON_MEMBERS:
        if name not in members:
            raise _damaged(_("%(name)s is missing.") % {"name": name})
    return members


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Any:
    """A JSON member, unpacked a chunk at a time and never past its declared size."""
    name = info.filename
    chunks, read = [], 0
    try:
        with archive.open(info) as member:
            while chunk := member.read(min(_READ_CHUNK, info.file_size + 1 - read)):
                chunks.append(chunk)
                read += len(chunk)
                if read > info.file_size:
                    raise _damaged(_("%(name)s is larger than the archive says.") % {"name": name})
    except _ZIP_ERRORS:
        raise _damaged(_("%(name)s cannot be unpacked.") % {"name": name}) from None
    except RuntimeError:  # encrypted after all
        raise _damaged(_("%(name)s is encrypted.") % {"name": name}) from None
    raw = b"".join(chunks)
    del chunks
    elements = raw.count(b",") + raw.count(b"{") + raw.count(b"[")
    if elements * MIN_BYTES_PER_ELEMENT > len(raw) + 4096:
        raise _damaged(_("%(name)s is not a file Bordpunt writes.") % {"name": name})
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise _damaged(_("%(name)s is not valid JSON.") % {"name": name}) from None


@dataclass
class Archive:
    """What `read_archive` found: club.json, history.json and the games with a GCG file."""

    document: dict[str, Any]
    history: list[Any]
    gcg_games: set[int]
    #: A version-1 archive: the places its games' `winner` gave (by archive id), which the
    #: places computed from its seats must agree with (`schema.version_1_winners`).
    winners: dict[int, tuple[int | None, ...] | None] | None = None


def read_archive(data: bytes) -> Archive:
    """The archive's members, checked for size and shape before and while they are
    unpacked; BackupError otherwise."""
    if len(data) > MAX_ARCHIVE_BYTES:
        raise _archive_too_large(len(data))
    count, size = _directory_size(data)
    if count > MAX_MEMBERS or size > MAX_MEMBERS * _DIRECTORY_BYTES_PER_MEMBER:
        raise _damaged(_("it holds too many files."))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except _ZIP_ERRORS:
        raise _damaged(_("it is not a ZIP file.")) from None
    with archive:
        members = _checked_members(archive)
        document = _read_member(archive, members["club.json"])
        history = _read_member(archive, members["history.json"])
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _damaged(_("club.json is not a Bordpunt club."))
    version = document.get("version")
    if version not in READS:
        raise BackupError(
            _(
                "This archive has format version %(found)s; this Bordpunt reads version "
                "%(expected)s."
            )
            % {"found": str(version)[:20], "expected": f"{READS[0]}–{READS[-1]}"}
        )
    data_part = document.get("data")
    if not isinstance(data_part, dict) or not isinstance(history, list):
        raise _damaged(_("its contents are incomplete."))
    winners = None
    if version == 1:
        winners = schema.version_1_winners(data_part)
        try:
            document = {**document, "data": schema.seats_from_sides(data_part)}
        except schema.Unreadable as unreadable:
            raise _damaged(unreadable.message) from None
    if version in (1, 2):
        document = {**document, "data": schema.duplicate_apart(document["data"])}
        history = schema.duplicate_history_apart(data_part, history)
    if version in (1, 2, 3):
        document = {**document, "data": schema.thinking_time_into_the_rules(document["data"])}
    gcg_games = {int(match[1]) for name in members if (match := _GCG_NAME.fullmatch(name))}
    return Archive(document=document, history=history, gcg_games=gcg_games, winners=winners)


def archive_file_bytes(path: Path) -> bytes:
    """The archive file's bytes, refused before reading when it is larger than an archive."""
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_ARCHIVE_BYTES:
                raise _archive_too_large(size)
            data = file.read(MAX_ARCHIVE_BYTES + 1)
    except OSError as error:
        raise BackupError(
            _("Cannot read %(file)s: %(error)s.") % {"file": path, "error": error.strerror}
        ) from None
    if len(data) > MAX_ARCHIVE_BYTES:
        raise _archive_too_large(len(data))
    return data


# --- restoring -----------------------------------------------------------------------------


class _Restorer:
    """Creates the archive's rows, parents first, mapping the archive's ids to new ones.

    No row is linked to an account here: an archive can name any username, so a user
    reference is checked as text and left empty (a history entry keeps it as `by_name`).
    """

    def __init__(self) -> None:
        self.ids: dict[type[models.Model], dict[int, int]] = {}
        self.accounts: set[str] = set()

    def build(self, model: type[models.Model], row: Any) -> tuple[int, models.Model]:
        """An unsaved object from one archive row, its relations pointing at new ids."""
        label = _label(model)
        if not isinstance(row, dict) or type(row.get("id")) is not int:
            raise _damaged(_("a row of %(model)s has no id.") % {"model": label})
        fields = {f.name: f for f in _row_fields(model)}
        unknown = set(row) - set(fields) - {"id"}
        if unknown:
            raise _damaged(
                _("%(model)s has fields this Bordpunt does not know: %(fields)s")
                % {"model": label, "fields": ", ".join(sorted(map(str, unknown)))[:200]}
            )
        values: dict[str, Any] = {}
        relations = []
        for name, value in row.items():
            if name == "id":
                continue
            field_obj = fields[name]
            if field_obj.is_relation:
                relations.append(name)
            try:
                if _is_user(field_obj):
                    self._account(name, value)
                    values[field_obj.attname] = None
                elif field_obj.is_relation:
                    values[field_obj.attname] = self._new_id(field_obj, value, label)
                else:
                    values[field_obj.attname] = schema.field_value(field_obj, value)
            except schema.Invalid as invalid:
                raise self._invalid(label, row["id"], invalid.field, invalid.reason) from None
        obj = model(**values)
        # Choices, lengths, empty values and validators as a form checks them; relations
        # point at rows made here (the database has the last word on their combinations).
        try:
            obj.clean_fields(exclude=relations)
            if model in schema.RECORD_CHECKS:
                schema.RECORD_CHECKS[model](obj)
        except ValidationError as error:
            name, messages = next(iter(error.message_dict.items()))
            raise self._invalid(label, row["id"], name, messages[0]) from None
        except schema.Invalid as invalid:
            raise self._invalid(label, row["id"], invalid.field, invalid.reason) from None
        return row["id"], obj

    def _account(self, name: str, value: Any) -> None:
        if value is None:
            return
        if not isinstance(value, str) or len(value) > 150 or not value or "\x00" in value:
            raise schema.Invalid(name, _("is not a username"))
        self.accounts.add(value)

    def _new_id(self, field_obj: models.Field, value: Any, label: str) -> int | None:
        if value is None:
            if not field_obj.null:
                raise schema.Invalid(field_obj.name, _("must not be empty"))
            return None
        try:
            return self.ids[field_obj.related_model][value]  # type: ignore[index]  # None: KeyError
        except (KeyError, TypeError):
            raise _damaged(
                _("%(model)s refers to a %(field)s that is not in the archive.")
                % {"model": label, "field": field_obj.name}
            ) from None

    @staticmethod
    def _invalid(label: str, row_id: int, name: str, reason: Any) -> BackupError:
        return _damaged(
            _("%(model)s %(id)s has an invalid %(field)s (%(reason)s).")
            % {"model": label, "id": row_id, "field": name, "reason": reason}
        )

    def built(self, model: type[models.Model], rows: Iterable[Any]) -> list[tuple[int, Any]]:
        built = [self.build(model, row) for row in rows]
        old_ids = [old for old, _obj in built]
        if len(set(old_ids)) != len(old_ids):
            raise _damaged(_("%(model)s has the same id twice.") % {"model": _label(model)})
        return built

    def create(self, model: type[models.Model], built: list[tuple[int, Any]]) -> list[Any]:
        # `auto_now` fields get today's date on insert; put the recorded ones back after.
        automatic = [
            f.attname
            for f in _row_fields(model)
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        recorded = [
            {name: getattr(obj, name) for name in automatic if getattr(obj, name) is not None}
            for _old, obj in built
        ]
        created = model._default_manager.bulk_create([obj for _old, obj in built])
        self.ids[model] = {old: obj.pk for (old, _o), obj in zip(built, created, strict=True)}
        for obj, values in zip(created, recorded, strict=True):
            if values:
                model._default_manager.filter(pk=obj.pk).update(**values)
        return created


def _players(restorer: _Restorer, rows: list[Any], report: RestoreReport) -> None:
    """Players known here by their federation number are the same people: reuse them (with
    whatever account they have here). New players come without an account or invitation."""
    built = restorer.built(Player, rows)
    numbers = {obj.federation_number for _old, obj in built if obj.federation_number}
    known = dict(
        Player.objects.filter(federation_number__in=numbers).values_list("federation_number", "pk")
    )
    mapped = {
        old: known[obj.federation_number] for old, obj in built if obj.federation_number in known
    }
    new = [(old, obj) for old, obj in built if old not in mapped]
    for _old, obj in new:
        obj.invite_code_hash, obj.invite_expires_at, obj.calendar_key = "", None, ""
    restorer.create(Player, new)
    restorer.ids[Player] |= mapped
    report.shared_players = len(mapped)
    report.rows[_label(Player)] = len(rows)


def _memberships(restorer: _Restorer, rows: list[Any], report: RestoreReport) -> None:
    """A secretary in the archive becomes a member: who manages the restored club is decided
    here, by someone who may (an archive could name anyone)."""
    built = restorer.built(Membership, rows)
    for _old, obj in built:
        if obj.role != Membership.Role.MEMBER:
            report.secretaries.append(obj.player_id)
            obj.role = Membership.Role.MEMBER
    restorer.create(Membership, built)
    report.rows[_label(Membership)] = len(rows)


def _events_identified(built: list[tuple[int, Any]]) -> None:
    """An event keeps its identity (a results file names it), unless this Bordpunt has it
    already (the club restored beside itself): then it is another copy, with a new one."""
    known = set(
        Event.objects.filter(uid__in=[obj.uid for _old, obj in built]).values_list("uid", flat=True)
    )
    for _old, obj in built:
        if obj.uid in known:
            obj.uid = uuid.uuid4()


def _seats_match_games(built: list[tuple[int, Any]], built_games: list[tuple[int, Any]]) -> None:
    """A seat is in its game's round, and a game's seats hold positions 0, 1, ... in
    order, one player each: 1 for a bye, 2 to 4 at a table."""
    games = {game.pk: game for _old, game in built_games}
    positions: dict[int, list[int]] = defaultdict(list)
    old_ids = {game.pk: old for old, game in built_games}
    for old, seat in built:
        game = games[seat.game_id]
        if seat.round_id != game.round_id:
            raise _damaged(_("games.seat %(id)s does not match its game.") % {"id": old})
        positions[seat.game_id].append(seat.position)
    for game_id, game in games.items():
        taken = sorted(positions.get(game_id, []))
        proper = taken == [0] if game.outcome == Outcome.BYE else 2 <= len(taken) <= MAX_SEAT + 1
        if taken != list(range(len(taken))) or not proper:
            raise _damaged(_("games.game %(id)s has no proper seats.") % {"id": old_ids[game_id]})


def _places_from_results(
    built: list[tuple[int, Any]],
    built_games: list[tuple[int, Any]],
    winners: dict[int, tuple[int | None, ...] | None] | None,
) -> None:
    """Every seat's place computed from its game's result (`rules.result.places`): an
    archive's places are not taken on trust. A game without a result has no scores, flags
    or forfeits; a version-1 game's winner must be the one its seats give."""
    seats_of: dict[int, list[Any]] = defaultdict(list)
    for _old, seat in built:
        seats_of[seat.game_id].append(seat)
    for old_id, game in built_games:
        seats = sorted(seats_of[game.pk], key=lambda seat: seat.position)
        scores = [seat.score for seat in seats]
        flags = [seat.flag_fell for seat in seats]
        forfeits = [seat.forfeited for seat in seats]
        marked = any(flags) or any(forfeits) or any(score is not None for score in scores)
        if game.outcome == Outcome.PENDING and marked:
            raise _inconsistent(old_id, "pending_has_result")
        try:
            places = result_rules.places(
                game.outcome, scores=scores, flag_fell=flags, forfeited=forfeits
            )
        except result_rules.ResultError as error:
            raise _inconsistent(old_id, error.code) from None
        if winners is not None and winners.get(old_id, places) != places:
            raise _inconsistent(old_id, "winner_differs")
        for seat, place in zip(seats, places, strict=True):
            seat.place = place


def _inconsistent(game_id: int, code: str) -> BackupError:
    """A game whose result cannot be: `code` is a `rules.result` code, or one of the
    restore's own ("pending_has_result", "winner_differs")."""
    reason = {
        "pending_has_result": _("a game not played yet has board points, a flag or a forfeit"),
        "winner_differs": _("its winner is not the one its scores give"),
    }.get(code) or describe(code)
    return _damaged(
        _("games.game %(id)s has an impossible result: %(reason)s")
        % {"id": game_id, "reason": reason}
    )


def _moves_as_the_engine_scores_them(game_ids: list[int], archive_ids: dict[int, int]) -> None:
    """Score, words, warnings and problem of every move are the engine's, as when they were
    entered: the archive's own figures are not taken on trust."""
    from games.moves import COMPUTED_FIELDS, moves_rescored

    loaded = (
        Game.objects.filter(pk__in=game_ids, moves__isnull=False)
        .distinct()
        .with_seats()
        .prefetch_related(models.Prefetch("moves", Move.objects.order_by("number")))
    )
    rows = []
    for game in loaded:
        moves = list(game.moves.all())
        seats = len(game.seat_list)
        for move in moves:
            if move.seat >= seats:  # a move is made at one of its game's seats
                raise _damaged(
                    _("games.move %(id)s does not match its game.")
                    % {"id": archive_ids.get(move.pk, move.pk)}
                )
        moves_rescored(game, moves)
        rows.extend(moves)
    Move.objects.bulk_update(rows, COMPUTED_FIELDS, batch_size=500)


def _evenings_as_the_engine_plays_them(evening_ids: list[int]) -> None:
    """Each duplicate evening's master game is replayed from its draws and tops, and every
    slip scored again on its turn's board: racks, top scores, sums and slip scores are the
    engine's, and an evening whose draws or tops do not play is refused."""
    from duplicate.services import DuplicateEveningError
    from duplicate.services.evenings import evening_rescore

    for evening in Evening.objects.filter(pk__in=evening_ids).order_by("pk"):
        try:
            evening_rescore(evening)
        except DuplicateEveningError as error:
            raise _damaged(
                _("duplicate evening %(number)s cannot be played again (%(error)s).")
                % {"number": evening.number, "error": error.message}
            ) from None


def _history_rows(restorer: _Restorer, history: list[Any]) -> list[Any]:
    """History rows with their plain ids pointing at the restored rows (see
    HISTORY_OBJECTS) and their author kept as a name, never as an account here."""
    rows = []
    for entry in history:
        if not isinstance(entry, dict) or entry.get("model") != _label(HistoryEntry):
            raise _damaged(_("history.json holds an entry of an unknown kind."))
        row = entry.get("row")
        if not isinstance(row, dict):
            raise _damaged(_("a row of %(model)s has no id.") % {"model": _label(HistoryEntry)})
        row = dict(row)
        kind = row.get("object_type")
        if not isinstance(kind, str) or kind not in _HISTORY_OBJECTS:
            raise _damaged(
                _("%(model)s %(id)s has an invalid %(field)s (%(reason)s).")
                % {
                    "model": _label(HistoryEntry),
                    "id": str(row.get("id"))[:20],
                    "field": "object_type",
                    "reason": _("not a kind of object Bordpunt records"),
                }
            )

        def new(model: type[models.Model], value: Any) -> int | None:
            return restorer.ids.get(model, {}).get(value) if type(value) is int else None

        row["competition_id"] = new(Competition, row.get("competition_id"))
        row["duplicate_id"] = new(DuplicateCompetition, row.get("duplicate_id"))
        row["game_id"] = new(Game, row.get("game_id"))
        row["object_id"] = new(_HISTORY_OBJECTS[kind], row.get("object_id"))
        if not row.get("by_name") and isinstance(row.get("by"), str):
            row["by_name"] = row["by"]
        rows.append(row)
    return rows


def restore_club(*, data: bytes, slug: str | None = None) -> RestoreReport:
    """Restore an archive as a new club (under `slug` when given): all of it, or nothing."""
    if slug is not None:
        try:
            validate_slug(slug)
        except ValidationError:
            raise BackupError(
                _("“%(slug)s” is not a valid short name: use letters, digits and hyphens.")
                % {"slug": slug[:60]}
            ) from None
    archive = read_archive(data)
    try:
        with transaction.atomic():
            return _restore(archive, slug=slug)
    except DatabaseError as error:
        raise _damaged(_("the database refused its rows (%(error)s).") % {"error": error}) from None


def _tables(data: Any) -> dict[type[models.Model], list[Any]]:
    unknown = set(data) - {_label(model) for model in CLUB_MODELS}
    if unknown:
        raise _damaged(
            _("it holds tables this Bordpunt does not know: %(tables)s")
            % {"tables": ", ".join(sorted(str(label)[:40] for label in unknown))[:200]}
        )
    tables: dict[type[models.Model], list[Any]] = {}
    for model in CLUB_MODELS:
        rows = data.get(_label(model), [])
        if not isinstance(rows, list):
            raise _damaged(_("%(model)s is not a list.") % {"model": _label(model)})
        tables[model] = rows
    if len(tables[Club]) != 1 or not isinstance(tables[Club][0], dict):
        raise _damaged(_("it must hold exactly one club."))
    return tables


def _restore(archive: Archive, *, slug: str | None) -> RestoreReport:
    tables = _tables(archive.document["data"])
    club_row = dict(tables[Club][0])
    if slug is not None:
        club_row["slug"] = slug
    wanted = club_row.get("slug")
    if isinstance(wanted, str) and Club.objects.filter(slug=wanted).exists():
        raise BackupError(
            _(
                "A club with the short name “%(slug)s” already exists. "
                "Restore it under another short name (--slug)."
            )
            % {"slug": wanted[:60]}
        )
    if isinstance(wanted, str):
        try:
            validate_club_slug(wanted)
        except ValidationError as error:
            raise BackupError(" ".join(error.messages)) from None
    tables[Club] = [club_row]
    restorer = _Restorer()
    report = RestoreReport(club=Club())
    built_games: list[tuple[int, Any]] = []
    for model in CLUB_MODELS:
        if model is Player:
            _players(restorer, tables[Player], report)
            continue
        if model is Membership:
            _memberships(restorer, tables[Membership], report)
            continue
        built = restorer.built(model, tables[model])
        if model is Event:
            _events_identified(built)
        if model is Seat:
            _seats_match_games(built, built_games)
            _places_from_results(built, built_games, archive.winners)
        created = restorer.create(model, built)
        if model is Game:
            built_games = built
        report.rows[_label(model)] = len(created)
    games_by_old = dict(built_games)
    unknown_gcg = archive.gcg_games - set(games_by_old)
    if unknown_gcg:
        raise _damaged(
            _("it holds games/%(id)s.gcg, a game that is not in the archive.")
            % {"id": min(unknown_gcg)}
        )
    _moves_as_the_engine_scores_them(
        [game.pk for _old, game in built_games],
        {new: old for old, new in restorer.ids.get(Move, {}).items()},
    )
    _evenings_as_the_engine_plays_them(list(restorer.ids.get(Evening, {}).values()))
    history = restorer.built(HistoryEntry, _history_rows(restorer, archive.history))
    report.rows[_label(HistoryEntry)] = len(restorer.create(HistoryEntry, history))
    report.club = Club.objects.get(pk=restorer.ids[Club][tables[Club][0]["id"]])
    new_players = dict(Player.objects.filter(pk__in=report.secretaries).values_list("pk", "name"))
    report.secretary_names = sorted(new_players[pk] for pk in report.secretaries)
    report.accounts = restorer.accounts
    return report
