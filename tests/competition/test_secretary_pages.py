"""The secretary's pages other than results entry: each calls its service and reports."""

import pytest
from django.urls import reverse

from competition.models import Absence, Competition, Entrant, Round
from games.models import Game
from tests.factories import (
    EntrantFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    competition_form_data,
)

pytestmark = pytest.mark.django_db


COMPETITION_FIELDS = competition_form_data(tiebreak_1="wins", tiebreak_2="spread")


def test_create_and_edit_a_competition(secretary_client, club):
    response = secretary_client.post(
        reverse("competition_create", kwargs={"club": club.slug}),
        {**COMPETITION_FIELDS, "name": "Zomercompetitie", "slug": "zomer"},
    )
    competition = Competition.objects.get(club=club, slug="zomer")
    assert response.status_code == 302
    assert response.url == reverse("entrants", kwargs=competition.url_kwargs)
    assert competition.tiebreaks == ["wins", "spread"]


def test_a_short_name_taken_in_the_meantime_is_a_form_error(secretary_client, english, club):
    """Two secretaries (or two clicks) create "zomer" at once: the database refuses the
    second, and the form says why instead of a server error."""
    data = {**COMPETITION_FIELDS, "name": "Zomercompetitie", "slug": "zomer"}
    url = reverse("competition_create", kwargs={"club": club.slug})
    assert secretary_client.post(url, data).status_code == 302
    response = secretary_client.post(url, {**data, "name": "Nog een zomer"})
    assert response.status_code == 200
    assert "already has a competition with this short name" in response.content.decode()
    assert list(Competition.objects.filter(club=club).values_list("name", flat=True)) == [
        "Zomercompetitie"
    ]
    # Editing another competition to the same short name: the same message, nothing saved.
    other = Competition.objects.create(club=club, name="Winter", slug="winter")
    edit_url = reverse("competition_edit", kwargs=other.url_kwargs)
    response = secretary_client.post(edit_url, {**data, "name": "Winter"})
    assert response.status_code == 200
    assert "already has a competition with this short name" in response.content.decode()
    other.refresh_from_db()
    assert other.slug == "winter"


def test_add_round_twice_at_the_same_number_adds_one(secretary_client, competition):
    url = reverse("round_create", kwargs=competition.url_kwargs)
    first = secretary_client.post(url, {"number": 1})
    second = secretary_client.post(url, {"number": 1})
    assert (
        first.url
        == second.url
        == reverse("attendance", kwargs={**competition.url_kwargs, "number": 1})
    )
    assert list(competition.rounds.values_list("number", flat=True)) == [1]
    # The standings page offers the next number.
    page = secretary_client.get(competition.get_absolute_url()).content.decode()
    assert '<input type="hidden" name="number" value="2">' in page


def test_add_entrants_by_member_or_new_name(secretary_client, competition):
    member = PlayerFactory(name="Greet")
    MembershipFactory(club=competition.club, player=member)
    url = reverse("entrants", kwargs=competition.url_kwargs)
    assert secretary_client.post(url, {"player": member.pk, "joined_round": 1}).status_code == 302
    response = secretary_client.post(url, {"new_player_name": "Nieuw Lid", "joined_round": 2})
    assert response.status_code == 302
    joined = dict(competition.entrants.values_list("player__name", "joined_round"))
    assert joined == {"Greet": 1, "Nieuw Lid": 2}
    # Nothing chosen: the form says so and nothing changes.
    response = secretary_client.post(url, {"joined_round": 1})
    assert response.status_code == 200
    assert competition.entrants.count() == 2


def test_add_round_then_attendance(secretary_client, competition, four_entrants):
    anna, bert, cor, dirk = four_entrants
    response = secretary_client.post(reverse("round_create", kwargs=competition.url_kwargs))
    round_obj = Round.objects.get(competition=competition)
    assert response.url == reverse(
        "attendance", kwargs={**competition.url_kwargs, "number": round_obj.number}
    )
    page = secretary_client.get(response.url)
    assert all(player.name in page.content.decode() for player in four_entrants)
    response = secretary_client.post(response.url, {"present": [anna.pk, bert.pk, cor.pk]})
    assert response.status_code == 302
    assert list(Absence.objects.filter(round=round_obj).values_list("player", flat=True)) == [
        dirk.pk
    ]


def test_withdraw_and_reinstate(secretary_client, competition):
    entrant = EntrantFactory(competition=competition)
    url = reverse("entrant_withdraw", kwargs=competition.url_kwargs)
    secretary_client.post(url, {"entrant": entrant.pk, "from_round": 3})
    entrant.refresh_from_db()
    assert entrant.withdrawn_from_round == 3
    secretary_client.post(url, {"entrant": entrant.pk, "from_round": 3, "reinstate": "1"})
    entrant.refresh_from_db()
    assert entrant.withdrawn_from_round is None
    # Round 1 is refused by the form: nothing changes.
    secretary_client.post(url, {"entrant": entrant.pk, "from_round": 1})
    assert Entrant.objects.get(pk=entrant.pk).withdrawn_from_round is None


def test_withdraw_refused_with_later_results_shows_why(secretary_client, english, competition):
    entrant = EntrantFactory(competition=competition, player__name="Femke")
    round_two = Round.objects.create(competition=competition, number=2)
    GameFactory(round=round_two, player_a=entrant.player, played=True)
    url = reverse("entrant_withdraw", kwargs=competition.url_kwargs)
    response = secretary_client.post(url, {"entrant": entrant.pk, "from_round": 2}, follow=True)
    assert "Femke already has a result in round 2 or later." in response.content.decode()
    entrant.refresh_from_db()
    assert entrant.withdrawn_from_round is None
    assert Game.objects.filter(round=round_two).count() == 1
