"""A club's archive keeps the events it organises: the event, its divisions' link to it,
the entries (another club's player as a guest: that club is not in the archive), and a
federation's seasons."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import date

import pytest

from archives.backup import club_archive, restore_club
from clubs.models import Club
from duplicate.models import DuplicateCompetition
from events.models import Entry, Event, Season
from events.services import entry_create, event_update
from tests.factories import MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_an_organisers_archive_restores_its_events_and_entries(
    club, other_club, event, duplicate_division, paired_division, organiser_secretary
):
    own, visitor, guest = PlayerFactory(name="Eigen"), PlayerFactory(name="Bezoeker"), None
    MembershipFactory(club=club, player=own)
    MembershipFactory(club=other_club, player=visitor)
    guest = PlayerFactory(name="Gast")
    for player, for_club in ((own, club), (visitor, other_club), (guest, None)):
        entry_create(
            event=event,
            player=player,
            club=for_club,
            divisions=[duplicate_division, paired_division],
            by=None,
        )

    data = club_archive(club=club)
    document = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("club.json"))
    assert [row["name"] for row in document["data"]["events.event"]] == ["Gouds Open 2027"]
    assert len(document["data"]["events.entry"]) == 3

    restored = restore_club(data=data, slug="gouda-terug").club
    copy = Event.objects.get(organiser=restored)
    assert copy.name == event.name and copy.slug == event.slug
    # Beside the original it is another copy, with an identity of its own.
    assert copy.uid != event.uid
    assert DuplicateCompetition.objects.get(club=restored).event == copy
    assert restored.competitions.get(slug="open-a").event == copy
    entries = {entry.player.name: entry.club for entry in Entry.objects.filter(event=copy)}
    assert entries == {"Eigen": restored, "Bezoeker": None, "Gast": None}


def test_a_federations_archive_keeps_its_seasons_and_the_events_season(
    organiser_secretary,
):
    federation = Club.objects.create(name="NTSV", slug="ntsv", is_federation=True)
    season = Season.objects.create(
        federation=federation,
        name="Seizoen 2026–2027",
        slug="2026-2027",
        start=date(2026, 9, 1),
        end=date(2027, 8, 31),
    )
    from events.services import event_create

    made = event_create(
        organiser=federation,
        settings={"name": "Interclub", "slug": "interclub", "kind": "interclub"},
        by=None,
    )
    event_update(event=made, settings={"season": season}, by=None)
    restored = restore_club(data=club_archive(club=federation), slug="ntsv-terug").club
    copy = Event.objects.get(organiser=restored)
    assert copy.season is not None and copy.season.federation == restored
    assert (copy.season.name, copy.season.gap_value) == (season.name, season.gap_value)
