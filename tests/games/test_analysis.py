"""The replay page's analysis: best play per turn with a known rack, points left on the
table per player, shown on the board on request, cached per game and move list."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.analysis import cache_key
from games.models import Move
from games.moves import move_add, move_correct, moves_import_gcg, moves_of
from rules import gcg
from rules.analysis import analyse
from rules.lexicon import Lexicon

from .conftest import DEMO

pytestmark = pytest.mark.django_db


def url(game, **query):
    path = reverse("game_analysis", args=[game.pk])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def text(response):
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def demo_game(game, demo_gcg):
    moves_import_gcg(game=game, data=demo_gcg("demo-2"), by=None)
    return game


@pytest.fixture
def expected():
    """The engine's own analysis of the same record."""
    record = gcg.load(DEMO / "demo-2.gcg", lexicon=Lexicon.default("gouds8"))
    return analyse(record.game)


def test_replay_page_offers_the_analysis_without_running_it(client, demo_game):
    page = text(client.get(reverse("replay", args=[demo_game.pk])))
    assert f'hx-get="{url(demo_game)}"' in page
    assert 'id="analyse"' in page
    assert cache.get(cache_key(demo_game, moves_of(demo_game))) is None


def test_htmx_gets_the_table_with_best_plays_and_totals(english, client, demo_game, expected):
    body = text(client.get(url(demo_game), headers={"HX-Request": "true"}))
    assert body.lstrip().startswith('<section id="analysis"')
    rows = re.findall(r'<tr data-move="(\d+)"', body)
    assert [int(n) for n in rows] == [t.index + 1 for t in expected.turns]
    for turn in expected.turns:
        assert turn.best is not None
        assert f"?zet={turn.index + 1}" in body
        assert turn.best.notation in body
    names = ("Anna", "Bert")
    for name, missed in zip(names, expected.missed, strict=True):
        assert f"{name}: {missed} points left on the table" in body
    assert sum(expected.missed) > 0


def test_the_result_is_cached_per_game_and_move_list(client, demo_game, secretary):
    client.get(url(demo_game), headers={"HX-Request": "true"})
    moves = moves_of(demo_game)
    key = cache_key(demo_game, moves)
    cached = cache.get(key)
    assert cached is not None and len(cached["turns"]) == 16
    # A second request is served from the cache: same page, and the cached value is used
    # (a marker put into it shows up).
    cached["turns"][0]["best_word"] = "UITCACHE"
    cache.set(key, cached)
    assert "UITCACHE" in text(client.get(url(demo_game), headers={"HX-Request": "true"}))
    # A corrected move gives a new key: never a stale analysis.
    first = Move.objects.get(game=demo_game, number=1)
    move_correct(game=demo_game, number=1, notation=first.notation, rack="ADILNSST", by=secretary)
    assert cache_key(demo_game, moves_of(demo_game)) != key
    assert "UITCACHE" not in text(client.get(url(demo_game), headers={"HX-Request": "true"}))


def test_best_play_is_shown_on_the_board_before_that_move(client, demo_game, expected):
    turn = expected.turns[2]
    number = turn.index + 1
    page = text(client.get(url(demo_game, zet=number)))
    assert 'id="shown-best"' in page
    assert turn.best.notation in page
    preview = re.findall(r'class="sq[^"]* preview" data-square="([A-O]\d+)"', page)
    assert len(preview) == turn.best.tiles_used
    assert f'<tr data-move="{number}" class="table-warning">' in page


def test_a_game_without_racks_has_nothing_to_analyse(english, client, game):
    move_add(game=game, notation="8H WOORD", by=None)
    body = text(client.get(url(game), headers={"HX-Request": "true"}))
    assert "nothing to analyse" in body


@pytest.mark.parametrize("value", ["abc", "²", "٣", "99", "-1", "1" * 40, "%00"])
def test_odd_steps_are_ignored(client, demo_game, value):
    page = text(client.get(url(demo_game) + f"?zet={value}"))
    assert 'id="shown-best"' not in page


def test_unknown_game_is_404(client):
    assert client.get(reverse("game_analysis", args=[999999])).status_code == 404


def test_query_budget_is_that_of_the_replay(client, demo_game):
    with CaptureQueriesContext(connection) as replay:
        client.get(reverse("replay", args=[demo_game.pk]))
    with CaptureQueriesContext(connection) as analysis:
        client.get(url(demo_game), headers={"HX-Request": "true"})
    with CaptureQueriesContext(connection) as cached:
        client.get(url(demo_game, zet=3))
    # The game with its round, its seats (and their players), the moves.
    assert len(analysis.captured_queries) == len(replay.captured_queries) == 3
    assert len(cached.captured_queries) == 3


def test_a_blank_swap_can_be_the_best_move(english, client, game):
    """Gouds 8. Anna plays 8H xx (both blanks as X: a phony nobody challenged, so it
    stands); Bert, with the one real X as his known rack, passes. The word list has no
    word of X's alone (XX, XXX), so Bert has no play; swapping the blank on H8 (or I8)
    for his X scores the X's face value, 8 (the first in board order is shown). He
    left 8 - 0 = 8 on the table; Anna's move has no known rack and is not analysed."""
    move_add(game=game, notation="8H xx", by=None)
    move_add(game=game, notation="-", rack="X", by=None)
    body = text(client.get(url(game), headers={"HX-Request": "true"}))
    assert re.findall(r'<tr data-move="(\d+)"', body) == ["2"]
    assert "blank on H8 swapped</span></a> X 8" in body
    assert "Bert: 8 points left on the table" in body
    page = text(client.get(url(game, zet=2)))
    assert "the best play blank on H8 swapped for 8" in page
    preview = re.findall(r'class="sq[^"]* preview" data-square="([A-O]\d+)"', page)
    assert preview == ["H8"]
