"""Backup and restore of a whole club as one ZIP archive.

The archive holds `club.json` (every row of the club: players, memberships, competitions,
groups, entrants, rounds, absences, games, seats and moves), `history.json` (every history
entry, readable on its own) and `games/<id>.gcg` (each game with moves, as the GCG download
gives it). Rows are written field by field from the models' own metadata, so a field added
to a model is carried without a change here; foreign keys are written as the archive's ids
(renumbered on import) and user accounts by username only. No password leaves the database
and no login is created from an archive: a username is linked to an existing account of that
name, or left empty.
"""

from __future__ import annotations

import datetime
import io
import json
import re
import zipfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, HistoryEntry, Membership, Player
from clubs.slugs import validate_club_slug
from competition.models import Absence, Competition, Entrant, Group, Round
from competition.services import CompetitionError
from games.models import Game, Move, Seat
from games.moves import game_to_gcg

FORMAT = "bordpunt-club"
VERSION = 1

#: Every model of a club, parents before children (the order rows are restored in).
CLUB_MODELS: tuple[type[models.Model], ...] = (
    Club,
    Player,
    Membership,
    Competition,
    Group,
    Entrant,
    Round,
    Absence,
    Game,
    Seat,
    Move,
)
#: The history, written to history.json and restored after the rows it refers to.
HISTORY_MODELS: tuple[type[models.Model], ...] = (HistoryEntry,)
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
}

#: How each model's rows of one club are found (Player is the exception: see `_rows_of`).
_CLUB_PATHS = {
    Club: "pk",  # filtered by the club itself
    Membership: "club",
    Competition: "club",
    Group: "competition__club",
    Entrant: "competition__club",
    Round: "competition__club",
    Absence: "round__competition__club",
    Game: "round__competition__club",
    Seat: "round__competition__club",
    Move: "game__round__competition__club",
    HistoryEntry: "club",
}

# Limits on what an archive may hold: far above a real club's, far below a zip bomb's.
MAX_JSON_BYTES = 200 * 1024 * 1024
MAX_MEMBERS = 100_000
_MEMBER_NAME = re.compile(r"(club\.json|history\.json|games/[1-9][0-9]{0,17}\.gcg|games/)")


class BackupError(CompetitionError):
    """An archive that cannot be written or restored; the message says why."""


@dataclass
class RestoreReport:
    club: Club
    rows: dict[str, int] = field(default_factory=dict)
    #: Usernames in the archive with no account here: those references were left empty.
    unknown_users: set[str] = field(default_factory=set)
    #: Players already here (same federation number) that the archive's rows now point to.
    shared_players: int = 0


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
        history = []
        for model in HISTORY_MODELS:
            for change in _rows_of(model, club):
                history.append(_history_entry(row_to_dict(change, usernames), change))
        history.sort(key=lambda entry: (entry["at"], entry["row"]["id"]))
        games = (
            Game.objects.filter(round__competition__club=club, moves__isnull=False)
            .distinct()
            .select_related("player_a", "player_b")
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


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")


# --- reading -------------------------------------------------------------------------------


def _damaged(detail: Any) -> BackupError:
    return BackupError(
        _("This is not a usable Bordpunt club archive: %(detail)s") % {"detail": detail}
    )


def _no_constant(name: str) -> None:
    raise ValueError(name)


def _read_member(archive: zipfile.ZipFile, name: str) -> Any:
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise _damaged(_("%(name)s is missing.") % {"name": name}) from None
    if info.file_size > MAX_JSON_BYTES:
        raise _damaged(_("%(name)s is too large.") % {"name": name})
    try:
        with archive.open(info) as member:
            # Read one byte past the limit: the size in the header may lie.
            raw = member.read(MAX_JSON_BYTES + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError):
        raise _damaged(_("%(name)s cannot be unpacked.") % {"name": name}) from None
    except RuntimeError:  # encrypted
        raise _damaged(_("%(name)s is encrypted.") % {"name": name}) from None
    if len(raw) > MAX_JSON_BYTES:
        raise _damaged(_("%(name)s is too large.") % {"name": name})
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise _damaged(_("%(name)s is not valid JSON.") % {"name": name}) from None


def read_archive(data: bytes) -> tuple[dict[str, Any], list[Any]]:
    """The archive's club.json and history.json, checked for shape; BackupError otherwise."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise _damaged(_("it is not a ZIP file.")) from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_MEMBERS:
            raise _damaged(_("it holds too many files."))
        for info in infos:
            if not _MEMBER_NAME.fullmatch(info.filename):
                raise _damaged(
                    _("it holds a file Bordpunt does not write: %(name)s")
                    % {"name": info.filename[:80]}
                )
        document = _read_member(archive, "club.json")
        history = _read_member(archive, "history.json")
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _damaged(_("club.json is not a Bordpunt club."))
    version = document.get("version")
    if version != VERSION:
        raise BackupError(
            _(
                "This archive has format version %(found)s; this Bordpunt reads version "
                "%(expected)s."
            )
            % {"found": str(version)[:20], "expected": VERSION}
        )
    data_part = document.get("data")
    if not isinstance(data_part, dict) or not isinstance(history, list):
        raise _damaged(_("its contents are incomplete."))
    return document, history


# --- restoring -----------------------------------------------------------------------------


class _Restorer:
    """Creates the archive's rows, parents first, mapping the archive's ids to new ones."""

    def __init__(self) -> None:
        self.ids: dict[type[models.Model], dict[int, int]] = {}
        self.users: dict[str, int | None] = {}
        self.user_model = get_user_model()
        self.unknown_users: set[str] = set()

    def user_id(self, username: Any) -> int | None:
        if username is None:
            return None
        if not isinstance(username, str):
            raise _damaged(_("a username is not text."))
        if username not in self.users:
            found = (
                self.user_model.objects.filter(**{self.user_model.USERNAME_FIELD: username})
                .values_list("pk", flat=True)
                .first()
            )
            self.users[username] = found
            if found is None:
                self.unknown_users.add(username)
        return self.users[username]

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
                % {"model": label, "fields": ", ".join(sorted(unknown))[:200]}
            )
        values: dict[str, Any] = {}
        relations = []
        for name, value in row.items():
            if name == "id":
                continue
            field_obj = fields[name]
            if _is_user(field_obj):
                values[field_obj.attname] = self.user_id(value)
            elif field_obj.is_relation:
                relations.append(field_obj.name)
                values[field_obj.attname] = self._new_id(field_obj, value, label)
            else:
                try:
                    values[field_obj.attname] = field_obj.to_python(value)
                except (ValidationError, TypeError, ValueError):
                    raise self._invalid(label, row["id"], name) from None
        obj = model(**values)
        # Check lengths, ranges and choices as a form would; the database has the last word
        # on empty values (it held them), and on relations (they point at rows made here).
        unchecked = relations + [
            f.name
            for f in fields.values()
            if _is_user(f) or getattr(obj, f.attname) in f.empty_values
        ]
        try:
            obj.clean_fields(exclude=unchecked)
        except ValidationError as error:
            raise self._invalid(label, row["id"], next(iter(error.message_dict))) from None
        return row["id"], obj

    def _new_id(self, field_obj: models.Field, value: Any, label: str) -> int | None:
        if value is None:
            return None
        try:
            return self.ids[field_obj.related_model][value]
        except (KeyError, TypeError):
            raise _damaged(
                _("%(model)s refers to a %(field)s that is not in the archive.")
                % {"model": label, "field": field_obj.name}
            ) from None

    @staticmethod
    def _invalid(label: str, row_id: int, name: str) -> BackupError:
        return _damaged(
            _("%(model)s %(id)s has an invalid %(field)s.")
            % {"model": label, "id": row_id, "field": name}
        )

    def create(self, model: type[models.Model], rows: Iterable[Any]) -> int:
        built = [self.build(model, row) for row in rows]
        old_ids = [old for old, _obj in built]
        if len(set(old_ids)) != len(old_ids):
            raise _damaged(_("%(model)s has the same id twice.") % {"model": _label(model)})
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
        self.ids[model] = {old: obj.pk for old, obj in zip(old_ids, created, strict=True)}
        for obj, values in zip(created, recorded, strict=True):
            if values:
                model._default_manager.filter(pk=obj.pk).update(**values)
        return len(created)


def _players(restorer: _Restorer, rows: list[Any], report: RestoreReport) -> None:
    """Players known here by their federation number are the same people: reuse them."""
    numbers = {
        row.get("federation_number")
        for row in rows
        if isinstance(row, dict) and isinstance(row.get("federation_number"), str)
    }
    known = dict(
        Player.objects.filter(federation_number__in=numbers - {""}).values_list(
            "federation_number", "pk"
        )
    )
    new_rows, mapped = [], {}
    for row in rows:
        existing = known.get(row.get("federation_number")) if isinstance(row, dict) else None
        if existing is not None and type(row.get("id")) is int:
            mapped[row["id"]] = existing
        else:
            new_rows.append(row)
    report.shared_players = len(mapped)
    built = [restorer.build(Player, row) for row in new_rows]
    taken = set(
        Player.objects.filter(
            user_id__in=[obj.user_id for _old, obj in built if obj.user_id]
        ).values_list("user_id", flat=True)
    )
    for _old, obj in built:
        if obj.user_id in taken:  # the account is already another player's (one per account)
            obj.user_id = None
    created = Player.objects.bulk_create([obj for _old, obj in built])
    restorer.ids[Player] = mapped | {
        old: obj.pk for (old, _o), obj in zip(built, created, strict=True)
    }
    report.rows[_label(Player)] = len(rows)


def _renumbered_history(restorer: _Restorer, row: Any) -> Any:
    """A history row with its plain ids pointing at the restored rows (see _HISTORY_OBJECTS)."""
    if not isinstance(row, dict):
        return row
    row = dict(row)

    def new(model: type[models.Model], value: Any) -> int | None:
        return restorer.ids.get(model, {}).get(value) if type(value) is int else None

    row["competition_id"] = new(Competition, row.get("competition_id"))
    row["game_id"] = new(Game, row.get("game_id"))
    kind = row.get("object_type")
    target = _HISTORY_OBJECTS.get(kind) if isinstance(kind, str) else None
    row["object_id"] = new(target, row.get("object_id")) if target is not None else None
    return row


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
    document, history = read_archive(data)
    try:
        with transaction.atomic():
            return _restore(document, history, slug=slug)
    except DatabaseError as error:
        raise _damaged(_("the database refused its rows (%(error)s).") % {"error": error}) from None


def _restore(document: dict[str, Any], history: list[Any], *, slug: str | None) -> RestoreReport:
    data = document["data"]
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
    for model in CLUB_MODELS:
        if model is Player:
            _players(restorer, tables[Player], report)
        else:
            report.rows[_label(model)] = restorer.create(model, tables[model])
    history_rows: dict[type[models.Model], list[Any]] = {model: [] for model in HISTORY_MODELS}
    by_label = {_label(model): model for model in HISTORY_MODELS}
    for entry in history:
        model = by_label.get(entry.get("model")) if isinstance(entry, dict) else None
        if model is None:
            raise _damaged(_("history.json holds an entry of an unknown kind."))
        history_rows[model].append(entry.get("row"))
    for model, rows in history_rows.items():
        report.rows[_label(model)] = restorer.create(
            model, [_renumbered_history(restorer, row) for row in rows]
        )
    report.club = Club.objects.get(pk=restorer.ids[Club][tables[Club][0]["id"]])
    report.unknown_users = restorer.unknown_users
    return report
