"""A player's history at the club: every published game in every competition, the record
against each opponent, the numbers behind the charts; drafts never; a fixed query budget."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.core.charts import Point
from competition.models import Round
from competition.player_history import club_player_get, player_history
from competition.services.rounds import round_create, round_record_results, round_set_pairings
from games.services import ResultEntry, ResultInput
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    EntrantFactory,
    MembershipFactory,
    PlayerFactory,
    competition_with_results,
)
from tests.seats import pair_spec

pytestmark = pytest.mark.django_db


def play(competition, pairs, scores, *, publish: bool = True) -> Round:
    round_obj = round_create(competition=competition)
    games = round_set_pairings(
        round=round_obj,
        pairings=[pair_spec(a.pk, b.pk, table) for table, (a, b) in enumerate(pairs, 1)],
    )
    if publish:
        round_record_results(
            round=round_obj,
            entries=[
                ResultEntry(game.pk, ResultInput.of_pair("normal", *score))
                for game, score in zip(games, scores, strict=True)
            ],
            by=None,
        )
    return round_obj


@pytest.fixture
def two_seasons(club, competition, two_rounds):
    """two_rounds (Anna–Bert 300-290, Cor–Dirk 200-450; Anna–Cor 260-250, Bert–Dirk 500-300)
    in last season's competition, then this season: Anna–Bert 310-330, and a draft round 2
    Anna–Bert whose pairing the public must not see."""
    anna, bert, _cor, _dirk = two_rounds
    this_season = CompetitionFactory(club=club, name="Najaarscompetitie", slug="najaar")
    for player in (anna, bert):
        EntrantFactory(competition=this_season, player=player)
    play(this_season, [(anna, bert)], [(310, 330)])
    draft = play(this_season, [(bert, anna)], [], publish=False)
    assert Round.objects.get(pk=draft.pk).status == Round.Status.DRAFT
    return this_season, two_rounds


def history_url(club, player) -> str:
    return reverse("player_history", kwargs={"club": club.slug, "player_id": player.pk})


def test_head_to_head_counts_every_competition_of_the_club(club, competition, two_seasons):
    _this_season, (anna, *_others) = two_seasons
    history = player_history(club, club_player_get(club, anna.pk))
    records = {record.opponent.name: record for record in history.head_to_head}
    assert list(records) == ["Bert", "Cor"]  # most games first
    bert_record = records["Bert"]
    # 300-290 (win, last season) and 310-330 (loss, this season); the draft does not count.
    assert (bert_record.games, bert_record.wins, bert_record.draws, bert_record.losses) == (
        2,
        1,
        0,
        1,
    )
    assert (bert_record.board_points, bert_record.opponent_board_points) == (610, 620)
    assert bert_record.spread == -10
    cor_record = records["Cor"]
    assert (cor_record.games, cor_record.wins, cor_record.spread) == (1, 1, 10)  # 260-250


def test_the_charts_numbers_per_season(club, competition, two_seasons):
    this_season, (anna, *_others) = two_seasons
    history = player_history(club, anna)
    assert [season.competition for season in history.seasons] == [this_season, competition]
    current, last = history.seasons
    # Last season: after round 1 Dirk (450), Anna (300), Bert, Cor: Anna 2nd; after round 2
    # Anna first with 4 match points (tests/conftest.py, two_rounds).
    assert last.ranks == [Point("1", 2), Point("2", 1)]
    assert last.field_size == 4
    assert last.match_points == [Point("1", 2), Point("2", 4)]
    assert last.board_points == [Point("1", 300), Point("2", 260)]
    # This season: one game lost 310-330; the draft round is nowhere.
    assert current.ranks == [Point("1", 2)]
    assert current.match_points == [Point("1", 0)]
    assert current.board_points == [Point("1", 310)]
    assert [line.game.round.number for line in current.lines] == [1]


@pytest.mark.parametrize("as_secretary", [False, True])
def test_the_page_shows_games_charts_and_never_a_draft(
    client, club, competition, two_seasons, secretary, as_secretary
):
    _this_season, (anna, *_others) = two_seasons
    if as_secretary:
        client.force_login(secretary)  # the public record: a secretary sees no draft either
    response = client.get(history_url(club, anna))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<svg class="chart"') == 6  # three per season
    assert "<title>Plaats na elke ronde</title>" in html
    assert "Wedstrijdpunten door het seizoen" in html and "Bordpunten per partij" in html
    assert html.count("<tr data-game=") == 3  # 2 last season, 1 this season: no draft
    assert "Najaarscompetitie" in html and html.index("Najaarscompetitie") < html.index(
        competition.name
    )
    assert "310 – 330" in html and "300 – 290" in html
    assert 'id="head-to-head"' in html and "Onderling" in html
    assert "style=" not in html.split("<main", 1)[1]  # the Content-Security-Policy


def test_the_competition_player_page_links_to_the_history(client, club, competition, two_rounds):
    anna = two_rounds[0]
    url = reverse("player", kwargs={**competition.url_kwargs, "player_id": anna.pk})
    assert f'href="{history_url(club, anna)}"' in client.get(url).content.decode()


def test_results_follow_the_person_to_other_clubs(client, club, other_club, two_seasons):
    """Issue 43: a person's results of every club are on their page (docs/persons.md);
    the opponent met elsewhere has a page here too (the history links it), a pending
    club's competitions stay its secretaries' alone."""
    _season, (anna, *_others) = two_seasons
    elsewhere = CompetitionFactory(club=other_club, name="Delfts toernooi", slug="delft")
    stranger = PlayerFactory(name="Zeger")
    for player in (anna, stranger):
        EntrantFactory(competition=elsewhere, player=player)
    play(elsewhere, [(anna, stranger)], [(400, 100)])
    html = client.get(history_url(club, anna)).content.decode()
    assert "Delfts toernooi" in html and "Zeger" in html and "400 – 100" in html
    assert f'href="{history_url(other_club, stranger)}"' in html
    assert client.get(history_url(club, stranger)).status_code == 200
    assert client.get(history_url(club, PlayerFactory())).status_code == 404
    pending = ClubFactory(name="Nog niet goedgekeurd", slug="pending", status="pending")
    hidden = CompetitionFactory(club=pending, name="Verborgen", slug="verborgen")
    EntrantFactory(competition=hidden, player=anna)
    assert "Verborgen" not in client.get(history_url(club, anna)).content.decode()
    # A member who never played at the club has a page, with nothing on it yet.
    newcomer = PlayerFactory(name="Nieuw lid")
    MembershipFactory(club=club, player=newcomer)
    response = client.get(history_url(club, newcomer))
    assert response.status_code == 200
    assert "Nog in geen enkele competitie van deze club ingeschreven." in response.content.decode()
    assert client.get(history_url(other_club, newcomer)).status_code == 404


def test_an_unknown_club_or_player_is_a_404(client, club, two_rounds):
    anna = two_rounds[0]
    assert client.get(reverse("player_history", args=["bestaat-niet", anna.pk])).status_code == 404
    assert client.get(reverse("player_history", args=[club.slug, 999999])).status_code == 404
    assert client.get(f"/{club.slug}/speler/99999999999999999999/").status_code == 404


def test_the_same_queries_for_3_and_12_rounds(client, django_assert_num_queries):
    short = competition_with_results(entrants=10, rounds=3)
    long = competition_with_results(entrants=10, rounds=12)
    for played in (short, long):  # a second season at each club, the player in it too
        second = CompetitionFactory(club=played.competition.club)
        newcomer = PlayerFactory()
        for player in (played.players[1], newcomer):
            EntrantFactory(competition=second, player=player)
        play(second, [(played.players[1], newcomer)], [(250, 240)])

    def url(played) -> str:
        return history_url(played.competition.club, played.players[1])

    with CaptureQueriesContext(connection) as short_queries:
        assert client.get(url(short)).status_code == 200
    assert len(short_queries) <= 9  # 8, and the club's status (hosting.middleware)
    with django_assert_num_queries(len(short_queries)):
        response = client.get(url(long))
    assert response.content.decode().count("<tr data-game=") == 12 + 1


def test_the_ranks_follow_a_new_round_at_once(club, competition, two_seasons):
    """The rank history is kept per competition until its next change, no longer."""
    _this_season, (anna, bert, cor, dirk) = two_seasons
    last_season = player_history(club, anna).seasons[1]
    assert last_season.ranks == [Point("1", 2), Point("2", 1)]
    competition.refresh_from_db()
    play(competition, [(cor, anna), (bert, dirk)], [(400, 100), (300, 200)])
    # After round 3: Bert 4 MP (1090 BP), Anna 4 MP (660 BP), Cor and Dirk 2 MP.
    last_season = player_history(club, anna).seasons[1]
    assert last_season.ranks == [Point("1", 2), Point("2", 1), Point("3", 2)]
    assert player_history(club, bert).seasons[1].ranks[-1] == Point("3", 1)
