"""The migration that moves the old result changes into the club history loses nothing."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("games", "0003_codes_not_sentences"),
    ("clubs", "0003_history"),
    ("competition", "0003_competition_changed_at"),
]
AFTER = [("games", "0004_history_replaces_result_changes")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_every_result_change_becomes_a_history_entry_with_its_club_and_names():
    old = migrate(BEFORE)
    try:
        user = old.get_model("auth", "User").objects.create(username="secretaris")
        club = old.get_model("clubs", "Club").objects.create(name="Gouda", slug="gouda")
        Player = old.get_model("clubs", "Player")
        anna, bert = Player.objects.create(name="Anna"), Player.objects.create(name="Bert")
        competition = old.get_model("competition", "Competition").objects.create(
            club=club, name="Najaar", slug="najaar", changed_at=datetime.datetime.now(datetime.UTC)
        )
        round_ = old.get_model("competition", "Round").objects.create(
            competition=competition, number=2
        )
        game = old.get_model("games", "Game").objects.create(
            round=round_,
            player_a=anna,
            player_b=bert,
            outcome="normal",
            winner="a",
            score_a=300,
            score_b=200,
        )
        moment = datetime.datetime(2026, 11, 3, 20, 15, tzinfo=datetime.UTC)
        ResultChange = old.get_model("games", "ResultChange")
        empty = {"outcome": "", "winner": "", "score_a": None, "score_b": None}
        typed = {"outcome": "normal", "winner": "a", "score_a": 300, "score_b": 100}
        fixed = {**typed, "score_b": 200}
        ResultChange.objects.create(game=game, changed_at=moment, before=empty, after=typed)
        ResultChange.objects.create(
            game=game,
            changed_by=user,
            changed_at=moment + datetime.timedelta(minutes=5),
            before=typed,
            after=fixed,
            reason="verkeerd opgeteld",
        )

        new = migrate(AFTER)

        entries = new.get_model("clubs", "HistoryEntry").objects.order_by("at")
        assert [(e.action, e.by_id, e.by_name, e.before, e.after, e.reason) for e in entries] == [
            ("result.enter", None, "", empty, typed, ""),
            ("result.correct", user.pk, "secretaris", typed, fixed, "verkeerd opgeteld"),
        ]
        first = entries[0]
        assert (first.club_id, first.competition_id, first.round_number, first.game_id) == (
            club.pk,
            competition.pk,
            2,
            game.pk,
        )
        assert (first.object_type, first.object_id, first.object_label, first.at) == (
            "game",
            game.pk,
            "Anna – Bert",
            moment,
        )
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
