"""The event pages, and the event's directors at the pages of its divisions."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import HistoryEntry
from clubs.slugs import validate_competition_slug
from competition.models import Competition, Round
from duplicate.models import DuplicateCompetition
from events.models import Entry, Event
from events.permissions import directs_event, manages_competition
from events.services import entry_create, event_set_people
from games.policy import SECRETARY, role_in_game
from tests.factories import (
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    UserFactory,
    competition_form_data,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(event, organiser_secretary):
    """An account of no club at all, made the event's director by e-mail address."""
    user = UserFactory(username="wedstrijdleider", email="leider@example.org")
    event_set_people(
        event=event, role="directors", text="LEIDER@example.org", by=organiser_secretary
    )
    return user


def test_a_director_who_is_no_secretary_manages_the_divisions(
    client, event, paired, duplicate, director
):
    client.force_login(director)
    entrants = reverse("entrants", args=["gouda", paired.slug])
    participants = reverse("duplicate_participants", args=["gouda", duplicate.slug])
    assert client.get(entrants).status_code == 200
    assert client.get(participants).status_code == 200
    assert client.get(reverse("event_manage", args=["gouda", event.slug])).status_code == 200
    # Directing is the event's: the club's own competitions stay its secretaries'.
    own = Competition.objects.create(club=paired.club, name="Eigen", slug="eigen")
    assert client.get(reverse("entrants", args=["gouda", own.slug])).status_code == 403


def test_no_longer_a_director_no_longer_manages(
    client, event, paired, director, organiser_secretary
):
    event_set_people(event=event, role="directors", text="", by=organiser_secretary)
    client.force_login(director)
    assert client.get(reverse("entrants", args=["gouda", paired.slug])).status_code == 403
    assert client.get(reverse("event_manage", args=["gouda", event.slug])).status_code == 403


def test_a_director_writes_a_divisions_results_and_sees_its_draft_rounds(
    event, paired, director, delft_user
):
    player, opponent = PlayerFactory(), PlayerFactory()
    game = GameFactory(
        round=RoundFactory(competition=paired, status="draft"), player_a=player, player_b=opponent
    )
    assert role_in_game(game, director) == SECRETARY
    assert role_in_game(game, delft_user) is None
    assert list(Round.objects.visible_to(director)) == [game.round]
    assert list(Round.objects.visible_to(delft_user)) == []
    assert manages_competition(director, paired) and directs_event(director, event)


def test_directors_are_chosen_by_the_organisers_secretary_by_username_or_e_mail(
    client, event, organiser_secretary
):
    UserFactory(username="anke", email="anke@example.org")
    UserFactory(username="bert", email="bert@example.org")
    client.force_login(organiser_secretary)
    url = reverse("event_directors", args=["gouda", event.slug])
    response = client.post(url, {"people": "anke\nBERT@example.org"}, follow=True)
    assert response.status_code == 200
    assert sorted(event.directors.values_list("username", flat=True)) == ["anke", "bert"]
    entry = HistoryEntry.objects.get(action="event.directors")
    assert entry.after == {"directors": ["anke", "bert"]} and entry.club_id == event.organiser_id
    # One unknown name: a clear message, and the list stays as it was.
    response = client.post(url, {"people": "anke\nonbekend-account"}, follow=True)
    assert "precies één account: onbekend-account" in response.content.decode()
    assert sorted(event.directors.values_list("username", flat=True)) == ["anke", "bert"]


def test_a_director_does_not_choose_directors_but_chooses_the_jury(client, event, director):
    UserFactory(username="jurylid")
    client.force_login(director)
    refused = client.post(reverse("event_directors", args=["gouda", event.slug]), {"people": "x"})
    assert refused.status_code == 403
    client.post(reverse("event_jury", args=["gouda", event.slug]), {"people": "jurylid"})
    assert list(event.jury.values_list("username", flat=True)) == ["jurylid"]


def test_the_secretary_makes_an_event_and_a_stranger_may_not(
    client, club, organiser_secretary, delft_user
):
    url = reverse("event_create", args=["gouda"])
    data = {"name": "Zomertoernooi", "slug": "zomer", "kind": "open", "entry_by_players": "on"}
    client.force_login(delft_user)
    assert client.post(url, data).status_code == 403
    assert not Event.objects.exists()
    client.force_login(organiser_secretary)
    response = client.post(url, data)
    assert response.status_code == 302
    made = Event.objects.get()
    assert (made.organiser, made.name, made.guests_allowed) == (club, "Zomertoernooi", False)
    assert HistoryEntry.objects.filter(action="event.create", club=club).exists()
    again = client.post(url, data)
    assert again.status_code == 200 and Event.objects.count() == 1
    assert "heeft al een evenement met deze korte naam" in again.content.decode()


def test_a_director_adds_a_paired_and_a_duplicate_division(client, event, director):
    client.force_login(director)
    response = client.post(
        reverse("event_competition_create", args=["gouda", event.slug]),
        competition_form_data(name="Groep A", slug="groep-a"),
    )
    assert response.status_code == 302
    assert Competition.objects.get(slug="groep-a").event == event
    response = client.post(
        reverse("event_duplicate_create", args=["gouda", event.slug]),
        {"name": "Duplicate", "slug": "duplicate-open", "rules": "sbnl"},
    )
    assert response.status_code == 302
    assert DuplicateCompetition.objects.get(slug="duplicate-open").event == event


def test_a_player_enters_on_the_entry_page_and_twice_is_refused(
    client, event, paired, delft_user, other_club
):
    client.force_login(delft_user)
    url = reverse("event_enter", args=["gouda", event.slug])
    page = client.get(url).content.decode()
    assert delft_user.player.name in page and other_club.name in page
    form = {
        "player": delft_user.player.pk,
        "club": other_club.pk,
        "divisions": [f"paired-{paired.pk}"],
    }
    assert client.post(url, form).status_code == 302
    again = client.post(url, form, follow=True).content.decode()
    assert "is al ingeschreven voor dit evenement, voor Scrabbleclub Delft" in again
    assert Entry.objects.count() == 1


def test_entries_withdrawn_on_the_entry_page(client, event, paired_division, delft_user):
    entry = entry_create(
        event=event, player=delft_user.player, club=None, divisions=[paired_division], by=delft_user
    )
    client.force_login(delft_user)
    url = reverse("event_entry_withdraw", args=["gouda", event.slug, entry.pk])
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 302
    assert not Entry.objects.exists()


def _entered(event, division, count: int, club) -> None:
    for _number in range(count):
        player = PlayerFactory()
        MembershipFactory(club=club, player=player)
        entry_create(event=event, player=player, club=club, divisions=[division], by=None)


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_public_pages_list_each_divisions_players_with_their_club_in_fixed_queries(
    client, event, paired, paired_division, duplicate_division, other_club, club
):
    _entered(event, paired_division, 2, other_club)
    _entered(event, duplicate_division, 1, club)
    event_url = reverse("event", args=["gouda", event.slug])
    division_url = reverse("event_division", args=["gouda", event.slug, paired.slug])
    client.get(event_url)  # the first visit of a client sets its cookies
    few = _queries(client, event_url), _queries(client, division_url)
    _entered(event, paired_division, 10, other_club)
    _entered(event, duplicate_division, 10, club)
    assert (_queries(client, event_url), _queries(client, division_url)) == few
    # The event, its entries, and per kind of division the divisions, their players' rows
    # and the players (3 + 3): eight. A division: the event, the divisions of each kind
    # (2), the entries, its players with their rows: five.
    assert few == (8, 5)
    page = client.get(event_url).content.decode()
    assert "Open A" in page and "Open duplicate" in page and "Scrabbleclub Delft" in page
    assert reverse("standings", args=["gouda", paired.slug]) in page
    division = client.get(division_url).content.decode()
    assert division.count("Scrabbleclub Delft") == 12
    assert (
        client.get(reverse("event_division", args=["gouda", event.slug, "nope"])).status_code == 404
    )


@pytest.mark.parametrize("slug", ["evenement", "ranglijst"])
def test_the_event_and_ranking_addresses_are_no_competitions_short_name(slug):
    with pytest.raises(ValidationError):
        validate_competition_slug(slug)


def test_a_divisions_entrants_page_offers_the_events_entrants_of_every_club(
    client, event, paired, duplicate_division, director, delft_user
):
    entry_create(
        event=event,
        player=delft_user.player,
        club=None,
        divisions=[duplicate_division],
        by=delft_user,
    )
    client.force_login(director)
    url = reverse("entrants", args=["gouda", paired.slug])
    assert delft_user.player.name in client.get(url).content.decode()
    response = client.post(url, {"player": delft_user.player.pk, "joined_round": 1})
    assert response.status_code == 302
    assert paired.entrants.get().player == delft_user.player


def test_the_directors_and_entry_pages_read_in_fixed_queries(
    client, event, paired_division, duplicate_division, other_club, organiser_secretary
):
    client.force_login(organiser_secretary)
    manage = reverse("event_manage", args=["gouda", event.slug])
    enter = reverse("event_enter", args=["gouda", event.slug])
    _entered(event, paired_division, 2, other_club)
    _entered(event, duplicate_division, 1, other_club)  # an empty division reads one less
    client.get(manage), client.get(enter)  # the first visits set the cookies
    few = _queries(client, manage), _queries(client, enter)
    _entered(event, paired_division, 10, other_club)
    _entered(event, duplicate_division, 10, other_club)
    assert (_queries(client, manage), _queries(client, enter)) == few


def test_the_jury_and_the_directors_find_the_jury_rooms_and_the_results_file_on_the_event(
    client, event, duplicate, director, organiser_secretary
):
    """The event's page leads its jury to each evening's jury room, and its directors also
    to the results file; the public sees neither."""
    from duplicate.models import Evening

    Evening.objects.create(competition=duplicate, number=1)
    juror = UserFactory(username="jurylid")
    event_set_people(event=event, role="jury", text="jurylid", by=organiser_secretary)
    page = reverse("event", args=[event.organiser.slug, event.slug])
    jury_room = reverse("duplicate_jury", args=[event.organiser.slug, duplicate.slug, 1])
    results_file = reverse("event_results_file", args=[event.organiser.slug, event.slug])

    public = client.get(page).content.decode()
    assert jury_room not in public and results_file not in public
    client.force_login(juror)
    seen = client.get(page).content.decode()
    assert jury_room in seen and results_file not in seen
    assert client.get(jury_room).status_code == 200
    client.force_login(director)
    seen = client.get(page).content.decode()
    assert jury_room in seen and results_file in seen
    assert client.get(jury_room).status_code == 200
