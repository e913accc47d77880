"""Corrections of one interclub arriving at once (the jury room publishes each game as its
results change): every publication runs under the federation's lock, so the games keep one
number each and each player's result is there once. On SQLite and on PostgreSQL
(DATABASE_URL); threads with their own connections."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection

from duplicate.signals import game_complete
from ranking.models import RankedEvent, RankedGame, RankedResult
from tests.live import at_once
from tests.ranking.fixtures import play_evening

pytestmark = pytest.mark.django_db(transaction=True)


def _publish(evening):
    def task() -> None:
        try:
            game_complete.send(sender=None, evening=evening)
        finally:
            connection.close()

    return task


def test_games_published_at_once_keep_one_number_each_and_every_result_once(interclub):
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(
        ("file:memorydb", ":memory:")
    ):
        pytest.skip("threads need a database file or PostgreSQL")
    _event, division, p = interclub
    points = {p["An"]: 500, p["Bert"]: 400, p["Cor"]: 300, p["Dirk"]: 200, p["Eva"]: 100}
    evenings = [play_evening(division, n, date(2026, 3, 7), points) for n in (1, 2, 3)]
    # Each evening twice at once (a game and its correction), all three games together.
    at_once([_publish(evening) for evening in evenings * 2])
    assert RankedEvent.objects.count() == 1
    numbers = sorted(RankedGame.objects.values_list("number", flat=True))
    assert numbers == [1, 2, 3]
    assert RankedResult.objects.count() == 15
