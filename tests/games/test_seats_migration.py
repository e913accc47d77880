"""Migrations games 0008-0010 turn a game's two sides into its seats and lose nothing."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def _leaves() -> list[tuple[str, str]]:
    """Every app's latest migration: where the database is before and after the test (a
    fixed list would leave the migrations added later unapplied for the tests after it)."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _before() -> list[tuple[str, str]]:
    """The games app just before its sides become seats; every other app at its latest
    migration that does not build on the seats (a later one may: duplicate's carry-over)."""
    graph = MigrationExecutor(connection).loader.graph
    seats = ("games", "0009_seats_from_sides")
    targets = [("games", "0008_seats_hold_the_result")]
    for node in _leaves():
        if node[0] == "games":
            continue
        while node is not None and seats in graph.forwards_plan(node):
            parents = [p for p in graph.node_map[node].parents if p.key[0] == node[0]]
            node = parents[0].key if parents else None
        if node is not None:
            targets.append(node)
    return targets


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_sides_become_seats_with_their_scores_places_flags_claims_and_moves():
    old = migrate(_before())
    try:
        club = old.get_model("clubs", "Club").objects.create(name="Gouda", slug="gouda")
        Player = old.get_model("clubs", "Player")
        anna, bert, cor, dirk, eva = (
            Player.objects.create(name=name) for name in ("Anna", "Bert", "Cor", "Dirk", "Eva")
        )
        competition = old.get_model("competition", "Competition").objects.create(
            club=club, name="Najaar", slug="najaar", changed_at=datetime.datetime.now(datetime.UTC)
        )
        round_ = old.get_model("competition", "Round").objects.create(
            competition=competition, number=1, status="published"
        )
        Game = old.get_model("games", "Game")
        Seat = old.get_model("games", "Seat")

        def game(player_a, player_b, **fields):
            made = Game.objects.create(round=round_, player_a=player_a, player_b=player_b, **fields)
            Seat.objects.create(game=made, round=round_, player=player_a, side="a")
            if player_b is not None:
                Seat.objects.create(game=made, round=round_, player=player_b, side="b")
            return made

        flag = game(
            anna, bert, table=1, outcome="flag_fall", winner="b", score_a=400, score_b=300,
            starter="b",
        )  # fmt: skip
        disputed = game(
            cor, dirk, table=2, outcome="normal", winner="a", score_a=350, score_b=300,
            confirmation="disputed", claimed_by="a",
            counter_result={"outcome": "normal", "winner": "b", "score_a": 300, "score_b": 350},
        )  # fmt: skip
        bye = game(eva, None, outcome="bye", winner="a")
        old.get_model("games", "Move").objects.create(
            game=flag, number=1, side="b", notation="8H WOORD", entered_at=flag_moment()
        )
    finally:
        new = migrate(_leaves())

    Game, Seat = new.get_model("games", "Game"), new.get_model("games", "Seat")

    def seats(game_id):
        return list(
            Seat.objects.filter(game_id=game_id)
            .order_by("position")
            .values_list("player__name", "score", "place", "flag_fell", "forfeited", "confirmed")
        )

    assert seats(flag.pk) == [
        ("Anna", 400, 2, True, False, True),
        ("Bert", 300, 1, False, False, True),
    ]
    assert Game.objects.get(pk=flag.pk).starter == 1
    assert list(new.get_model("games", "Move").objects.values_list("seat", flat=True)) == [1]
    assert seats(disputed.pk) == [
        ("Cor", 350, 1, False, False, True),  # the player who entered it stands behind it
        ("Dirk", 300, 2, False, False, False),
    ]
    stored = Game.objects.get(pk=disputed.pk)
    assert (stored.claimed_by, stored.counter_result) == (
        0,
        {"outcome": "normal", "scores": [300, 350], "flag_fell": [], "forfeited": [], "by": 1},
    )
    assert seats(bye.pk) == [("Eva", None, 1, False, False, False)]


def flag_moment():
    return datetime.datetime(2026, 11, 3, 20, 15, tzinfo=datetime.UTC)
