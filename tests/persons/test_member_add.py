"""Adding a member: a federation number already known links the person (a new membership
of the same record, with their results), under the same name only; under another name it
is "two clubs claiming one person": refused, nothing changes, nothing of the other club
shown. The club's own details of a member are its secretary's alone."""

import datetime

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils.translation import override

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Membership, Player
from persons.services import PersonsError, member_add
from tests.factories import (
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
)
from tests.test_lock_order import Beside, postgres_only

pytestmark = pytest.mark.django_db


@pytest.fixture
def bram_elsewhere(other_club):
    """A person known at another club by their federation number, with a result there."""
    bram = PlayerFactory(name="Bram Ōno-de Wit", federation_number="NL-4711")
    MembershipFactory(club=other_club, player=bram, member_number="M-077-X", note="pays late")
    return bram


def add_address(club) -> str:
    return reverse("member_add", kwargs={"club": club.slug})


def form(**changed) -> dict:
    return {
        "name": "",
        "federation_number": "",
        "member_number": "",
        "joined": "",
        "note": "",
        **changed,
    }


def test_a_known_number_with_the_same_name_links_the_person(
    client, club, secretary, bram_elsewhere, other_club
):
    client.force_login(secretary)
    added = client.post(
        add_address(club),
        # Case, spaces and accents are no other name.
        form(name="  bram  ono-de wit ", federation_number="NL-4711", member_number="12"),
        follow=True,
    )
    assert added.redirect_chain[-1][0] == reverse("club_players", kwargs={"club": club.slug})
    assert "het bondsnummer koppelde" in added.content.decode()
    assert Player.objects.filter(federation_number="NL-4711").count() == 1
    memberships = {m.club_id: m for m in Membership.objects.filter(player=bram_elsewhere)}
    assert set(memberships) == {club.pk, other_club.pk}
    # Each club its own details: the other club's note is not copied, nor shown.
    assert (memberships[club.pk].member_number, memberships[club.pk].note) == ("12", "")
    assert "pays late" not in added.content.decode()
    (entry,) = HistoryEntry.objects.filter(action=HistoryAction.MEMBERSHIP_ADD)
    assert entry.club == club and entry.object_id == bram_elsewhere.pk
    assert entry.after["federation_number"] == "NL-4711"


def test_two_clubs_claiming_one_person_is_refused_and_changes_nothing(
    client, club, secretary, bram_elsewhere, other_club
):
    client.force_login(secretary)
    refused = client.post(add_address(club), form(name="Bram de Wit", federation_number="NL-4711"))
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "Bondsnummer NL-4711 hoort bij iemand met een andere naam." in page
    # Nothing of the other record or its club but the fact.
    assert "Ōno" not in page and other_club.name not in page
    assert Player.objects.count() == 2  # bram and the secretary, no new record
    assert not Membership.objects.filter(club=club, player=bram_elsewhere).exists()
    assert not HistoryEntry.objects.exists()


def test_a_new_person_without_or_with_an_unknown_number(club, secretary):
    joined = datetime.date(2026, 9, 1)
    membership, linked = member_add(
        club=club, name=" Cor  Bakker ", federation_number="99", joined=joined, by=secretary
    )
    assert not linked
    assert (membership.player.name, membership.player.federation_number) == ("Cor Bakker", "99")
    assert membership.joined == joined
    membership, linked = member_add(club=club, name="Dirk", by=secretary)
    assert not linked and membership.player.federation_number is None


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "   "}, "A player needs a name."),
        ({"name": "Anna\x07B"}, "no control characters"),
        ({"name": "x" * 121}, "at most 120 characters"),
        ({"name": "Anna", "federation_number": "9" * 21}, "at most 20 characters"),
        ({"name": "Anna", "note": "a\x00b"}, "no control characters"),
    ],
)
def test_bad_input_is_refused_clearly(club, secretary, fields, message):
    with override("en"), pytest.raises(PersonsError, match=message):
        member_add(club=club, by=secretary, **fields)
    assert not Membership.objects.exclude(player__user=secretary).exists()


def test_already_a_member_and_another_clubs_secretary(
    club, secretary, other_secretary, bram_elsewhere, other_club
):
    with override("en"), pytest.raises(PersonsError, match="already a member"):
        member_add(club=other_club, name="Bram Ono-de Wit", federation_number="NL-4711", by=None)
    with pytest.raises(PersonsError) as refused:
        member_add(club=club, name="X", by=other_secretary)
    assert refused.value.forbidden


def test_only_the_clubs_secretary_adds_members(client, club, member, other_secretary):
    assert client.get(add_address(club)).status_code == 302  # to the login
    client.force_login(member)
    assert client.post(add_address(club), form(name="Eve")).status_code == 403
    client.force_login(other_secretary)
    assert client.post(add_address(club), form(name="Eve")).status_code == 403
    assert not Player.objects.filter(name="Eve").exists()


def test_the_secretary_sees_and_edits_only_his_own_clubs_details(
    client, club, secretary, other_secretary, other_club, bram_elsewhere
):
    MembershipFactory(club=club, player=bram_elsewhere, member_number="12")
    address = reverse("club_membership", kwargs={"club": club.slug, "player_id": bram_elsewhere.pk})
    client.force_login(secretary)
    page = client.get(address).content.decode()
    assert 'value="12"' in page and "pays late" not in page and "M-077-X" not in page
    saved = client.post(address, {"member_number": "13", "joined": "2026-01-02", "note": "new"})
    assert saved.status_code == 302
    mine = Membership.objects.get(club=club, player=bram_elsewhere)
    theirs = Membership.objects.get(club=other_club, player=bram_elsewhere)
    assert (mine.member_number, mine.joined, mine.note) == ("13", datetime.date(2026, 1, 2), "new")
    assert (theirs.member_number, theirs.note) == ("M-077-X", "pays late")
    (entry,) = HistoryEntry.objects.filter(action=HistoryAction.MEMBERSHIP_DETAILS)
    assert entry.club == club
    assert entry.before == {"member_number": "12", "joined": None, "note": ""}
    assert entry.after == {"member_number": "13", "joined": "2026-01-02", "note": "new"}
    # The other club's secretary: not through this club's address, and his own address
    # shows his own membership only.
    client.force_login(other_secretary)
    assert client.get(address).status_code == 403
    own = reverse(
        "club_membership", kwargs={"club": other_club.slug, "player_id": bram_elsewhere.pk}
    )
    page = client.get(own).content.decode()
    assert "pays late" in page and 'value="13"' not in page


def test_the_persons_results_page_shows_every_club(client, club, other_club, bram_elsewhere):
    """Results follow the person: the page at either club lists the games of both."""
    MembershipFactory(club=club, player=bram_elsewhere)
    here = CompetitionFactory(club=club, name="Competitie hier")
    there = CompetitionFactory(club=other_club, name="Competitie daar")
    for competition in (here, there):
        opponent = PlayerFactory()
        EntrantFactory(competition=competition, player=bram_elsewhere)
        EntrantFactory(competition=competition, player=opponent)
        GameFactory(
            round=RoundFactory(competition=competition, status="published"),
            player_a=bram_elsewhere,
            player_b=opponent,
            played=True,
        )
    for shown_at in (club, other_club):
        page = client.get(
            reverse(
                "player_history", kwargs={"club": shown_at.slug, "player_id": bram_elsewhere.pk}
            )
        ).content.decode()
        assert "Competitie hier" in page and "Competitie daar" in page


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_clubs_adding_one_new_number_at_once_make_one_person(club, other_club):
    """Both see the number unknown; the second's insert waits for the first and then
    links the record the first made (the same name) instead of failing."""
    second = Beside(
        lambda: member_add(club=other_club, name="Fenna Kok", federation_number="NL-1", by=None)
    )
    with transaction.atomic():
        first, linked = member_add(club=club, name="Fenna Kok", federation_number="NL-1", by=None)
        second.start()
        second.wait_for_a_lock()
    membership, second_linked = second.result()
    assert (linked, second_linked) == (False, True)
    assert membership.player_id == first.player_id
    assert Membership.objects.filter(player=first.player).count() == 2


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_clubs_claiming_one_new_number_at_once_the_second_is_refused(club, other_club):
    def claim():
        try:
            member_add(club=other_club, name="Gijs", federation_number="NL-2", by=None)
        except PersonsError as error:
            return error
        return None

    second = Beside(claim)
    with transaction.atomic():
        member_add(club=club, name="Fenna Kok", federation_number="NL-2", by=None)
        second.start()
        second.wait_for_a_lock()
    refusal = second.result()
    assert refusal is not None and "NL-2" in str(refusal)
    assert list(Player.objects.values_list("name", flat=True)) == ["Fenna Kok"]
