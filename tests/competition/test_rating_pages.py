"""The rating list and a player's rating history: what they show, that a player can see
why the rating went down, and their query counts (independent of the club's size)."""

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
)

pytestmark = pytest.mark.django_db

D1, D2 = datetime.date(2026, 9, 3), datetime.date(2026, 9, 10)


def played(round, a, b, score_a, score_b):
    return GameFactory(
        round=round, player_a=a, player_b=b, played=True, score_a=score_a, score_b=score_b
    )


@pytest.fixture
def evening_club():
    """Anna beats Bert on the first evening; on the second she beats Cor (new) and loses to
    Bert and to Dirk (new): one win of three, against players the rating then held weaker."""
    club = ClubFactory(slug="deletter")
    anna, bert, cor, dirk = (PlayerFactory(name=n) for n in ("Anna", "Bert", "Cor", "Dirk"))
    for player in (anna, bert, cor, dirk):
        MembershipFactory(club=club, player=player)
    competition = CompetitionFactory(club=club)
    first = RoundFactory(competition=competition, date=D1)
    played(first, anna, bert, 400, 300)
    second = RoundFactory(competition=competition, date=D2)
    played(second, anna, cor, 400, 300)
    third = RoundFactory(competition=competition, date=D2)
    played(third, anna, bert, 300, 400)
    fourth = RoundFactory(competition=competition, date=D2)
    played(fourth, anna, dirk, 300, 400)
    return club, anna, bert


def test_the_list_ranks_players_and_marks_provisional_ratings(client, evening_club):
    club, anna, _bert = evening_club
    page = client.get(reverse("ratings", kwargs={"club": club.slug})).content.decode()
    assert page.count('class="provisional"') == 4  # everyone new: ± above 110
    assert "Ratinglijst" in page and "voorlopig" in page
    # Dirk beat Anna (1662 after the first evening): above 1500; Cor lost to her: below.
    dirk, cor = (club.members.get(name=name) for name in ("Dirk", "Cor"))
    assert page.index(f'data-player="{dirk.pk}"') < page.index(f'data-player="{cor.pk}"')
    assert reverse("rating_history", kwargs={"club": club.slug, "player_id": anna.pk}) in page


def test_the_history_shows_why_a_rating_went_down_after_a_win(client, evening_club):
    club, anna, _bert = evening_club
    url = reverse("rating_history", kwargs={"club": club.slug, "player_id": anna.pk})
    page = client.get(url).content.decode()
    assert page.count('class="evening table-light"') == 2
    assert page.count('class="game small"') == 4
    assert "<svg" in page and "Bert" in page and "Cor" in page
    # Newest evening first: 1 of 3, the change negative (shown in a red dark enough to read
    # on the row's grey: Bootstrap's emphasis colour).
    second = page.index('data-period="2026-09-10"')
    assert second < page.index('data-period="2026-09-03"')
    assert "text-danger-emphasis" in page[second : page.index('data-period="2026-09-03"')]


def test_a_player_of_another_club_is_a_404(client, evening_club):
    club, _anna, _bert = evening_club
    stranger = PlayerFactory()
    url = reverse("rating_history", kwargs={"club": club.slug, "player_id": stranger.pk})
    assert client.get(url).status_code == 404
    assert client.get(reverse("ratings", kwargs={"club": "nergens"})).status_code == 404


def _club_of(size: int):
    club = ClubFactory()
    competition = CompetitionFactory(club=club)
    players = [PlayerFactory() for _ in range(size)]
    for player in players:
        MembershipFactory(club=club, player=player)
    for day in range(3):
        round_ = RoundFactory(competition=competition, date=D1 + datetime.timedelta(days=7 * day))
        order = players[day:] + players[:day]
        for index in range(0, size - 1, 2):
            played(round_, order[index], order[index + 1], 300 + index, 290)
    return club, players[0]


@pytest.mark.parametrize("size", [4, 40])
def test_query_counts_do_not_depend_on_the_club(client, django_assert_num_queries, size):
    club, player = _club_of(size)
    list_url = reverse("ratings", kwargs={"club": club.slug})
    history_url = reverse("rating_history", kwargs={"club": club.slug, "player_id": player.pk})
    cache.clear()
    # The club's status (hosting.middleware; then cached for a few seconds), the club, the
    # version; computed: the rounds, the games (with the players).
    with django_assert_num_queries(5):
        assert client.get(list_url).status_code == 200
    with django_assert_num_queries(2):
        client.get(list_url)
    # The club, the player, the version, the competitions' names.
    with django_assert_num_queries(4):
        assert client.get(history_url).status_code == 200


def test_the_pairing_page_shows_the_chance_to_win(secretary_client, competition):
    # Known starts, no rated games yet: 1700 ± 50 against 1500 ± 50. On the Glicko-2
    # scale g(sqrt(2) · 50 / 173.7178) = 0.9757, 0.9757 · 200 / 173.7178 = 1.1233,
    # 1 / (1 + e^-1.1233) = 0.7546: 75% – 25%.
    strong = PlayerFactory(name="Sterk", rating=1700, rating_deviation=50)
    weak = PlayerFactory(name="Zwak", rating=1500, rating_deviation=50)
    round_ = RoundFactory(competition=competition, status="draft")
    GameFactory(round=round_, player_a=strong, player_b=weak, table=1)
    url = reverse("round_pairing", kwargs={**competition.url_kwargs, "number": round_.number})
    page = secretary_client.get(url).content.decode()
    assert "Kans op winst" in page
    assert ">75% – 25%<" in page


def test_the_history_lists_the_latest_twenty_evenings_and_all_on_request(client):
    club = ClubFactory()
    competition = CompetitionFactory(club=club)
    anna, bert = PlayerFactory(name="Anna"), PlayerFactory(name="Bert")
    MembershipFactory(club=club, player=anna)
    for week in range(23):
        round_ = RoundFactory(competition=competition, date=D1 + datetime.timedelta(days=7 * week))
        played(round_, anna, bert, 400, 300 + week * 10)
    url = reverse("rating_history", kwargs={"club": club.slug, "player_id": anna.pk})
    page = client.get(url).content.decode()
    assert page.count('class="evening table-light"') == 20
    assert "Nog 3 eerdere avonden tonen" in page
    assert page.count("<circle") == 23  # the chart has every evening
    everything = client.get(url, {"alle": "1"}).content.decode()
    assert everything.count('class="evening table-light"') == 23


def test_the_settings_form_leaves_a_competition_out_of_the_rating(secretary_client, competition):
    from clubs.models import HistoryEntry
    from tests.factories import competition_form_data

    data = competition_form_data(name=competition.name, slug=competition.slug)
    del data["rated"]  # the box unticked
    url = reverse("competition_edit", kwargs=competition.url_kwargs)
    assert secretary_client.post(url, data).status_code == 302
    competition.refresh_from_db()
    assert competition.rated is False
    change = HistoryEntry.objects.filter(competition_id=competition.pk).first()
    assert change.before == {"rated": True} and change.after == {"rated": False}
    page = secretary_client.get(url).content.decode()
    assert "telt mee voor de rating" in page.lower()
