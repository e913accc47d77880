"""A member without an account asks the club's secretary to be erased."""

import pytest
from django.urls import reverse
from django.utils.translation import override

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Membership, Player
from privacy.erasure import ErasureError, player_erase_for_club
from tests.factories import MembershipFactory, PlayerFactory, secretary_of, user_in_club


def _address(club, player) -> str:
    return reverse("member_erase", kwargs={"club": club.slug, "player_id": player.pk})


def _member(club, name="Cor Cornelissen") -> Player:
    player = PlayerFactory(name=name)
    MembershipFactory(club=club, player=player)
    return player


def test_the_secretary_erases_a_member_without_an_account(client, club, secretary):
    player = _member(club)
    client.force_login(secretary)
    page = client.get(reverse("club_player", kwargs={"club": club.slug, "player_id": player.pk}))
    assert _address(club, player) in page.content.decode()
    response = client.post(_address(club, player), {"name": "Cor Cornelissen"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.name == f"#{player.pk}" and player.erased_at is not None
    assert not Membership.objects.filter(player=player).exists()
    entry = HistoryEntry.objects.get(action=HistoryAction.PLAYER_ERASE)
    assert (entry.by, entry.by_name, entry.reason_code) == (secretary, "secretaris", "erase_club")


def test_a_wrong_name_erases_nothing(client, club, secretary):
    player = _member(club)
    client.force_login(secretary)
    response = client.post(_address(club, player), {"name": "Cor"})
    assert response.status_code == 200
    assert "Dit is niet de naam van het lid." in response.content.decode()
    assert Player.objects.get(pk=player.pk).erased_at is None


def test_a_member_with_an_account_or_another_club_is_refused(client, club, other_club, secretary):
    client.force_login(secretary)
    with_account = Player.objects.get(user=user_in_club(club, username="anke"))
    response = client.post(_address(club, with_account), {"name": with_account.name})
    assert "heeft een account" in response.content.decode()
    also_elsewhere = _member(club, "Dirk")
    MembershipFactory(club=other_club, player=also_elsewhere)
    response = client.post(_address(club, also_elsewhere), {"name": "Dirk"})
    assert "ook lid van een andere club" in response.content.decode()
    assert not Player.objects.filter(erased_at__isnull=False).exists()


def test_only_the_clubs_secretary(client, club, other_club, member):
    player = _member(club)
    address = _address(club, player)
    assert client.post(address, {"name": player.name}).status_code == 302  # to the login
    client.force_login(member)
    assert client.post(address, {"name": player.name}).status_code == 403
    client.force_login(secretary_of(other_club, username="delft"))
    assert client.post(address, {"name": player.name}).status_code == 403
    elsewhere = _member(other_club, "Els")
    client.force_login(secretary_of(club, username="gouda2"))
    assert client.post(_address(club, elsewhere), {"name": "Els"}).status_code == 404
    assert not Player.objects.filter(erased_at__isnull=False).exists()


def test_a_second_erasure_hears_the_member_is_erased_already(club, secretary):
    """What the second of two secretaries hears, one after the other and at once
    (tests/privacy/test_erasure_at_once.py): erased already, not "not a member"."""
    player = _member(club)
    player_erase_for_club(club=club, player=player, by=secretary)
    with override("nl"), pytest.raises(ErasureError) as refused:
        player_erase_for_club(club=club, player=player, by=secretary)
    assert str(refused.value.message) == "De gegevens van deze speler zijn al gewist."
    assert HistoryEntry.objects.filter(action=HistoryAction.PLAYER_ERASE).count() == 1
