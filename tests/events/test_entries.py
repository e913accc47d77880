"""Entering an open event: the player themselves, their club's secretary, the directors;
the same person twice refused; withdrawal; a division takes only the event's entrants."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.models import HistoryEntry, Membership
from competition.models import Entrant
from competition.services import CompetitionError
from competition.services.entrants import entrant_add
from duplicate.models import Participant
from duplicate.services import DuplicateEveningError
from duplicate.services.participants import participant_add
from events.models import Entry
from events.services import EventError, entry_create, entry_withdraw, event_update
from tests.factories import (
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    secretary_of,
)

pytestmark = pytest.mark.django_db


def test_a_player_of_another_club_enters_himself_in_two_divisions_for_his_club(
    event, paired_division, duplicate_division, delft_user, other_club, club
):
    player = delft_user.player
    entry = entry_create(
        event=event,
        player=player,
        club=other_club,
        divisions=[paired_division, duplicate_division],
        by=delft_user,
    )
    assert (entry.player, entry.club, entry.entered_by) == (player, other_club, delft_user)
    assert Entrant.objects.filter(competition=paired_division.competition, player=player).exists()
    assert Participant.objects.filter(
        competition=duplicate_division.competition, player=player
    ).exists()
    # Playing an event of Gouda does not make him a member of Gouda.
    assert not Membership.objects.filter(club=club, player=player).exists()
    # Both clubs' histories say so: the organiser's and the club he plays for.
    entered = HistoryEntry.objects.filter(action="event.entry")
    assert sorted(entered.values_list("club_id", flat=True)) == sorted([club.pk, other_club.pk])
    assert entered.first().after == {
        "player": player.name,
        "club": other_club.name,
        "divisions": ["Open A", "Open duplicate"],
    }


def test_the_same_person_twice_is_refused_clearly_and_nothing_changes(
    event, paired_division, duplicate_division, delft_user, other_club, club
):
    player = delft_user.player
    MembershipFactory(club=club, player=player)  # a member of both clubs
    entry_create(
        event=event, player=player, club=other_club, divisions=[paired_division], by=delft_user
    )
    history = HistoryEntry.objects.count()
    with pytest.raises(EventError) as refused:
        entry_create(
            event=event, player=player, club=club, divisions=[duplicate_division], by=delft_user
        )
    assert refused.value.code == "entered_already"
    assert str(refused.value.message) == (
        f"{player.name} is al ingeschreven voor dit evenement, voor {other_club.name}."
    )
    assert Entry.objects.get().club == other_club
    assert not Participant.objects.exists()
    assert HistoryEntry.objects.count() == history


def test_a_guest_enters_only_when_guests_may_play(
    event, paired_division, organiser_secretary, delft_user
):
    player = delft_user.player
    event_update(event=event, settings={"guests_allowed": False}, by=organiser_secretary)
    with pytest.raises(EventError) as refused:
        entry_create(
            event=event, player=player, club=None, divisions=[paired_division], by=delft_user
        )
    assert refused.value.code == "no_guests"
    assert not Entry.objects.exists() and not Entrant.objects.exists()
    event_update(event=event, settings={"guests_allowed": True}, by=organiser_secretary)
    entry = entry_create(
        event=event, player=player, club=None, divisions=[paired_division], by=delft_user
    )
    assert entry.club is None


def test_after_entries_close_only_the_director_enters(
    event, paired_division, organiser_secretary, delft_user, other_club
):
    closes = timezone.now() + timedelta(days=1)
    event_update(event=event, settings={"entry_closes_at": closes}, by=organiser_secretary)
    player = delft_user.player
    with pytest.raises(EventError) as refused:
        entry_create(
            event=event,
            player=player,
            club=other_club,
            divisions=[paired_division],
            by=delft_user,
            now=closes,
        )
    assert refused.value.code == "closed"
    entry_create(
        event=event,
        player=player,
        club=other_club,
        divisions=[paired_division],
        by=organiser_secretary,
        now=closes,
    )
    assert Entry.objects.get().entered_by == organiser_secretary


def test_a_clubs_secretary_enters_the_clubs_members_and_no_one_else(
    event, paired_division, other_club, club
):
    delft_secretary = secretary_of(other_club, username="secretaris-delft")
    member = PlayerFactory(name="Lid van Delft")
    MembershipFactory(club=other_club, player=member)
    stranger = PlayerFactory(name="Lid van Gouda")
    MembershipFactory(club=club, player=stranger)
    entry_create(
        event=event, player=member, club=other_club, divisions=[paired_division], by=delft_secretary
    )
    with pytest.raises(EventError) as refused:
        entry_create(
            event=event, player=stranger, club=club, divisions=[paired_division], by=delft_secretary
        )
    assert refused.value.forbidden
    with pytest.raises(EventError) as not_a_member:
        entry_create(
            event=event,
            player=stranger,
            club=other_club,
            divisions=[paired_division],
            by=delft_secretary,
        )
    assert not_a_member.value.code == "not_a_member"
    assert list(Entry.objects.values_list("player__name", flat=True)) == ["Lid van Delft"]


def test_when_clubs_do_not_enter_their_members_the_secretary_is_refused(
    event, paired_division, organiser_secretary, other_club
):
    event_update(event=event, settings={"entry_by_clubs": False}, by=organiser_secretary)
    delft_secretary = secretary_of(other_club, username="secretaris-delft")
    member = PlayerFactory()
    MembershipFactory(club=other_club, player=member)
    with pytest.raises(EventError) as refused:
        entry_create(
            event=event,
            player=member,
            club=other_club,
            divisions=[paired_division],
            by=delft_secretary,
        )
    assert refused.value.code == "not_by_clubs"


def test_a_player_may_not_enter_another_player(event, paired_division, delft_user, gouda_user):
    with pytest.raises(EventError) as refused:
        entry_create(
            event=event,
            player=gouda_user.player,
            club=None,
            divisions=[paired_division],
            by=delft_user,
        )
    assert refused.value.forbidden
    assert not Entry.objects.exists()


def test_a_division_of_another_event_is_refused(
    event, club, organiser_secretary, paired_division, delft_user
):
    from events.services import event_create

    other = event_create(
        organiser=club, settings={"name": "Ander", "slug": "ander"}, by=organiser_secretary
    )
    with pytest.raises(EventError) as refused:
        entry_create(
            event=other,
            player=delft_user.player,
            club=None,
            divisions=[paired_division],
            by=delft_user,
        )
    assert refused.value.code == "other_event"
    assert not Entry.objects.exists()


def test_a_refusal_of_a_division_leaves_no_entry(
    event, paired_division, duplicate_division, delft_user, organiser_secretary
):
    """All or nothing: the duplicate division is archived, so the paired place made
    before it goes too."""
    from duplicate.services.competitions import duplicate_archive

    duplicate_archive(
        competition=duplicate_division.competition, by=organiser_secretary, reason="x"
    )
    with pytest.raises(EventError):
        entry_create(
            event=event,
            player=delft_user.player,
            club=None,
            divisions=[paired_division, duplicate_division],
            by=delft_user,
        )
    assert not Entry.objects.exists() and not Entrant.objects.exists()


def test_a_division_takes_only_the_events_entrants(paired, duplicate, other_club):
    stranger = PlayerFactory(name="Niet ingeschreven")
    MembershipFactory(club=other_club, player=stranger)
    with pytest.raises(CompetitionError, match="niet ingeschreven voor het evenement"):
        entrant_add(competition=paired, player=stranger)
    with pytest.raises(DuplicateEveningError, match="niet ingeschreven voor het evenement"):
        participant_add(competition=duplicate, player=stranger, by=None)
    assert not Entrant.objects.exists() and not Participant.objects.exists()


def test_withdrawing_takes_the_person_out_of_every_division(
    event, paired_division, duplicate_division, delft_user, other_club, club
):
    entry = entry_create(
        event=event,
        player=delft_user.player,
        club=other_club,
        divisions=[paired_division, duplicate_division],
        by=delft_user,
    )
    entry_withdraw(entry=entry, by=delft_user)
    assert not Entry.objects.exists()
    assert not Entrant.objects.exists() and not Participant.objects.exists()
    withdrawn = HistoryEntry.objects.filter(action="event.withdraw")
    assert sorted(withdrawn.values_list("club_id", flat=True)) == sorted([club.pk, other_club.pk])


def test_a_player_who_played_is_not_withdrawn_and_keeps_his_results(
    event, paired_division, delft_user, organiser_secretary
):
    player = delft_user.player
    entry = entry_create(
        event=event, player=player, club=None, divisions=[paired_division], by=delft_user
    )
    opponent = PlayerFactory()
    entry_create(
        event=event, player=opponent, club=None, divisions=[paired_division], by=organiser_secretary
    )
    GameFactory(
        round=RoundFactory(competition=paired_division.competition, status="published"),
        player_a=player,
        player_b=opponent,
    )
    with pytest.raises(EventError, match="heeft in Open A gespeeld"):
        entry_withdraw(entry=entry, by=organiser_secretary)
    assert Entry.objects.filter(pk=entry.pk).exists()
    assert Entrant.objects.filter(player=player).exists()


def test_a_stranger_may_not_withdraw_an_entry(event, paired_division, delft_user, gouda_user):
    entry = entry_create(
        event=event, player=delft_user.player, club=None, divisions=[paired_division], by=delft_user
    )
    with pytest.raises(EventError) as refused:
        entry_withdraw(entry=entry, by=gouda_user)
    assert refused.value.forbidden
    assert Entry.objects.filter(pk=entry.pk).exists()
