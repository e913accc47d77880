"""Pairing a round: the adapter between the ORM and the pure engines in competition.core.pairing.

`round_pairing_preview` computes a pairing without writing; `round_pair` writes it as the
round's games (a draft the director reviews, may swap, and then publishes);
`round_add_late_player` seats a late arrival in a pairing already made.
"""

from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from competition import selectors
from competition.core import pairing, standings
from competition.models import Competition, Entrant, Round
from competition.ratings import club_ratings, seed_rating
from competition.rulesets import game_rules_for
from competition.selectors import (
    entrants_active_in,
    entrants_present_in,
    seated_player_ids,
)
from competition.services import CompetitionError
from competition.services.rounds import (
    check_pairing_version,
    pairing_snapshot,
    round_create,
    round_history,
    round_lock,
    round_set_pairings,
    round_update_status,
)
from competition.versioning import competition_touched
from games.locks import games_locked
from games.models import Game, Outcome, Seat
from games.services import PairingSpec, games_create

SYSTEM_NAMES = {"swiss": "swiss", "rr": "round_robin", "koth": "king_of_the_hill"}


@dataclass(frozen=True)
class PairingInput:
    """The records to pair, per group ("" when the competition has no groups)."""

    groups: dict[str, list[pairing.PairingEntrant]]
    standings_round: int | None


@dataclass(frozen=True)
class RoundPairing:
    """A whole round's pairing: every group's tables numbered on, and every group's bye."""

    pairs: tuple[pairing.Pair, ...]
    byes: tuple[int, ...]
    weight: int | None
    system: str
    criteria: tuple[pairing.CriterionTotal, ...] = ()


def default_standings_round(round: Round, *, open_games: int | None = None) -> int | None:
    """Pair round N from the standings after N-1, or after N-2 when N-1 is still being played.

    `open_games`: `selectors.games_without_result_before(round)`, when the caller has it.
    """
    previous = round.number - 1
    if previous < 1:
        return None
    if open_games is None:
        open_games = selectors.games_without_result_before(round)
    if not open_games:
        return previous
    return previous - 1 if previous > 1 else None


def pairing_input(round: Round, *, standings_round: int | None) -> PairingInput:
    """Records of the players present in `round`, with their standing and history."""
    competition = round.competition
    present = entrants_present_in(round)
    # Never the standings of this round or later: they are what is being paired.
    after_round = min(standings_round or 0, round.number - 1)
    rows = standings.compute(
        selectors.entrant_records(competition),
        selectors.game_records(competition),
        selectors.standings_settings(competition),
        after_round=after_round,
    )
    by_player = {row.player_id: row for row in rows}
    history: dict[int, list[pairing.PastGame]] = defaultdict(list)
    starts: dict[int, list[bool]] = defaultdict(list)
    byes: dict[int, int] = defaultdict(int)
    seat_rows = (
        Seat.objects.filter(round__competition=competition, round__number__lt=round.number)
        .exclude(game__outcome=Outcome.ANNULLED)
        .values_list(
            "game_id", "round__number", "player_id", "position", "game__starter", "game__outcome"
        )
        .order_by("round__number", "game_id", "position")
    )
    tables: dict[int, list[tuple]] = defaultdict(list)
    for game_id, *seat in seat_rows:
        tables[game_id].append(tuple(seat))
    # Each pair at a table met: one past game per opponent, as one against one.
    for seats in tables.values():
        if len(seats) == 1:
            byes[seats[0][1]] += 1
            continue
        for number, player, position, starter, outcome in seats:
            started = None if starter is None else starter == position
            for _number, opponent, *_rest in seats:
                if opponent != player:
                    history[player].append(pairing.PastGame(opponent, number, started))
            if started is not None and outcome != Outcome.FORFEIT:
                starts[player].append(started)
    groups: dict[str, list[pairing.PairingEntrant]] = defaultdict(list)
    # Round 1 is seeded by the club's rating (competition/ratings.py); a player without a
    # rated game keeps the known start rating, or none.
    club_rating = club_ratings(competition.club) if round.number == 1 else None
    for entrant in present:
        row = by_player.get(entrant.player_id)
        own_starts = starts[entrant.player_id]
        groups[entrant.group.name if entrant.group else ""].append(
            pairing.PairingEntrant(
                id=entrant.player_id,
                rank=row.rank if row else len(rows) + 1,
                match_points=row.match_points if row else 0,
                board_points=row.board_points if row else 0,
                rating=seed_rating(club_rating, entrant.player),
                seed=entrant.seed,
                byes=byes[entrant.player_id],
                starts=sum(own_starts),
                games=len(own_starts),
                recent_starts=tuple(own_starts[-6:]),
                opponents=tuple(history[entrant.player_id]),
            )
        )
    return PairingInput(groups=dict(sorted(groups.items())), standings_round=standings_round)


def round_pairing_preview(
    *,
    round: Round,
    system: str | None = None,
    standings_round: int | None = None,
    seed: int | None = None,
) -> RoundPairing:
    """Compute the pairing of a round without writing anything; groups pair apart."""
    competition: Competition = round.competition
    name = SYSTEM_NAMES.get(system or competition.pairing_system, system)
    if standings_round is None:
        standings_round = default_standings_round(round)
    data = pairing_input(round, standings_round=standings_round)
    results = []
    for entrants in data.groups.values():
        group_name, options = name, {"starters": competition.starters}
        if name in {"swiss", "round_robin"}:
            options["round_number"] = round.number
        if name == "random":
            options["seed"] = seed if seed is not None else competition.pk * 1000 + round.number
        first_round_by_rating = (
            name == "swiss"
            and round.number == 1
            and competition.kind == Competition.Kind.TOURNAMENT
            and any(entrant.rating or entrant.seed for entrant in entrants)
        )
        if first_round_by_rating:
            group_name = "by_rating"
            options.pop("round_number")
            if all(entrant.seed for entrant in entrants):
                options["order_by"] = "seed"
        try:
            results.append(pairing.pair(group_name, entrants, **options))
        except pairing.PairingError as error:
            raise CompetitionError(
                _("The round cannot be paired: %(reason)s") % {"reason": error}
            ) from error
    return _combined(results, system=name)


def _combined(results: list[pairing.Pairing], *, system: str) -> RoundPairing:
    """One pairing of several groups: tables numbered on, group after group."""
    pairs, byes, weight = [], [], 0
    for result in results:
        offset = len(pairs)
        pairs += [replace(pair, table=pair.table + offset) for pair in result.pairs]
        byes += [result.bye] if result.bye is not None else []
        weight = None if result.weight is None or weight is None else weight + result.weight
    return RoundPairing(
        pairs=tuple(pairs),
        byes=tuple(byes),
        weight=weight,
        system=system,
        criteria=results[0].criteria if len(results) == 1 else (),
    )


def pairing_specs(result: RoundPairing) -> list[PairingSpec]:
    specs = [
        PairingSpec(
            players=(pair.player_a, pair.player_b),
            table=pair.table,
            starter=None if pair.starter is None else 0 if pair.starter == pair.player_a else 1,
        )
        for pair in result.pairs
    ]
    specs += [PairingSpec(players=(bye,)) for bye in result.byes]
    return specs


@transaction.atomic
def round_pair(
    *,
    round: Round,
    system: str | None = None,
    standings_round: int | None = None,
    seed: int | None = None,
    expected_pairing: str | None = None,
    by: AbstractBaseUser | None = None,
) -> RoundPairing:
    """Generate and store a round's pairing as a draft; refused once the round has results,
    and when the pairing is no longer the one the page showed (`expected_pairing`)."""
    result = round_pairing_preview(
        round=round, system=system, standings_round=standings_round, seed=seed
    )
    round_set_pairings(
        round=round,
        pairings=pairing_specs(result),
        expected_pairing=expected_pairing,
        by=by,
        system=result.system,
        to_draft=True,
    )
    return result


@transaction.atomic
def round_create_and_pair(
    *,
    competition: Competition,
    number: int | None = None,
    system: str | None = None,
    standings_round: int | None = None,
    seed: int | None = None,
    by: AbstractBaseUser | None = None,
    date: date | None = None,
) -> tuple[Round, RoundPairing]:
    """Pair round `number` (default: a new next round), adding it first when it is the next
    one, as *Add round* and *Generate* on the pages do: both or neither. A round added here
    is played tonight (`date`, default the club's local date), like *Add round*'s."""
    round = round_create(
        competition=competition, number=number, date=date or timezone.localdate(), by=by
    )
    return round, round_pair(
        round=round, system=system, standings_round=standings_round, seed=seed, by=by
    )


#: `round_add_late_player`'s opponent for a late arrival who gets the bye.
BYE = None


@transaction.atomic
def round_add_late_player(
    *,
    round: Round,
    player_id: int,
    opponent_id: int | None = BYE,
    by: AbstractBaseUser | None = None,
    expected_pairing: str | None = None,
) -> Game:
    """Seat a late arrival in a round already paired, without re-pairing anyone else.

    `opponent_id` is the player who has the bye (the bye becomes a real game at a new
    table), another late arrival without a place (a new table for the two), or `BYE` (the
    late arrival gets a bye). The late arrival is marked present. Refused in a finished
    round (reopen it first) and once the pairing changed since the page (`expected_pairing`).
    """
    locked = round_lock(round)
    check_pairing_version(locked, expected_pairing)
    number = locked.number
    if locked.status == Round.Status.FINISHED:
        raise CompetitionError(
            _("Round %(number)s is finished; reopen it first to add a player.") % {"number": number}
        )
    seated = seated_player_ids(locked)
    if not seated:
        raise CompetitionError(
            _("Round %(number)s has no pairing yet: mark the player present and pair the round.")
            % {"number": number}
        )
    active = {entrant.player_id: entrant for entrant in entrants_active_in(locked)}
    late = _late_entrant(active, player_id, number)
    if late.player_id in seated:
        raise CompetitionError(
            _("%(player)s already has a place in round %(number)s.")
            % {"player": late.player.name, "number": number}
        )
    bye_game = None
    if opponent_id is not BYE:
        opponent = _late_entrant(active, opponent_id, number)
        if opponent.player_id == late.player_id:
            raise CompetitionError(_("Choose two different players."))
        if opponent.group_id != late.group_id:
            raise CompetitionError(
                _("%(player)s and %(opponent)s play in different groups.")
                % {"player": late.player.name, "opponent": opponent.player.name}
            )
        if opponent.player_id in seated:
            bye_game = (
                games_locked(locked.games)
                .filter(seats__player_id=opponent.player_id, outcome=Outcome.BYE)
                .first()
            )
            if bye_game is None:
                raise CompetitionError(
                    _(
                        "%(player)s already plays in round %(number)s; choose the player "
                        "with the bye or another late arrival."
                    )
                    % {"player": opponent.player.name, "number": number}
                )
    absences = locked.absences.filter(player_id__in=[player_id, opponent_id])
    made_present = sorted(absences.values_list("player__name", flat=True))
    absences.delete()
    before = pairing_snapshot(Game.objects.with_seats().filter(pk=bye_game.pk) if bye_game else [])
    if bye_game is not None:
        bye_game.delete()
    spec = _late_spec(locked, late.player_id, opponent_id)
    try:
        with transaction.atomic():
            (game,) = games_create(round_id=locked.pk, pairings=[spec])
    except IntegrityError as error:  # seated meanwhile: the constraint, not the check above
        raise CompetitionError(
            _("A player appears twice in round %(number)s.") % {"number": number}
        ) from error
    game = Game.objects.with_seats().get(pk=game.pk)
    round_history(
        locked,
        by=by,
        action=HistoryAction.PAIRING_LATE,
        before={"pairings": before},
        after={"pairings": pairing_snapshot([game]), "present": made_present},
        game_id=game.pk,
    )
    round_update_status(round=locked, by=by)
    competition_touched(competition_id=locked.competition_id)
    return game


def _late_entrant(active: dict[int, Entrant], player_id: int, number: int) -> Entrant:
    entrant = active.get(player_id)
    if entrant is None:
        raise CompetitionError(
            _("That player does not take part in round %(number)s; enter them first.")
            % {"number": number}
        )
    return entrant


def _late_spec(round: Round, player_id: int, opponent_id: int | None) -> PairingSpec:
    """The late game: at the next free table, the starter chosen as the pairing would."""
    rules = game_rules_for(round.competition)
    if opponent_id is BYE:
        return PairingSpec((player_id,), rules=rules)
    last_table = round.games.aggregate(last=Max("table"))["last"] or 0
    starter = None
    if round.competition.starters == Competition.Starters.ASSIGNED:
        records = {
            entrant.id: entrant
            for group in pairing_input(round, standings_round=None).groups.values()
            for entrant in group
        }
        (first,) = pairing.assign_starters(
            [(opponent_id, player_id)],
            [records[opponent_id], records[player_id]],
            starters="assigned",
        )
        starter = 0 if first == opponent_id else 1
    return PairingSpec((opponent_id, player_id), table=last_table + 1, starter=starter, rules=rules)


@dataclass(frozen=True)
class PairReview:
    """What the director checks of one table before publishing."""

    match_point_gap: float
    board_point_gap: int
    meetings: int
    last_met_round: int | None

    @property
    def is_repeat(self) -> bool:
        return self.meetings > 0


def round_pairing_review(round: Round, *, standings_round: int | None) -> dict[int, PairReview]:
    """Per game of the round: the pair's standings gaps and earlier meetings, from the same
    records the engines paired with."""
    records = {
        entrant.id: entrant
        for group in pairing_input(round, standings_round=standings_round).groups.values()
        for entrant in group
    }
    empty = pairing.PairingEntrant(id=0, rank=0)
    review = {}
    for game in round.games.exclude(outcome=Outcome.BYE).with_seats():
        if len(game.seat_list) != 2:
            continue  # tables of 3 and 4 are explained by the tables engine
        first, second = (seat.player_id for seat in game.seat_list)
        a = records.get(first, empty)
        b = records.get(second, empty)
        met = [past.round_number for past in a.opponents if past.opponent_id == second]
        review[game.pk] = PairReview(
            match_point_gap=abs(a.match_points - b.match_points),
            board_point_gap=abs(a.board_points - b.board_points),
            meetings=len(met),
            last_met_round=max(met, default=None),
        )
    return review
