"""Rounds: creating them, attendance, pairings and their results."""

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from competition.models import Absence, Competition, Entrant, Round
from competition.rulesets import ruleset_for
from competition.selectors import next_round_number
from competition.services import CompetitionError, club_lock
from competition.versioning import competition_touched
from games.models import Game, Outcome
from games.services import PairingSpec, ResultEntry, games_create, games_record_results


@transaction.atomic
def round_create(
    *, competition: Competition, date: date | None = None, number: int | None = None
) -> Round:
    """Add the next round of a competition.

    `number` is the round the secretary's page offered to add. When that round exists
    already (the button clicked twice, or on two devices at once) it is returned as it is,
    so every click ends on the same new round; a number that is not the next one is refused.
    """
    club_lock(competition.club_id)
    if number is not None:
        existing = Round.objects.filter(competition=competition, number=number).first()
        if existing is not None:
            return existing
    following = next_round_number(competition)
    if number is not None and number != following:
        raise CompetitionError(
            _("Round %(number)s cannot be added: the next round is %(next)s.")
            % {"number": number, "next": following}
        )
    if competition.number_of_rounds and following > competition.number_of_rounds:
        raise CompetitionError(
            _("This tournament has all its %(count)s rounds already.")
            % {"count": competition.number_of_rounds}
        )
    created = Round.objects.create(competition=competition, number=following, date=date)
    competition_touched(competition_id=competition.pk)
    return created


def _locked(round: Round) -> Round:
    """The round's row, locked until the transaction ends: changes to one round's
    attendance, pairing, status and results run one at a time.

    Locks are always taken in the order club, round, games (the CSV import holds the club
    lock too), so two writers never wait for each other in a circle on PostgreSQL.
    """
    club_lock(round.competition.club_id)
    return (
        Round.objects.select_for_update(of=("self",)).select_related("competition").get(pk=round.pk)
    )


def pairing_version(game_ids: Iterable[int]) -> str:
    """What a pairing page showed, from its games' ids. Generating, swapping and undoing a
    pairing make new game rows (ids are never reused), so every change makes a new version.
    """
    ids = sorted(game_ids)
    return f"{len(ids)}-{ids[-1] if ids else 0}"


def _check_pairing_version(round: Round, expected: str | None) -> None:
    """Refuse a change based on a pairing that is no longer there (a second click, or a
    second device): the director acts on what the page showed, or not at all."""
    if expected is None:
        return
    if pairing_version(round.games.values_list("pk", flat=True)) != expected:
        raise CompetitionError(
            _(
                "The pairing was changed in the meantime (by a second click or on another "
                "device). This is the pairing now; check it and try again."
            )
        )


def entrants_active_in(round: Round) -> list[Entrant]:
    """Entrants who take part in this round: joined, not withdrawn (present or not)."""
    return [
        entrant
        for entrant in round.competition.entrants.select_related("player", "group")
        if entrant.is_active_in(round.number)
    ]


def entrants_present_in(round: Round) -> list[Entrant]:
    # A round not saved yet (a dry run) has nobody marked absent.
    absent = set(round.absences.values_list("player_id", flat=True)) if round.pk else set()
    return [entrant for entrant in entrants_active_in(round) if entrant.player_id not in absent]


@transaction.atomic
def round_set_attendance(*, round: Round, present_player_ids: Iterable[int]) -> None:
    """Record who is there tonight; everyone else active in the round is absent."""
    present = set(present_player_ids)
    round = _locked(round)
    if round.games.exists():
        seated = set(round.games.values_list("player_a_id", flat=True)) | set(
            round.games.exclude(player_b=None).values_list("player_b_id", flat=True)
        )
        if seated - present:
            raise CompetitionError(
                _("Players with a game in this round cannot be marked absent; undo the pairing.")
            )
    round.absences.all().delete()
    Absence.objects.bulk_create(
        Absence(round=round, player_id=entrant.player_id)
        for entrant in entrants_active_in(round)
        if entrant.player_id not in present
    )
    competition_touched(competition_id=round.competition_id)


@transaction.atomic
def round_set_pairings(
    *, round: Round, pairings: Sequence[PairingSpec], expected_pairing: str | None = None
) -> list[Game]:
    """Replace the pairings of a round that has no results yet.

    `expected_pairing`: the `pairing_version` the page showed; refused when it changed.
    """
    locked = _locked(round)
    _check_pairing_version(locked, expected_pairing)
    if locked.games.exclude(outcome__in=[Outcome.PENDING, Outcome.BYE]).exists():
        raise CompetitionError(
            _("Round %(number)s already has results; its pairings can no longer change.")
            % {"number": locked.number}
        )
    active = {entrant.player_id for entrant in entrants_active_in(locked)}
    for spec in pairings:
        for player_id in (spec.player_a, spec.player_b):
            if player_id is not None and player_id not in active:
                raise CompetitionError(
                    _("A paired player does not take part in round %(number)s.")
                    % {"number": locked.number}
                )
    locked.games.all().delete()
    ruleset = ruleset_for(locked.competition).to_dict()
    try:
        with transaction.atomic():
            games = games_create(
                round_id=locked.pk,
                pairings=[replace(spec, rules=spec.rules or ruleset) for spec in pairings],
            )
    except IntegrityError as error:
        raise CompetitionError(
            _("A player appears twice in round %(number)s.") % {"number": locked.number}
        ) from error
    competition_touched(competition_id=locked.competition_id)
    return games


@transaction.atomic
def round_clear_pairings(*, round: Round, expected_pairing: str | None = None) -> None:
    round_set_pairings(round=round, pairings=[], expected_pairing=expected_pairing)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.DRAFT)
    competition_touched(competition_id=round.competition_id)


@transaction.atomic
def round_set_status(*, round: Round, status: str, expected_pairing: str | None = None) -> Round:
    """Publish a reviewed pairing, or mark a round finished.

    Publishing twice is publishing once; publishing a pairing other than the one the page
    showed (`expected_pairing`) is refused.
    """
    locked = _locked(round)
    _check_pairing_version(locked, expected_pairing)
    if status != Round.Status.DRAFT and not locked.games.exists():
        raise CompetitionError(_("Pair the round before publishing it."))
    locked.status = status
    locked.full_clean()
    locked.save(update_fields=["status"])
    round.status = status
    competition_touched(competition_id=round.competition_id)
    return locked


@transaction.atomic
def round_record_results(
    *, round: Round, entries: Sequence[ResultEntry], by: AbstractBaseUser | None
) -> int:
    """Record a whole round's results in one go; the round is finished once all are in."""
    round = _locked(round)
    own_games = set(round.games.values_list("pk", flat=True))
    if any(entry.game_id not in own_games for entry in entries):
        raise CompetitionError(_("A result belongs to a game of another round."))
    changed = games_record_results(entries=entries, by=by)
    if not round.games.filter(outcome=Outcome.PENDING).exists() and round.games.exists():
        Round.objects.filter(pk=round.pk).update(status=Round.Status.FINISHED)
    elif round.status == Round.Status.DRAFT and changed:
        Round.objects.filter(pk=round.pk).update(status=Round.Status.PUBLISHED)
    competition_touched(competition_id=round.competition_id)
    return changed


@transaction.atomic
def round_swap_players(
    *, round: Round, player_x: int, player_y: int, expected_pairing: str | None = None
) -> None:
    """Swap two players' places in a round's pairing (or between a game and the bye)."""
    if player_x == player_y:
        raise CompetitionError(_("Choose two different players to swap."))
    round = _locked(round)
    _check_pairing_version(round, expected_pairing)
    games = list(
        round.games.select_for_update(of=("self",)).filter(
            Q(player_a_id__in=[player_x, player_y]) | Q(player_b_id__in=[player_x, player_y])
        )
    )
    if any(game.outcome not in (Outcome.PENDING, Outcome.BYE) for game in games):
        raise CompetitionError(_("A game with a result cannot be changed; correct it instead."))
    places = {}
    for game in games:
        for side in ("a", "b"):
            player_id = getattr(game, f"player_{side}_id")
            if player_id in (player_x, player_y):
                places[player_id] = (game, side)
    if len(places) != 2:
        raise CompetitionError(_("Both players must have a place in this round's pairing."))
    (game_x, side_x), (game_y, side_y) = places[player_x], places[player_y]
    if game_x.pk == game_y.pk:
        raise CompetitionError(_("These two players already play each other."))
    specs = []
    for game in {game.pk: game for game in games}.values():
        ids = {"a": game.player_a_id, "b": game.player_b_id}
        if game is game_x:
            ids[side_x] = player_y
        if game is game_y:
            ids[side_y] = player_x
        specs.append(
            PairingSpec(
                ids["a"], ids["b"], table=game.table, starter=game.starter, rules=game.rules
            )
        )
    round.games.filter(pk__in=[game.pk for game in games]).delete()
    try:
        with transaction.atomic():
            games_create(round_id=round.pk, pairings=specs)
    except IntegrityError as error:
        raise CompetitionError(
            _("A player appears twice in round %(number)s.") % {"number": round.number}
        ) from error
    competition_touched(competition_id=round.competition_id)
