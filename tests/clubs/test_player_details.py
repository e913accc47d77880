"""A member's details on the secretary's pages: name, federation number and the start
rating, kept in the history; refusals in Dutch change nothing."""

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Player
from competition.ratings import club_ratings
from tests.factories import MembershipFactory, PlayerFactory
from tests.test_lock_order import Beside, postgres_only

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna(club):
    player = PlayerFactory(name="Anna de Vries")
    MembershipFactory(club=club, player=player)
    return player


def address(club, player) -> str:
    return reverse("club_player", kwargs={"club": club.slug, "player_id": player.pk})


def details(**changed) -> dict:
    return {
        "name": "Anna de Vries",
        "federation_number": "",
        "rating": "",
        "rating_deviation": "",
        **changed,
    }


def test_the_secretary_sets_a_start_rating_kept_in_the_history(client, club, secretary, anna):
    client.force_login(secretary)
    players = client.get(reverse("club_players", kwargs={"club": club.slug})).content.decode()
    assert f'href="{address(club, anna)}"' in players
    saved = client.post(
        address(club, anna),
        details(federation_number=" 12345 ", rating="1720", rating_deviation="80"),
        follow=True,
    )
    assert saved.redirect_chain[-1][0] == reverse("club_players", kwargs={"club": club.slug})
    assert "Anna de Vries opgeslagen." in saved.content.decode()
    assert "(1720)" in saved.content.decode()
    anna.refresh_from_db()
    assert (anna.federation_number, anna.rating, anna.rating_deviation) == ("12345", 1720, 80)
    (entry,) = HistoryEntry.objects.filter(action=HistoryAction.PLAYER_CHANGE)
    assert entry.by == secretary and entry.club == club
    assert entry.before == {"federation_number": None, "rating": None, "rating_deviation": None}
    assert entry.after == {"federation_number": "12345", "rating": 1720, "rating_deviation": 80}
    # The club's rating list starts from it (no games yet: the start rating itself).
    assert club_ratings(club).rating_of(anna) == (1720, 80, pytest.approx(0.06, abs=0.01))

    # The same form sent again changes nothing and writes no second entry.
    again = details(federation_number="12345", rating="1720", rating_deviation="80")
    assert client.post(address(club, anna), again).status_code == 302
    assert HistoryEntry.objects.filter(action=HistoryAction.PLAYER_CHANGE).count() == 1


@pytest.mark.parametrize(
    ("changed", "message"),
    [
        ({"rating": "١٧٢٠"}, "Voer een geheel getal in."),
        ({"rating": "-1"}, "minstens 0 is"),
        ({"rating": "9" * 40}, "hoogstens 3000 is"),
        ({"rating_deviation": "20"}, "minstens 30 is"),
        ({"name": ""}, "Dit veld is verplicht."),
        ({"name": "Anna\x00"}, "Null-tekens zijn niet toegestaan."),
        ({"federation_number": "777"}, "Een andere speler heeft dit bondsnummer."),
    ],
)
def test_a_refused_detail_says_why_in_dutch_and_changes_nothing(
    client, club, secretary, anna, changed, message
):
    PlayerFactory(name="Bert", federation_number="777")
    client.force_login(secretary)
    refused = client.post(address(club, anna), details(**changed))
    assert refused.status_code == 200
    assert message in refused.content.decode()
    assert 'class="invalid-feedback' in refused.content.decode()
    stored = Player.objects.get(pk=anna.pk)
    assert (stored.name, stored.rating, stored.federation_number) == ("Anna de Vries", None, None)
    assert not HistoryEntry.objects.filter(action=HistoryAction.PLAYER_CHANGE).exists()


def test_only_the_clubs_secretary_changes_its_members(
    client, club, anna, member, other_club, other_secretary
):
    assert client.get(address(club, anna)).status_code == 302  # to the login
    client.force_login(member)
    assert client.post(address(club, anna), details(rating="2000")).status_code == 403
    client.force_login(other_secretary)
    assert client.post(address(club, anna), details(rating="2000")).status_code == 403
    # Their own club's address does not reach a player who is not their member.
    assert client.post(address(other_club, anna), details(rating="2000")).status_code == 404
    anna.refresh_from_db()
    assert anna.rating is None


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_secretaries_saving_one_federation_number_at_once_get_the_dutch_refusal(
    club, secretary, anna
):
    """Both forms pass the check for a taken number; the database refuses the second save
    once the first commits, and the page says so in Dutch (no server error)."""
    bert = PlayerFactory(name="Bert Jansen")
    MembershipFactory(club=club, player=bert)
    client = Client()
    client.force_login(secretary)
    second = Beside(
        lambda: client.post(
            address(club, bert), details(name="Bert Jansen", federation_number="4711")
        )
    )
    with transaction.atomic():  # the first secretary's save, not yet committed
        Player.objects.filter(pk=anna.pk).update(federation_number="4711")
        second.start()
        second.wait_for_a_lock()
    response = second.result()
    assert response.status_code == 200
    assert "Een andere speler heeft dit bondsnummer." in response.content.decode()
    bert.refresh_from_db()
    assert bert.federation_number is None
    assert list(Player.objects.filter(federation_number="4711")) == [anna]
