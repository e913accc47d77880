"""Two confirmations of the same preview at once (a double click, two tabs): one import."""

import threading

import pytest
from django.db import connections

from competition.services import CompetitionError
from competition.services.importing import (
    ImportDecisions,
    results_import_apply,
    results_import_plan,
    results_import_read,
)
from games.models import Game
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    EntrantFactory,
    PlayerFactory,
    result_changes,
)

pytestmark = pytest.mark.django_db(transaction=True)

FILE = (
    b"round,table,player,opponent,score,opponent_score,outcome\n"
    b"1,1,Anna,Bert,320,290,normal\n1,2,Cor,Dirk,300,310,normal\n"
)


def test_parallel_confirmations_import_once():
    competition = CompetitionFactory(club=ClubFactory())
    for name in ("Anna", "Bert", "Cor", "Dirk"):
        EntrantFactory(competition=competition, player=PlayerFactory(name=name))
    rows = results_import_read(data=FILE)
    seen = results_import_plan(competition=competition, rows=rows, decisions=ImportDecisions())
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def confirm():
        start.wait()
        try:
            results_import_apply(
                competition=competition,
                data=FILE,
                decisions=ImportDecisions(replace=True),
                by=None,
                expected_fingerprint=seen.fingerprint,
            )
            outcomes.append("imported")
        except CompetitionError as error:
            outcomes.append(type(error).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ImportPlanChanged"] * 3 + ["imported"]
    assert Game.objects.filter(round__competition=competition).count() == 2
    assert result_changes().count() == 2
