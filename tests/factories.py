"""Factories for every model, and builders for the states the tests need.

`Factory.build()` makes unsaved objects (no database); `Factory.create()` saves them.
A created `Game` gets its `Seat` rows, as `games.services.games_create` would make them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.text import slugify
from factory.django import DjangoModelFactory, Password

from clubs.history import HistoryAction
from clubs.models import Club, HistoryEntry, Membership, Player
from competition.models import Absence, Competition, Entrant, Group, Round
from games.models import Game, Move, Outcome, Seat
from games.services import result_of
from rules.result import places as result_places

PASSWORD = "bordpunt-test"


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"gebruiker{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = Password(PASSWORD)

    class Params:
        staff = factory.Trait(is_staff=True)


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Scrabbleclub {n}")
    slug = factory.LazyAttribute(lambda club: slugify(club.name))
    city = "Gouda"


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Speler {n:04d}")
    rating = None


class MembershipFactory(DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    role = Membership.Role.MEMBER

    class Params:
        secretary = factory.Trait(role=Membership.Role.SECRETARY)


class CompetitionFactory(DjangoModelFactory):
    class Meta:
        model = Competition

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Competitie {n}")
    slug = factory.LazyAttribute(lambda competition: slugify(competition.name))
    kind = Competition.Kind.CLUB
    rules = Competition.Rules.GOUDS_8

    class Params:
        tournament = factory.Trait(
            kind=Competition.Kind.TOURNAMENT,
            rules=Competition.Rules.STANDARD,
            number_of_rounds=5,
        )


class GroupFactory(DjangoModelFactory):
    class Meta:
        model = Group

    competition = factory.SubFactory(CompetitionFactory)
    name = factory.Sequence(lambda n: f"Groep {n}")


class EntrantFactory(DjangoModelFactory):
    class Meta:
        model = Entrant

    competition = factory.SubFactory(CompetitionFactory)
    player = factory.SubFactory(PlayerFactory)
    joined_round = 1


def _next_round_number(round: Round) -> int:
    if round.competition.pk is None:
        return 1
    last = round.competition.rounds.aggregate(last=Max("number"))["last"]
    return (last or 0) + 1


class RoundFactory(DjangoModelFactory):
    class Meta:
        model = Round

    competition = factory.SubFactory(CompetitionFactory)
    number = factory.LazyAttribute(_next_round_number)
    status = Round.Status.PUBLISHED


class AbsenceFactory(DjangoModelFactory):
    class Meta:
        model = Absence

    round = factory.SubFactory(RoundFactory)
    player = factory.SubFactory(PlayerFactory)


class GameFactory(DjangoModelFactory):
    """A pending game of two players; traits `played` (a normal result) and `bye`.

    The players and scores are given as for a pair (`player_a`, `player_b`, `score_a`,
    `score_b`, `winner` for a flag fall or forfeit, `starter` "a"/"b") or as a table
    (`players=[...]`, `scores=[...]`); they become the game's seats.
    `GameFactory(seats=False)` leaves out the seats (for `SeatFactory`).
    """

    class Meta:
        model = Game
        skip_postgeneration_save = True

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    player_a = factory.SubFactory(PlayerFactory)
    player_b = factory.SubFactory(PlayerFactory)
    outcome = Outcome.PENDING
    winner = ""
    score_a = None
    score_b = None
    players = None
    scores = None
    seats = True

    class Params:
        played = factory.Trait(outcome=Outcome.NORMAL, score_a=321, score_b=287)
        bye = factory.Trait(player_b=None, table=None, outcome=Outcome.BYE)

    _TABLE_FIELDS = ("player_a", "player_b", "score_a", "score_b", "winner", "players", "scores")

    @classmethod
    def _build(cls, model_class, *args, **kwargs):
        """An unsaved game: the seats need the saved game, so the table's fields are dropped."""
        for name in (*cls._TABLE_FIELDS, "seats"):
            kwargs.pop(name, None)
        if isinstance(kwargs.get("starter"), str):
            kwargs["starter"] = {"a": 0, "b": 1}.get(kwargs["starter"])
        return super()._build(model_class, *args, **kwargs)

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        players = kwargs.pop("players") or [
            player for player in (kwargs.pop("player_a"), kwargs.pop("player_b")) if player
        ]
        kwargs.pop("player_a", None), kwargs.pop("player_b", None)
        pair_scores = (kwargs.pop("score_a"), kwargs.pop("score_b"))
        scores = kwargs.pop("scores") or (pair_scores if len(players) == 2 else (None,))
        winner, with_seats = kwargs.pop("winner"), kwargs.pop("seats")
        for name in ("starter", "claimed_by"):  # "a"/"b" as for a pair; "": none
            if isinstance(kwargs.get(name), str):
                kwargs[name] = {"a": 0, "b": 1}.get(kwargs[name])
        game = super()._create(model_class, *args, **kwargs)
        if with_seats:
            _seat(game, players, list(scores), winner)
        return game


def _seat(game: Game, players: list, scores: list, winner: str) -> None:
    """The game's seats in table order, each with its result (`rules.result.places`)."""
    count = len(players)
    loser = {"a": 1, "b": 0}.get(winner)
    flags = [game.outcome == Outcome.FLAG_FALL and seat == loser for seat in range(count)]
    forfeits = [
        game.outcome == Outcome.FORFEIT and (winner == "none" or seat == loser)
        for seat in range(count)
    ]
    if game.outcome == Outcome.FORFEIT and not any(forfeits):
        forfeits[-1] = True
    scores = scores if len(scores) == count else [None] * count
    places = result_places(game.outcome, scores=scores, flag_fell=flags, forfeited=forfeits)
    Seat.objects.bulk_create(
        Seat(
            game=game,
            round=game.round,
            player=player,
            position=position,
            score=scores[position],
            place=places[position],
            flag_fell=flags[position],
            forfeited=forfeits[position],
            confirmed=game.outcome not in (Outcome.PENDING, Outcome.BYE),
        )
        for position, player in enumerate(players)
    )


class SeatFactory(DjangoModelFactory):
    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory, seats=False)
    round = factory.LazyAttribute(lambda seat: seat.game.round)
    player = factory.SubFactory(PlayerFactory)
    position = 0


def result_changes(**filters: Any) -> QuerySet[HistoryEntry]:
    """The history entries of results (entered or corrected), filtered."""
    return HistoryEntry.objects.filter(action__startswith="result.", **filters)


class HistoryEntryFactory(DjangoModelFactory):
    """A result correction of a played game, as games.services would record it."""

    class Meta:
        model = HistoryEntry

    class Params:
        game = factory.SubFactory(GameFactory, played=True)

    club = factory.LazyAttribute(lambda entry: entry.game.round.competition.club)
    competition_id = factory.LazyAttribute(lambda entry: entry.game.round.competition_id)
    round_number = factory.LazyAttribute(lambda entry: entry.game.round.number)
    game_id = factory.LazyAttribute(lambda entry: entry.game.pk)
    object_id = factory.LazyAttribute(lambda entry: entry.game.pk)
    object_type = "game"
    action = HistoryAction.RESULT_CORRECT
    by = None
    at = factory.LazyFunction(timezone.now)
    reason = ""
    before = factory.LazyFunction(
        lambda: {"outcome": "", "scores": [None, None], "flag_fell": [], "forfeited": []}
    )
    after = factory.LazyAttribute(
        lambda change: (
            result_of(change.game).snapshot()
            if change.game.pk is not None
            else {
                "outcome": change.game.outcome,
                "scores": [321, 287],
                "flag_fell": [],
                "forfeited": [],
            }
        )
    )


class MoveFactory(DjangoModelFactory):
    """One scoresheet line, as stored; the engine's figures are not recomputed here."""

    class Meta:
        model = Move

    game = factory.SubFactory(GameFactory)
    number = factory.Sequence(lambda n: n + 1)
    seat = 0
    notation = "H8 WOORD"
    score = 20
    total = factory.LazyAttribute(lambda move: move.score)
    entered_at = factory.LazyFunction(timezone.now)


# --- builders ---------------------------------------------------------------------------


def user_in_club(club: Club, *, role: str = Membership.Role.MEMBER, **user_fields):
    """A login whose player is a member (or secretary) of `club`."""
    user = UserFactory(**user_fields)
    player = PlayerFactory(user=user)
    MembershipFactory(club=club, player=player, role=role)
    return user


def secretary_of(club: Club, **user_fields):
    return user_in_club(club, role=Membership.Role.SECRETARY, **user_fields)


def score_pair(round_number: int, table: int) -> tuple[int, int]:
    """Deterministic, varied scores; now and then a draw."""
    score_a = 200 + (table * 37 + round_number * 53) % 180
    score_b = 200 + (table * 61 + round_number * 29) % 180
    return score_a, score_b


@dataclass
class PlayedCompetition:
    competition: Competition
    players: list[Player]
    rounds: list[Round]


def competition_with_results(
    *, entrants: int, rounds: int, club: Club | None = None, bye: bool = True
) -> PlayedCompetition:
    """A competition of `entrants` players with `rounds` finished rounds, made in bulk.

    Each round pairs neighbours of a rotated list; with an odd count the last one has a bye.
    Every game has a normal result from `score_pair`; one game per round is a flag fall.
    """
    club = club or ClubFactory()
    competition = CompetitionFactory(club=club)
    prefix = f"{competition.slug} deelnemer "
    Player.objects.bulk_create(Player(name=f"{prefix}{index:04d}") for index in range(entrants))
    players = list(Player.objects.filter(name__startswith=prefix).order_by("name"))
    Membership.objects.bulk_create(Membership(club=club, player=player) for player in players)
    Entrant.objects.bulk_create(
        Entrant(competition=competition, player=player) for player in players
    )
    Round.objects.bulk_create(
        Round(competition=competition, number=number, status=Round.Status.FINISHED)
        for number in range(1, rounds + 1)
    )
    round_objs = list(Round.objects.filter(competition=competition).order_by("number"))
    tables = []  # (game, [(player, score, flag_fell)], places)
    for round_obj in round_objs:
        shift = (round_obj.number - 1) * 3 % max(len(players), 1)
        order = players[shift:] + players[:shift]
        for index in range(0, len(order) - 1, 2):
            table = index // 2 + 1
            score_a, score_b = score_pair(round_obj.number, table)
            outcome = Outcome.FLAG_FALL if table == 1 else Outcome.NORMAL
            flags = [False, table == 1]  # at table 1 the second player's flag falls
            places = result_places(outcome, scores=[score_a, score_b], flag_fell=flags)
            seated = [(order[index], score_a, flags[0]), (order[index + 1], score_b, flags[1])]
            tables.append((Game(round=round_obj, table=table, outcome=outcome), seated, places))
        if len(order) % 2 and bye:
            bye_game = Game(round=round_obj, outcome=Outcome.BYE)
            tables.append((bye_game, [(order[-1], None, False)], (1,)))
    Game.objects.bulk_create([game for game, _seated, _places in tables])
    Seat.objects.bulk_create(
        Seat(
            game=game,
            round_id=game.round_id,
            player=player,
            position=position,
            score=score,
            place=places[position],
            flag_fell=flag,
            confirmed=game.outcome != Outcome.BYE,
        )
        for game, seated, places in tables
        for position, (player, score, flag) in enumerate(seated)
    )
    return PlayedCompetition(competition=competition, players=players, rounds=round_objs)


def competition_form_data(**changes) -> dict:
    """What the competition settings form posts for a plain Gouds 8 club competition."""
    return {
        "name": "Zomercompetitie",
        "slug": "zomer",
        "kind": "club",
        "rules": "gouds8",
        "custom_rules": "{}",
        "pairing_system": "swiss",
        "starters": "by_lot",
        "table_size": "2",
        "table_scoring": "per_opponent",
        "bye_match_points": 2,
        "bye_board_points": "fixed",
        "bye_board_points_fixed": 0,
        "forfeit_win_match_points": 2,
        "forfeit_win_board_points": 0,
        "ranking": "totals",
        "min_games": 0,
        "tiebreak_1": "spread",
        "rated": "on",
        "evening_start": "19:30",
        "evening_end": "23:00",
        **changes,
    }
