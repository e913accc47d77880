"""Wrong invitation codes are throttled without locking anyone out: opening links tries
nothing, a wrong code counts against the link's player from that address and against the
address, and a right code elsewhere is never held up. Real requests, real database; the
clock is moved by moving the stored times."""

from datetime import timedelta

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse

from clubs.accounts import player_invite
from clubs.models import Throttle, ThrottleScope
from tests.clubs.test_invitations import link, wrong_code
from tests.factories import MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db

HERE, ELSEWHERE = "10.1.1.1", "10.2.2.2"
WAIT_1 = "Te veel mislukte pogingen. Probeer het over 1 minuut opnieuw."
WAIT_2 = "Te veel mislukte pogingen. Probeer het over 2 minuten opnieuw."


@pytest.fixture
def invited(club, secretary):
    """Two members with an open invitation each: {player: code}."""

    def make(name):
        player = PlayerFactory(name=name)
        MembershipFactory(club=club, player=player)
        return player, player_invite(club=club, player=player, by=secretary).code

    return dict(make(name) for name in ("Anna", "Bert"))


def post(client, url, code, address=HERE):
    return client.post(url, {"code": code}, REMOTE_ADDR=address)


def wait_passes() -> None:
    """As if the longest wait now running had just ended."""
    Throttle.objects.update(
        locked_until=None, last_failure_at=F("last_failure_at") - timedelta(minutes=2)
    )


def test_opening_links_counts_nothing_and_the_right_code_still_works(client, invited):
    """Four bad GETs (an `<img>` on any web page can make them) lock nobody out."""
    (anna, code), (bert, _) = invited.items()
    for url in (
        link(anna, wrong_code(code)),
        link(bert, "ABCDEFGH"),
        reverse("invite_link_without_player", args=["ZZZZZZZZ"]),
        reverse("invite_link_without_player", args=[wrong_code(code)]),
    ):
        response = client.get(url, REMOTE_ADDR=HERE)
        assert response.status_code == 200
        assert "niet geldig" not in response.content.decode()  # not even checked
    assert not Throttle.objects.exists()
    response = post(client, link(anna, code), code)
    assert response["Location"] == reverse("invite_account")


def test_wrong_codes_on_a_link_bring_growing_waits(client, invited):
    (anna, code), _bert = invited.items()
    url = link(anna, code)
    for _attempt in range(2):
        response = post(client, url, wrong_code(code))
        assert response.status_code == 200 and "niet geldig" in response.content.decode()
    response = post(client, url, wrong_code(code))  # the third: a minute
    assert response.status_code == 429
    assert WAIT_1 in response.content.decode()
    # While it waits, even the right code from here is not tried.
    response = post(client, url, code)
    assert response.status_code == 429 and WAIT_1 in response.content.decode()
    # A post without any field while it waits: the same wait, no server error.
    response = client.post(url, {}, REMOTE_ADDR=HERE)
    assert response.status_code == 429 and WAIT_1 in response.content.decode()
    assert "invite_code" not in client.session
    wait_passes()
    response = post(client, url, wrong_code(code))  # the fourth: two minutes
    assert response.status_code == 429 and WAIT_2 in response.content.decode()
    wait_passes()
    assert post(client, url, code)["Location"] == reverse("invite_account")
    # The link's own count is gone with the right code; the address's stays.
    assert list(Throttle.objects.values_list("scope", "failures")) == [
        (ThrottleScope.INVITE_ADDRESS, 4)
    ]


def test_wrong_tries_elsewhere_or_on_another_code_do_not_block_a_right_code(client, invited):
    (anna, code_anna), (bert, code_bert) = invited.items()
    for _attempt in range(3):
        post(client, link(anna, code_anna), wrong_code(code_anna), address=ELSEWHERE)
    assert post(client, link(anna, code_anna), code_anna, address=ELSEWHERE).status_code == 429
    # Anna herself, from another address: in.
    phone_anna = Client()
    assert post(phone_anna, link(anna, code_anna), code_anna)["Location"] == reverse(
        "invite_account"
    )
    # From the very address that tried wrong codes on Anna's link: Bert's link and Bert's
    # code typed on the form both work.
    phone_bert = Client()
    assert post(phone_bert, link(bert, code_bert), code_bert, address=ELSEWHERE).status_code == 302
    response = post(Client(), reverse("invite_code"), code_bert, address=ELSEWHERE)
    assert response["Location"] == reverse("invite_account")


def test_typed_codes_without_a_link_count_per_address(client, invited, settings):
    (anna, code), _bert = invited.items()
    limit = settings.THROTTLE_LIMITS["invite.address"]
    for _attempt in range(limit - 1):
        assert post(client, reverse("invite_code"), wrong_code(code)).status_code == 200
    response = post(client, reverse("invite_code"), "ABC")  # not even a code: counts too
    assert response.status_code == 429 and WAIT_1 in response.content.decode()
    assert post(client, reverse("invite_code"), code).status_code == 429
    # The address's cap holds for links too, but never for another address.
    assert post(client, link(anna, code), code).status_code == 429
    response = post(Client(), reverse("invite_code"), code, address=ELSEWHERE)
    assert response["Location"] == reverse("invite_account")


def test_an_empty_form_is_an_error_not_a_try(client):
    response = post(client, reverse("invite_code"), "")
    assert response.status_code == 200
    assert not Throttle.objects.exists()


def test_the_wait_in_english(english, invited):
    (anna, code), _bert = invited.items()
    for _attempt in range(3):
        response = post(english, link(anna, code), wrong_code(code))
    assert response.status_code == 429
    assert "Too many failed attempts. Try again in 1 minute." in response.content.decode()
