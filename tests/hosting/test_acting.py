"""The operator reads no club's drafts or personal data unless acting for that club; the
acting is kept in the session, recorded at its start and its end, and shown on every page."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.history import HistoryAction
from clubs.models import HistoryEntry
from clubs.permissions import can_manage_club
from competition.models import Round
from tests.factories import HistoryEntryFactory, RoundFactory

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def act(client, club, reason="hulp gevraagd door de secretaris"):
    return client.post(reverse("operator_act", kwargs={"club": club.slug}), {"reason": reason})


def test_without_acting_the_operator_manages_no_club(operator_client, operator, club, competition):
    assert not can_manage_club(operator, club)
    draft = RoundFactory(competition=competition, status=Round.Status.DRAFT)
    assert (
        operator_client.get(reverse("club_players", kwargs={"club": club.slug})).status_code == 403
    )
    assert (
        operator_client.get(reverse("club_backup", kwargs={"club": club.slug})).status_code == 403
    )
    round_page = reverse("round", kwargs={**competition.url_kwargs, "number": draft.number})
    assert operator_client.get(round_page).status_code == 404


def test_acting_needs_a_reason(operator_client, club):
    response = act(operator_client, club, reason=" ")
    assert response.status_code == 302
    assert "hosting.acting" not in operator_client.session
    assert not HistoryEntry.objects.filter(action=HistoryAction.OPERATOR_ACT_START).exists()


def test_acting_for_one_club_is_recorded_shown_and_stopped(
    operator_client, operator, club, other_club, competition
):
    draft = RoundFactory(competition=competition, status=Round.Status.DRAFT)
    response = act(operator_client, club)
    assert response.status_code == 302 and response.url == club.get_absolute_url()
    start = HistoryEntry.objects.get(action=HistoryAction.OPERATOR_ACT_START)
    assert (start.club, start.by, start.reason) == (
        club,
        operator,
        "hulp gevraagd door de secretaris",
    )

    # The club's secretary pages and drafts, for this club only; a banner on every page.
    players = operator_client.get(reverse("club_players", kwargs={"club": club.slug}))
    assert players.status_code == 200
    assert 'id="acting-banner"' in text(players) and "De Goudse Letters" in text(players)
    round_page = reverse("round", kwargs={**competition.url_kwargs, "number": draft.number})
    assert operator_client.get(round_page).status_code == 200
    other = reverse("club_players", kwargs={"club": other_club.slug})
    assert operator_client.get(other).status_code == 403
    home = operator_client.get(reverse("home"))
    assert 'id="acting-banner"' in text(home)

    stop = operator_client.post(reverse("operator_act_stop"))
    assert stop.status_code == 302
    end = HistoryEntry.objects.get(action=HistoryAction.OPERATOR_ACT_STOP)
    assert (end.club, end.by) == (club, operator)
    assert (
        operator_client.get(reverse("club_players", kwargs={"club": club.slug})).status_code == 403
    )
    assert 'id="acting-banner"' not in text(operator_client.get(reverse("home")))


def test_acting_for_another_club_stops_the_first(operator_client, club, other_club):
    act(operator_client, club)
    act(operator_client, other_club)
    actions = list(
        HistoryEntry.objects.filter(action__startswith="operator.act")
        .order_by("pk")
        .values_list("action", "club__slug")
    )
    assert actions == [
        (HistoryAction.OPERATOR_ACT_START, "gouda"),
        (HistoryAction.OPERATOR_ACT_STOP, "gouda"),
        (HistoryAction.OPERATOR_ACT_START, "delft"),
    ]
    assert operator_client.session["hosting.acting"]["id"] == other_club.pk


def test_a_session_that_acts_is_nothing_without_the_permission(client, operator, club):
    client.force_login(operator)
    act(client, club)
    operator.user_permissions.clear()
    assert client.get(reverse("club_players", kwargs={"club": club.slug})).status_code == 403
    assert "hosting.acting" not in client.session


def test_acting_the_operator_downloads_the_archive_and_may_then_remove(
    operator_client, operator, club
):
    act(operator_client, club)
    assert (
        operator_client.get(reverse("club_backup", kwargs={"club": club.slug})).status_code == 200
    )
    download = HistoryEntry.objects.get(action=HistoryAction.ARCHIVE_DOWNLOAD)
    assert download.by == operator
    operator_client.post(reverse("operator_act_stop"))
    response = operator_client.post(
        reverse("operator_remove", kwargs={"club": club.slug}),
        {"reason": "opgezegd", "confirm_slug": club.slug},
    )
    assert response.status_code == 302 and response.url == reverse("operator_clubs")
    assert not type(club).objects.filter(pk=club.pk).exists()


def test_the_operators_entries_outlive_the_club(operator_client, operator, club, secretary):
    """Acting for the club and its archive's download stay after its removal, apart from any
    club, each with the club's name and number; the club's own history goes with it."""
    club_id, name = club.pk, club.name
    HistoryEntryFactory(club=club, by=secretary, at=timezone.now() - timedelta(days=1))
    act(operator_client, club)
    operator_client.get(reverse("club_backup", kwargs={"club": club.slug}))
    operator_client.post(reverse("operator_act_stop"))
    operator_client.post(
        reverse("operator_remove", kwargs={"club": club.slug}),
        {"reason": "opgezegd", "confirm_slug": club.slug},
    )
    assert not type(club).objects.filter(pk=club_id).exists()

    kept = HistoryEntry.objects.filter(club=None).order_by("pk")
    assert [entry.action for entry in kept] == [
        HistoryAction.OPERATOR_ACT_START,
        HistoryAction.ARCHIVE_DOWNLOAD,
        HistoryAction.OPERATOR_ACT_STOP,
        HistoryAction.OPERATOR_REMOVE,
    ]
    assert {(entry.object_type, entry.object_id, entry.object_label) for entry in kept} == {
        ("club", club_id, name)
    }
    assert {entry.by for entry in kept} == {operator}
    assert kept[0].reason == "hulp gevraagd door de secretaris"
    assert HistoryEntry.objects.count() == 4  # the secretary's entry went with the club

    page = text(operator_client.get(reverse("operator_history")))
    for label in (
        "Dienstbeheerder treedt op voor de club",
        "Clubarchief gedownload",
        "Dienstbeheerder treedt niet meer op voor de club",
        "Club verwijderd door de dienstbeheerder",
    ):
        assert f"{label}</strong>: {name}" in page


def test_a_logout_ends_acting_and_is_recorded(operator_client, operator, club):
    act(operator_client, club)
    operator_client.post(reverse("logout"))
    end = HistoryEntry.objects.get(action=HistoryAction.OPERATOR_ACT_STOP)
    assert (end.club, end.by) == (club, operator)
    operator_client.force_login(operator)
    assert (
        operator_client.get(reverse("club_players", kwargs={"club": club.slug})).status_code == 403
    )
