"""Importing an event's results file on the federation's Bordpunt: preview, then all or
nothing.

1. `results_import_plan` reads the file (`ranking.files.results_file_read`) and the
   database and says what would happen: the event, its games, each person matched by
   federation number or new, the clubs known here by their federation code or not, and
   every problem that refuses the file. It writes nothing.
2. `results_import_apply` plans again under the federation's lock and, when nothing
   refuses it, writes the ranked event, its games and results (percentages with the
   season's GV) and the new persons, with one history entry for the federation. A
   problem found then refuses the whole file: nothing is written.

Who may: a federation's officials (its secretaries), staff, the operator acting for it;
`by=None` is a management command (`manage.py import_event_results`).

Django: services.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock
from clubs.models import Club, Player
from clubs.names import name_key
from clubs.permissions import can_manage_club
from competition.core.collector import collector_paused
from events.models import Event, Season
from ranking.core import stored_percentages
from ranking.files import (
    FileClub,
    ResultsFile,
    ResultsFileError,
    results_file_read,
    winner_and_median,
)
from ranking.models import RankedEvent, RankedGame
from ranking.results_insert_sql import ranked_results_insert


class ResultsImportError(ValueError):
    """The file is refused: every reason, in the reader's language."""

    def __init__(self, errors: Iterable[Any]) -> None:
        self.errors = [str(error) for error in errors]
        super().__init__("; ".join(self.errors))

    @property
    def message(self) -> str:
        return " ".join(self.errors)


PROBLEMS: dict[str, Any] = {
    "not_official": _("Only the federation's officials may import results into its ranking."),
    "not_federation": _("%(club)s is not a federation: only a federation keeps a ranking."),
    "already_imported": _(
        "This event (%(name)s, %(date)s) is already in the ranking of %(season)s, "
        "added on %(added)s. The same event is not imported twice."
    ),
    "played_here": _(
        "This event (%(name)s) was played on this Bordpunt: its results are ranked from "
        "here, not from a file."
    ),
    "outside_season": _(
        "%(what)s is dated %(date)s, outside the season %(season)s (%(start)s to %(end)s). "
        "Choose the season the event belongs to."
    ),
    "person_elsewhere": _(
        "Federation number %(number)s is %(here)s on this Bordpunt, but the file names "
        "%(file)s. Two clubs cannot claim one person: correct the federation number where "
        "the event was played, or merge the records here first."
    ),
}


def _problem(code: str, **params: Any) -> str:
    return str(PROBLEMS[code] % params)


def may_import(user: Any, federation: Club) -> bool:
    """A federation's officials are its secretaries (staff and the operator acting for it
    as for any club); `None` is a management command."""
    return federation.is_federation and (user is None or can_manage_club(user, federation))


@dataclass(frozen=True)
class PlannedPerson:
    federation_number: str | None
    name: str
    club: FileClub | None
    #: The person here, matched by federation number; None: a new person (or a guest
    #: without a number, who is ranked by name alone).
    player_id: int | None
    #: The name the person has here, when it is spelled otherwise in the file.
    name_here: str = ""


@dataclass(frozen=True)
class PlannedClub:
    name: str
    federation_code: str | None
    #: The club here with the file's federation code; None: not known here.
    club_id: int | None
    name_here: str = ""


@dataclass
class ImportPlan:
    file: ResultsFile | None
    season: Season | None
    persons: list[PlannedPerson] = field(default_factory=list)
    clubs: list[PlannedClub] = field(default_factory=list)
    #: What refuses the file; empty: it can be imported.
    problems: list[str] = field(default_factory=list)
    #: The GVs the file's percentages were computed with, when one is not the season's.
    other_gap_values: list[Decimal] = field(default_factory=list)

    @property
    def can_apply(self) -> bool:
        return self.file is not None and not self.problems

    @property
    def matched(self) -> list[PlannedPerson]:
        return [person for person in self.persons if person.player_id is not None]

    @property
    def new(self) -> list[PlannedPerson]:
        return [p for p in self.persons if p.player_id is None and p.federation_number]

    @property
    def without_number(self) -> list[PlannedPerson]:
        return [p for p in self.persons if p.federation_number is None]

    @property
    def unknown_clubs(self) -> list[PlannedClub]:
        return [club for club in self.clubs if club.club_id is None]


def results_import_plan(*, data: bytes, season: Season, by: Any = None) -> ImportPlan:
    """What importing `data` into `season` would do, and every reason it would be refused
    (a file that cannot be read: that one reason alone). Writes nothing."""
    try:
        results = results_file_read(data)
    except ResultsFileError as error:
        return ImportPlan(file=None, season=season, problems=[error.message])
    return _plan(results, season, by)


def _plan(results: ResultsFile, season: Season, by: Any) -> ImportPlan:
    plan = ImportPlan(file=results, season=season)
    federation = season.federation
    if not federation.is_federation:
        plan.problems.append(_problem("not_federation", club=federation.name))
    elif not may_import(by, federation):
        plan.problems.append(_problem("not_official"))
    # Four values, not two models' every column: each file's import asks it.
    ranked = (
        RankedEvent.objects.filter(uid=results.uid)
        .values_list("name", "date", "season__name", "created_at")
        .first()
    )
    if ranked is not None:
        name, day, season_name, created_at = ranked
        plan.problems.append(
            _problem(
                "already_imported",
                name=name,
                date=day.isoformat(),
                season=season_name,
                added=created_at.date().isoformat(),
            )
        )
    elif Event.objects.filter(uid=results.uid).exists():
        plan.problems.append(_problem("played_here", name=results.name))
    dated = [(str(_("The event")), results.date)] + [
        (str(_("Game %(game)s") % {"game": game.number}), game.date) for game in results.games
    ]
    for what, day in dated:
        if not season.start <= day <= season.end:
            plan.problems.append(
                _problem(
                    "outside_season",
                    what=what,
                    date=day.isoformat(),
                    season=season.name,
                    start=season.start.isoformat(),
                    end=season.end.isoformat(),
                )
            )
            break
    plan.other_gap_values = sorted(
        {game.gap_value for game in results.games if game.gap_value != season.gap_value}
    )
    _plan_persons(plan, results)
    _plan_clubs(plan, results)
    return plan


def _plan_persons(plan: ImportPlan, results: ResultsFile) -> None:
    """Each person of the file once: by federation number the person here, whose name must
    be the file's (case, spaces and accents aside); without a number, by name alone."""
    firsts: dict[tuple[str, str], Any] = {}
    for game in results.games:
        for result in game.results:
            key = (result.federation_number or "", "" if result.federation_number else result.name)
            firsts.setdefault(key, result)
    numbers = [number for number, _name in firsts if number]
    # (id, name) by number: rows, not model instances (a season's import reads thousands).
    known = {
        number: (pk, name)
        for pk, name, number in Player.objects.filter(federation_number__in=numbers).values_list(
            "pk", "name", "federation_number"
        )
    }
    for (number, _name), result in sorted(firsts.items(), key=lambda item: item[1].name):
        pk, name_here = known.get(number, (None, "")) if number else (None, "")
        if pk is not None and name_key(name_here) != name_key(result.name):
            plan.problems.append(
                _problem("person_elsewhere", number=number, here=name_here, file=result.name)
            )
        plan.persons.append(
            PlannedPerson(
                federation_number=number or None,
                name=result.name,
                club=result.club,
                player_id=pk,
                name_here=name_here if pk is not None and name_here != result.name else "",
            )
        )


def _club_key(club: FileClub) -> tuple[str, str]:
    return (club.federation_code or "", club.name)


def _plan_clubs(plan: ImportPlan, results: ResultsFile) -> None:
    named = {
        _club_key(result.club)
        for game in results.games
        for result in game.results
        if result.club is not None
    }
    codes = [code for code, _name in named if code]
    # (id, name) by code: rows, not model instances.
    known = {
        code: (pk, name)
        for code, pk, name in Club.objects.filter(federation_code__in=codes).values_list(
            "federation_code", "pk", "name"
        )
    }
    for code, name in sorted(named, key=lambda key: (key[1], key[0])):
        pk, name_here = known.get(code, (None, "")) if code else (None, "")
        plan.clubs.append(
            PlannedClub(
                name=name,
                federation_code=code or None,
                club_id=pk,
                name_here=name_here if pk is not None and name_here != name else "",
            )
        )


@dataclass(frozen=True)
class ImportSummary:
    ranked: RankedEvent
    games: int
    results: int
    new_persons: int


def results_import_apply(*, data: bytes, season: Season, by: Any) -> ImportSummary:
    """Import the file into `season`, all or nothing, or raise `ResultsImportError` with
    every reason. Imports of one federation run one at a time (its lock), so a file sent
    twice at once is imported once."""
    with collector_paused():
        return _import_paused(data, season, by)


def _import_paused(data: bytes, season: Season, by: Any) -> ImportSummary:
    try:
        results = results_file_read(data)
    except ResultsFileError as error:
        raise ResultsImportError([error.message]) from None
    try:
        with transaction.atomic():
            club_lock(season.federation_id)
            plan = _plan(results, season, by)
            if plan.problems:
                raise ResultsImportError(plan.problems)
            return _write(plan, results, season, by, data)
    except IntegrityError:
        # Only a write elsewhere at the same moment gets here (the plan saw none): the
        # event published here, a person given the number.
        raise ResultsImportError(
            [_("Something changed while importing; nothing was imported. Try again.")]
        ) from None


def _write(
    plan: ImportPlan, results: ResultsFile, season: Season, by: Any, data: bytes
) -> ImportSummary:
    new_players = [
        Player(name=person.name, federation_number=person.federation_number) for person in plan.new
    ]
    Player.objects.bulk_create(new_players)
    person_ids = {person.federation_number: person.player_id for person in plan.matched}
    if any(player.pk is None for player in new_players):  # backends without RETURNING
        new_ids = Player.objects.filter(
            federation_number__in=[p.federation_number for p in new_players]
        ).values_list("federation_number", "pk")
        person_ids.update(dict(new_ids))
    else:
        person_ids.update({player.federation_number: player.pk for player in new_players})
    club_ids = {(club.federation_code or "", club.name): club.club_id for club in plan.clubs}
    ranked = RankedEvent.objects.create(
        season=season,
        uid=results.uid,
        name=results.name,
        organiser=results.organiser.name,
        kind=results.kind,
        date=results.date,
        source=RankedEvent.Source.IMPORTED,
        file_sha256=hashlib.sha256(data).hexdigest(),
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    games: list[RankedGame] = []
    percentages: list[list[float]] = []
    for played in results.games:
        points = [result.points for result in played.results]
        # The season's GV, not the file's: the official chose the season.
        percentages.append(stored_percentages(points, season.gap_value))
        winner, middle = winner_and_median(points)
        games.append(
            RankedGame(
                event=ranked,
                number=played.number,
                date=played.date,
                winner_points=winner,
                median_points=middle,
            )
        )
    RankedGame.objects.bulk_create(games)
    if any(game.pk is None for game in games):  # backends without RETURNING
        by_number = dict(ranked.games.values_list("number", "pk"))
        for game in games:
            game.pk = by_number[game.number]
    rows = [
        (
            game.pk,
            person_ids.get(result.federation_number) if result.federation_number else None,
            result.federation_number or "",
            result.name,
            club_ids.get(_club_key(result.club)) if result.club else None,
            result.club.name if result.club else "",
            result.points,
            percentage,
        )
        for game, played, scored in zip(games, results.games, percentages, strict=True)
        for result, percentage in zip(played.results, scored, strict=True)
    ]
    count = len(rows)
    ranked_results_insert(rows)
    history_record(
        club_id=season.federation_id,
        by=by,
        action=HistoryAction.RANKING_IMPORT,
        object_type="ranked_event",
        object_id=ranked.pk,
        label=f"{results.name} ({season.name})",
        after={
            "name": results.name,
            "date": results.date.isoformat(),
            "games": len(games),
            "results": count,
            "players_created": len(new_players),
        },
    )
    return ImportSummary(
        ranked=ranked, games=len(games), results=count, new_persons=len(new_players)
    )
