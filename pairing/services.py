"""Pairing a round: the adapter between the ORM and the pure engines in pairing.core.

`round_pairing_preview` computes a pairing without writing; `round_pair` writes it as the
round's games (a draft the director reviews, may swap, and then publishes);
`round_add_late_player` seats a late arrival in a pairing already made.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction
from clubs.inputs import SMALLINT_MAX
from competition import selectors
from competition.core import standings
from competition.models import Competition, Entrant, Round, TableSize, table_size_choice
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
    round_set_attendance,
    round_set_pairings,
    round_swap_players,
    round_update_status,
    swap_games_locked,
    swap_games_replace,
)
from competition.versioning import competition_touched
from games.engine import ruleset_of
from games.locks import games_locked
from games.models import Game, Move, Outcome, Seat
from games.services import PairingSpec, games_create
from pairing import core as engines
from pairing.core.tables import explain

SYSTEM_NAMES = {"swiss": "swiss", "rr": "round_robin", "koth": "king_of_the_hill"}
#: At tables of 3 and 4 (`engines.pair_tables`): a round robin is the schedule in which
#: nobody meets twice (the social golfer problem); King of the Hill cuts the standings.
TABLE_SYSTEM_NAMES = {
    "swiss": "swiss",
    "rr": "golfer",
    "round_robin": "golfer",
    "koth": "king_of_the_hill",
    "king_of_the_hill": "king_of_the_hill",
    "random": "random",
}


@dataclass(frozen=True)
class PairingInput:
    """The records to pair, per group ("" when the competition has no groups)."""

    groups: dict[str, list[engines.PairingEntrant]]
    standings_round: int | None
    #: Every earlier table of the competition (2-4 players who came), for the tables pairing.
    tables: tuple[engines.PastTable, ...] = ()


@dataclass(frozen=True)
class RoundPairing:
    """A whole round's pairing: every group's tables numbered on, and every group's bye."""

    pairs: tuple[engines.Pair, ...]
    byes: tuple[int, ...]
    weight: int | None
    system: str
    criteria: tuple[engines.CriterionTotal, ...] = ()
    #: At tables of 3 and 4 (the round's table size is not 2): the tables, `pairs` empty.
    tables: tuple[engines.Table, ...] = ()
    #: Which engine made each group's pairing and why: `Explanation.to_dict()` with the
    #: group's name ("" without groups), as `Round.pairing_explanation` keeps them.
    explanations: tuple[dict, ...] = ()


def _explained_group(group: str, result: engines.Pairing | engines.TablePairing) -> dict:
    explanation = result.explanation
    return {"group": group, **(explanation.to_dict() if explanation else {})}


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
    history: dict[int, list[engines.PastGame]] = defaultdict(list)
    starts: dict[int, list[bool]] = defaultdict(list)
    byes: dict[int, int] = defaultdict(int)
    seat_rows = (
        Seat.objects.filter(round__competition=competition, round__number__lt=round.number)
        .exclude(game__outcome=Outcome.ANNULLED)
        .values_list(
            "game_id",
            "round__number",
            "player_id",
            "position",
            "game__starter",
            "game__outcome",
            "forfeited",
        )
        .order_by("round__number", "game_id", "position")
    )
    tables: dict[int, list[tuple]] = defaultdict(list)
    for game_id, *seat in seat_rows:
        tables[game_id].append(tuple(seat))
    past_tables = []
    # Each pair at a table met: one past game per opponent, as one against one.
    for seats in tables.values():
        if len(seats) == 1:
            byes[seats[0][1]] += 1
            continue
        past = _past_table(seats)
        if past is not None:
            past_tables.append(past)
        for number, player, position, starter, outcome, _forfeited in seats:
            started = None if starter is None else starter == position
            for _number, opponent, *_rest in seats:
                if opponent != player:
                    history[player].append(engines.PastGame(opponent, number, started))
            if started is not None and outcome != Outcome.FORFEIT:
                starts[player].append(started)
    groups: dict[str, list[engines.PairingEntrant]] = defaultdict(list)
    # Round 1 is seeded by the club's rating (competition/ratings.py); a player without a
    # rated game keeps the known start rating, or none.
    club_rating = club_ratings(competition.club) if round.number == 1 else None
    for entrant in present:
        row = by_player.get(entrant.player_id)
        own_starts = starts[entrant.player_id]
        groups[entrant.group.name if entrant.group else ""].append(
            engines.PairingEntrant(
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
    return PairingInput(
        groups=dict(sorted(groups.items())),
        standings_round=standings_round,
        tables=tuple(past_tables),
    )


def _past_table(seats: list[tuple]) -> engines.PastTable | None:
    """A stored table as the tables engines read it: the players who came, in playing
    order from the starter (its order unknown when drawn at the table or someone forfeited);
    None when fewer than two came."""
    number, _player, _position, starter, _outcome, _forfeited = seats[0]
    came = [seat for seat in seats if not seat[5]]
    if len(came) < 2:
        return None
    order_known = starter is not None and len(came) == len(seats)
    if order_known:
        came = came[starter:] + came[:starter]
    return engines.PastTable(
        round_number=number,
        players=tuple(seat[1] for seat in came),
        order_known=order_known,
    )


def round_pairing_preview(
    *,
    round: Round,
    system: str | None = None,
    standings_round: int | None = None,
    seed: int | None = None,
    table_size: str | None = None,
) -> RoundPairing:
    """Compute the pairing of a round without writing anything; groups pair apart.

    `table_size`: the round's table size to pair with (a `TableSize` code, "" for the
    competition's); None: the round's own setting."""
    competition: Competition = round.competition
    if standings_round is None:
        standings_round = default_standings_round(round)
    code = round.table_size if table_size is None else table_size
    code = code or competition.table_size
    if code != TableSize.TWO:
        return _preview_tables(
            round, code=code, system=system, standings_round=standings_round, seed=seed
        )
    system = system or competition.pairing_system
    name = SYSTEM_NAMES.get(system, system)
    data = pairing_input(round, standings_round=standings_round)
    results, explanations = [], []
    for group, entrants in data.groups.items():
        options: dict[str, object] = {"starters": competition.starters}
        group_name = name
        if name in {"swiss", "round_robin"}:
            options["round_number"] = round.number
        if name == "random":
            options["seed"] = _random_seed(round, seed)
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
            results.append(engines.pair(group_name, entrants, **options))
        except engines.PairingError as error:
            raise CompetitionError(
                _("The round cannot be paired: %(reason)s") % {"reason": error}
            ) from error
        explanations.append(_explained_group(group, results[-1]))
    return replace(_combined(results, system=name), explanations=tuple(explanations))


def check_table_size(competition: Competition, code: str) -> None:
    """Refuse a table size that is not one, or that the competition cannot play at."""
    if code and code not in TableSize.values:
        raise CompetitionError(_("Choose a table size from the list."))
    error = competition.table_size_error(code)
    if error:
        raise CompetitionError(error)


def _random_seed(round: Round, seed: int | None) -> int:
    return seed if seed is not None else round.competition.pk * 1000 + round.number


def _preview_tables(
    round: Round, *, code: str, system: str | None, standings_round: int | None, seed: int | None
) -> RoundPairing:
    """The round at tables of 3 and 4: each group split by `engines.table_sizes` and paired
    by the tables engine of the competition's system, with every earlier table as history.
    A first round by rating is not offered at tables: Swiss then groups by the (empty)
    standings."""
    competition: Competition = round.competition
    check_table_size(competition, code)
    name = TABLE_SYSTEM_NAMES.get(system or competition.pairing_system)
    if name is None:
        raise CompetitionError(_("Choose a pairing system from the list."))
    data = pairing_input(round, standings_round=standings_round)
    tables: list[engines.Table] = []
    byes: list[int] = []
    explanations = []
    for group, entrants in data.groups.items():
        options: dict = {"starters": competition.starters, "history": data.tables}
        if name == "golfer":
            options["round_number"] = round.number
        if name == "random":
            options["seed"] = _random_seed(round, seed)
        try:
            sizes = engines.table_sizes(len(entrants), table_size_choice(code))
            result = engines.pair_tables(name, entrants, sizes, **options)
        except engines.PairingError as error:
            raise CompetitionError(
                _("The round cannot be paired: %(reason)s") % {"reason": error}
            ) from error
        offset = len(tables)
        tables += [replace(table, number=table.number + offset) for table in result.tables]
        byes += [result.bye] if result.bye is not None else []
        explanations.append(_explained_group(group, result))
    return RoundPairing(
        pairs=(),
        byes=tuple(byes),
        weight=None,
        system=name,
        tables=tuple(tables),
        explanations=tuple(explanations),
    )


def _combined(results: list[engines.Pairing], *, system: str) -> RoundPairing:
    """One pairing of several groups: tables numbered on, group after group."""
    pairs: list[engines.Pair] = []
    byes: list[int] = []
    weight: int | None = 0
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
    # At tables the engine seats each table: seat 0 starts, unless drawn at the table.
    specs += [
        PairingSpec(players=table.players, table=table.number, starter=0 if table.seated else None)
        for table in result.tables
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
    table_size: str | None = None,
) -> RoundPairing:
    """Generate and store a round's pairing as a draft; refused once the round has results,
    and when the pairing is no longer the one the page showed (`expected_pairing`).

    `table_size`: the round's own table size from now on ("" = the competition's; None:
    as it is), kept with the pairing in one history entry."""
    changes = {}
    if table_size is not None and table_size != round.table_size:
        check_table_size(round.competition, table_size)
        changes["table_size"] = (round.table_size, table_size)
    result = round_pairing_preview(
        round=round,
        system=system,
        standings_round=standings_round,
        seed=seed,
        table_size=table_size,
    )
    round_set_pairings(
        round=round,
        pairings=pairing_specs(result),
        expected_pairing=expected_pairing,
        by=by,
        system=result.system,
        to_draft=True,
        changes=changes,
        explanation=list(result.explanations),
    )
    if table_size is not None and changes:
        round.table_size = table_size
        round.save(update_fields=["table_size"])
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


@transaction.atomic
def round_set_attendance_and_pair(
    *, round: Round, present_player_ids: Iterable[int], by: AbstractBaseUser | None = None
) -> RoundPairing:
    """Record who is there tonight and pair them with the competition's own system, as
    the attendance page's main button does: both or neither (a round paired already is
    refused, so a second tap never pairs it again)."""
    if round_lock(round).games.exists():
        raise CompetitionError(
            _("Round %(number)s is paired already; review its pairing on the pairing page.")
            % {"number": round.number}
        )
    round_set_attendance(round=round, present_player_ids=present_player_ids, by=by)
    return round_pair(round=round, by=by)


#: `round_add_late_player`'s opponent for a late arrival who gets the bye.
BYE = None


@transaction.atomic
def round_add_late_player(
    *,
    round: Round,
    player_id: int,
    opponent_id: int | None = BYE,
    join_table: int | None = None,
    by: AbstractBaseUser | None = None,
    expected_pairing: str | None = None,
) -> Game:
    """Seat a late arrival in a round already paired, without re-pairing anyone else.

    `opponent_id` is the player who has the bye (the bye becomes a real game at a new
    table), another late arrival without a place (a new table for the two), or `BYE` (the
    late arrival gets a bye). In a round at tables of 3 and 4, `join_table` (a table
    number) seats the late arrival last at that table of 2 or 3, which has no result and no
    moves yet: a table of 3 becomes 4. The late arrival is marked present. Refused in a
    finished round (reopen it first) and once the pairing changed since the page
    (`expected_pairing`).
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
    # The game the late arrival's place replaces: the bye, or the table they join.
    replaced: Game | None = None
    joined: Game | None = None
    if join_table is not None:
        opponent_id = BYE
        replaced = joined = _table_to_join(locked, join_table, late, active)
    elif opponent_id is not BYE:
        opponent = _late_entrant(active, opponent_id, number)
        if opponent.player_id == late.player_id:
            raise CompetitionError(_("Choose two different players."))
        if opponent.group_id != late.group_id:
            raise CompetitionError(
                _("%(player)s and %(opponent)s play in different groups.")
                % {"player": late.player.name, "opponent": opponent.player.name}
            )
        if opponent.player_id in seated:
            replaced = (
                games_locked(locked.games)
                .filter(seats__player_id=opponent.player_id, outcome=Outcome.BYE)
                .first()
            )
            if replaced is None:
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
    before = pairing_snapshot(Game.objects.with_seats().filter(pk=replaced.pk) if replaced else [])
    joined_players = [player.pk for player in joined.players] if joined else []
    if replaced is not None:
        replaced.delete()
    if joined is not None:
        spec = PairingSpec(
            (*joined_players, late.player_id),
            table=joined.table,
            starter=joined.starter,
            rules=joined.rules,
        )
    else:
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


def _table_to_join(round: Round, table: int, late: Entrant, active: dict[int, Entrant]) -> Game:
    """The locked game at `table` that a late arrival may join, or the reason why not."""
    number = round.number
    if not round.at_tables:
        raise CompetitionError(
            _("Round %(number)s is played one against one: a late arrival gets a new table.")
            % {"number": number}
        )
    game = (
        games_locked(round.games.filter(table=table)).exclude(outcome=Outcome.BYE).first()
        if 0 < table <= SMALLINT_MAX
        else None
    )
    if game is None:
        raise CompetitionError(
            _("Round %(number)s has no table %(table)s.") % {"number": number, "table": table}
        )
    seats = game.seat_list
    if len(seats) >= min(4, ruleset_of(game).players_max):
        raise CompetitionError(
            _("Table %(table)s is full; choose a table of 3.") % {"table": table}
        )
    if game.has_entered_result or Move.objects.filter(game=game).exists():
        raise CompetitionError(
            _("Table %(table)s has started (a result or moves): choose another place.")
            % {"table": table}
        )
    if any(
        seat.player_id in active and active[seat.player_id].group_id != late.group_id
        for seat in seats
    ):
        raise CompetitionError(
            _("%(player)s plays in another group than table %(table)s.")
            % {"player": late.player.name, "table": table}
        )
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
        (first,) = engines.assign_starters(
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
    empty = engines.PairingEntrant(id=0, rank=0)
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


def _stored_table(game: Game) -> tuple[tuple[int, ...], bool]:
    """A stored table's players in playing order (from its starter), and whether the
    pairing seated it (False: who starts is drawn at the table)."""
    players = tuple(player.pk for player in game.players)
    if game.starter is None:
        return players, False
    return players[game.starter :] + players[: game.starter], True


def _explained(
    games: list[Game], data: PairingInput
) -> tuple[engines.TablePairing, dict[int, engines.PairingEntrant]]:
    """The stored games as the tables engine explains them (a bye as its bye)."""
    records = {entrant.id: entrant for group in data.groups.values() for entrant in group}
    by_id = dict(records)
    for game in games:
        for player in game.players:
            by_id.setdefault(player.pk, engines.PairingEntrant(id=player.pk, rank=len(by_id) + 1))
    history = engines.TableHistory(data.tables, list(by_id))
    tables, bye = [], None
    for game in games:
        if game.is_bye:
            bye = game.players[0].pk
            continue
        players, seated = _stored_table(game)
        tables.append(
            explain(game.table or 0, players, seated=seated, by_id=by_id, history=history)
        )
    return engines.TablePairing(tables=tuple(tables), bye=bye, system=""), by_id


def round_table_review(round: Round, *, standings_round: int | None) -> dict[int, engines.Table]:
    """Per table of a round at tables of 3 and 4: the engine's explanation (players in
    playing order, repeat meetings, match-point spread), from the records it paired with."""
    games = [game for game in round.games.with_seats() if not game.is_bye]
    data = pairing_input(round, standings_round=standings_round)
    explained, _by_id = _explained(games, data)
    return {game.pk: table for game, table in zip(games, explained.tables, strict=True)}


@transaction.atomic
def round_swap(
    *,
    round: Round,
    player_x: int,
    player_y: int,
    expected_pairing: str | None = None,
    by: AbstractBaseUser | None = None,
) -> None:
    """The director's swap. One against one: `round_swap_players`, as always. At tables of
    3 and 4: the engine's `swap_players`: two players at one table change seats (so the
    director chooses who starts); at two tables, or a table and the bye, they change
    places and each changed table is seated again by the starts rule."""
    if not round.at_tables:
        round_swap_players(
            round=round,
            player_x=player_x,
            player_y=player_y,
            expected_pairing=expected_pairing,
            by=by,
        )
        return
    locked, games = swap_games_locked(round, player_x, player_y, expected_pairing)
    seated_here = {player.pk for game in games for player in game.players}
    if not {player_x, player_y} <= seated_here:
        raise CompetitionError(_("Both players must have a place in this round's pairing."))
    if all(game.is_bye for game in games):
        raise CompetitionError(_("Both players have a bye; there is nothing to swap."))
    data = pairing_input(locked, standings_round=default_standings_round(locked))
    shown, by_id = _explained(games, data)
    try:
        swapped = engines.swap_players(shown, player_x, player_y, by_id.values(), data.tables)
    except engines.PairingError as error:
        raise CompetitionError(
            _("The players cannot be swapped: %(reason)s") % {"reason": error}
        ) from error
    rules = games[0].rules
    specs = [
        PairingSpec(
            table.players, table=table.number, starter=0 if table.seated else None, rules=rules
        )
        for table in swapped.tables
    ]
    if swapped.bye is not None:
        specs.append(PairingSpec((swapped.bye,), rules=rules))
    swap_games_replace(locked, games, specs, by=by)
