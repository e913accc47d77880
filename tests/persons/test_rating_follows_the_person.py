"""A club's rating list and a member's rated games at another club: they count (the rating
follows the person, docs/persons.md), the whole field of that competition with them, but
only the club's own players are listed; a member who joins or leaves moves the list at once
(the cache's version knows the members)."""

import datetime

import pytest
from django.core.cache import cache

from clubs.models import Membership
from competition.ratings import club_ratings
from tests.factories import (
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
)

pytestmark = pytest.mark.django_db

D1, D2 = datetime.date(2026, 9, 3), datetime.date(2026, 9, 10)


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def played(competition, day, a, b):
    """a beats b, 400 to 300, in a rated game of `competition` on `day`."""
    for player in (a, b):
        EntrantFactory(competition=competition, player=player)
    GameFactory(
        round=RoundFactory(competition=competition, date=day),
        player_a=a,
        player_b=b,
        played=True,
        score_a=400,
        score_b=300,
    )


def test_a_members_rated_games_elsewhere_count_in_the_clubs_list(club, other_club):
    anna, bert = PlayerFactory(name="Anna"), PlayerFactory(name="Bert")
    delft_only = PlayerFactory(name="Dirk")
    for player in (anna, bert):
        MembershipFactory(club=club, player=player)
    MembershipFactory(club=other_club, player=anna)
    MembershipFactory(club=other_club, player=delft_only)
    played(CompetitionFactory(club=club), D1, bert, anna)
    played(CompetitionFactory(club=other_club), D2, anna, delft_only)

    listed = club_ratings(club)
    # Anna's win at the other club counts here: one loss and one win, two games.
    assert listed.row_of(anna.pk).games == 2
    # Dirk, met there, has his rating from it but is not on this club's list.
    assert listed.row_of(delft_only.pk) is None
    assert {row.player_id for row in listed.rows} == {anna.pk, bert.pk}
    # The other club's list: its own game, and Anna's game here (she is its member too).
    theirs = club_ratings(other_club)
    assert theirs.row_of(anna.pk).games == 2
    assert theirs.row_of(bert.pk) is None

    # Dirk joins the club: he is listed at once, with the game where he met Anna.
    MembershipFactory(club=club, player=delft_only)
    assert club_ratings(club).row_of(delft_only.pk).games == 1
    Membership.objects.filter(club=club, player=delft_only).delete()
    assert club_ratings(club).row_of(delft_only.pk) is None


def test_a_non_members_games_elsewhere_and_unrated_competitions_do_not_count(club, other_club):
    anna, bert, cor = (PlayerFactory(name=name) for name in ("Anna", "Bert", "Cor"))
    MembershipFactory(club=club, player=anna)
    played(CompetitionFactory(club=club), D1, anna, bert)  # Bert: a guest here
    played(CompetitionFactory(club=other_club), D2, bert, cor)  # not a member: not here
    played(CompetitionFactory(club=other_club, rated=False), D2, cor, anna)
    listed = club_ratings(club)
    assert (listed.row_of(anna.pk).games, listed.row_of(bert.pk).games) == (1, 1)
    assert listed.row_of(cor.pk) is None
