"""The operator's pages: who comes in, the list of clubs in one query, approve, suspend,
reactivate and remove (only after the archive was downloaded), each kept in the history."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from archives.backup import club_archive
from clubs.history import HistoryAction
from clubs.models import Club, ClubStatus, HistoryEntry, Membership, Player
from competition.models import Competition, Round
from games.models import Game
from hosting.selectors import clubs_for_operator
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    HistoryEntryFactory,
    PlayerFactory,
    UserFactory,
    competition_with_results,
    secretary_of,
    user_in_club,
)

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def operator_entries(club=None):
    entries = HistoryEntry.objects.filter(action__startswith="operator.")
    return entries.filter(club=club) if club is not None else entries


# --- who comes in ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("operator_clubs", {}),
        ("operator_history", {}),
        ("operator_club", {"club": "gouda"}),
    ],
)
def test_only_the_operator_sees_the_pages(client, club, secretary, staff, name, kwargs):
    address = reverse(name, kwargs=kwargs)
    assert client.get(address).status_code == 302  # a visitor: log in first
    for user in (secretary, staff, UserFactory()):
        client.force_login(user)
        assert client.get(address).status_code == 403


@pytest.mark.parametrize(
    "name", ["operator_approve", "operator_suspend", "operator_remove", "operator_act"]
)
def test_only_the_operator_acts(client, club, secretary, name):
    club.status = ClubStatus.PENDING
    club.save()
    client.force_login(secretary)
    address = reverse(name, kwargs={"club": club.slug})
    data = {"reason": "weg ermee", "confirm_slug": club.slug}
    assert client.post(address, data).status_code == 403
    club.refresh_from_db()
    assert club.status == ClubStatus.PENDING
    assert not operator_entries().exists()


def test_the_operator_command_gives_and_takes_the_permission(client):
    user = UserFactory(username="dienst")
    call_command("operator", "dienst")
    client.force_login(user)
    assert client.get(reverse("operator_clubs")).status_code == 200
    call_command("operator", "dienst", "--remove")
    user = type(user).objects.get(pk=user.pk)  # a fresh permission cache
    client.force_login(user)
    assert client.get(reverse("operator_clubs")).status_code == 403


# --- the list ----------------------------------------------------------------------------


def test_the_list_shows_each_club_with_its_numbers_and_last_activity(operator_client, club):
    played = competition_with_results(entrants=5, rounds=1, club=club)
    secretary_of(club)
    ClubFactory(name="Stille Club", slug="stil", city="Delft", status=ClubStatus.PENDING)
    moment = timezone.now() - timedelta(days=3)
    HistoryEntryFactory(club=club, at=moment - timedelta(days=1))
    HistoryEntryFactory(club=club, at=moment)
    rows = {row.slug: row for row in clubs_for_operator()}
    gouda, stil = rows["gouda"], rows["stil"]
    assert (gouda.member_count, gouda.paired, gouda.duplicates) == (6, 1, 0)
    assert gouda.last_activity == moment
    assert (stil.member_count, stil.paired, stil.last_activity) == (0, 0, None)
    page = text(operator_client.get(reverse("operator_clubs")))
    assert "De Goudse Letters" in page and "Stille Club" in page and "Delft" in page
    assert "wacht op goedkeuring" in page
    assert played.competition.club_id == club.pk
    filtered = text(operator_client.get(reverse("operator_clubs"), {"status": "pending"}))
    assert "Stille Club" in filtered and "De Goudse Letters" not in filtered
    # A status that does not exist: the whole list, no error.
    assert operator_client.get(reverse("operator_clubs"), {"status": "x" * 5000}).status_code == 200


def test_the_list_is_one_query_however_many_clubs(operator_client, django_assert_num_queries):
    def count() -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as context:
            assert operator_client.get(reverse("operator_clubs")).status_code == 200
        return len(context.captured_queries)

    ClubFactory()
    few = count()
    for _ in range(5):
        club = ClubFactory()
        competition_with_results(entrants=3, rounds=1, club=club)
        HistoryEntryFactory(club=club)
    assert count() == few
    # The session, the user, the permissions (user's and groups'), and the list itself.
    with django_assert_num_queries(few):
        operator_client.get(reverse("operator_clubs"))
    assert len(list(clubs_for_operator())) == Club.objects.count() >= 6
    with django_assert_num_queries(1):
        list(clubs_for_operator())


# --- approve, suspend, reactivate --------------------------------------------------------


def test_approve_suspend_and_reactivate_are_kept_with_who_and_why(operator_client, operator):
    club = ClubFactory(name="Nieuw", slug="nieuw", status=ClubStatus.PENDING)
    response = operator_client.post(reverse("operator_approve", kwargs={"club": "nieuw"}), {})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.status == ClubStatus.ACTIVE

    refused = operator_client.post(
        reverse("operator_suspend", kwargs={"club": "nieuw"}), {"reason": "  "}, follow=True
    )
    assert "Geef een reden" in text(refused)
    club.refresh_from_db()
    assert club.status == ClubStatus.ACTIVE

    operator_client.post(
        reverse("operator_suspend", kwargs={"club": "nieuw"}), {"reason": "betaalt niet"}
    )
    club.refresh_from_db()
    assert club.status == ClubStatus.SUSPENDED
    again = operator_client.post(
        reverse("operator_approve", kwargs={"club": "nieuw"}), {}, follow=True
    )
    assert "opgeschort" in text(again)
    operator_client.post(reverse("operator_reactivate", kwargs={"club": "nieuw"}), {"reason": "ok"})
    club.refresh_from_db()
    assert club.status == ClubStatus.ACTIVE

    entries = list(operator_entries(club).order_by("at", "pk"))
    assert [(e.action, e.before, e.after, e.reason, e.by) for e in entries] == [
        (
            HistoryAction.OPERATOR_APPROVE,
            {"club_status": "pending"},
            {"club_status": "active"},
            "",
            operator,
        ),
        (
            HistoryAction.OPERATOR_SUSPEND,
            {"club_status": "active"},
            {"club_status": "suspended"},
            "betaalt niet",
            operator,
        ),
        (
            HistoryAction.OPERATOR_REACTIVATE,
            {"club_status": "suspended"},
            {"club_status": "active"},
            "ok",
            operator,
        ),
    ]
    page = text(operator_client.get(reverse("operator_history")))
    assert "Club opgeschort door de dienstbeheerder" in page and "betaalt niet" in page


def test_a_reason_of_10_kb_is_refused_with_a_message(operator_client, club):
    response = operator_client.post(
        reverse("operator_suspend", kwargs={"club": club.slug}),
        {"reason": "x" * 10_000},
        follow=True,
    )
    assert "niet meer dan 1000 tekens" in text(response)  # Django's own message
    club.refresh_from_db()
    assert club.status == ClubStatus.ACTIVE


def test_an_action_is_a_post(operator_client, club):
    assert (
        operator_client.get(reverse("operator_suspend", kwargs={"club": club.slug})).status_code
        == 405
    )


# --- removal -----------------------------------------------------------------------------


@pytest.fixture
def full_club(club, secretary):
    """The club with a competition with results, a secretary, and a player who is also a
    member of another club."""
    played = competition_with_results(entrants=4, rounds=2, club=club)
    shared = played.players[0]
    Membership.objects.create(club=ClubFactory(slug="delft", name="Delft"), player=shared)
    HistoryEntryFactory(club=club, at=timezone.now() - timedelta(days=1))
    return played


def remove(client, club, **data):
    data = {"reason": "opgezegd", "confirm_slug": club.slug, **data}
    return client.post(reverse("operator_remove", kwargs={"club": club.slug}), data, follow=True)


def download(client, club):
    response = client.get(reverse("club_backup", kwargs={"club": club.slug}))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    return response


def test_the_archive_download_is_kept_on_the_club_and_in_its_history(client, club, secretary):
    client.force_login(secretary)
    download(client, club)
    club.refresh_from_db()
    assert club.archive_downloaded_at is not None
    entry = HistoryEntry.objects.get(club=club, action=HistoryAction.ARCHIVE_DOWNLOAD)
    assert entry.by == secretary and entry.at == club.archive_downloaded_at


def test_removal_is_refused_without_a_downloaded_archive(operator_client, club, full_club):
    before = HistoryEntry.objects.count()
    response = remove(operator_client, club)
    assert "Download eerst het archief van de club" in text(response)
    assert Club.objects.filter(pk=club.pk).exists()
    assert HistoryEntry.objects.count() == before


def test_removal_is_refused_when_the_club_changed_after_the_download(
    client, club, full_club, secretary_client, operator
):
    download(secretary_client, club)
    HistoryEntryFactory(club=club, at=timezone.now() + timedelta(seconds=1))  # a later change
    client.force_login(operator)
    response = remove(client, club)
    assert "veranderd nadat het archief" in text(response)
    assert Club.objects.filter(pk=club.pk).exists()


def test_removal_needs_the_short_name_typed(client, club, full_club, secretary_client, operator):
    download(secretary_client, club)
    client.force_login(operator)
    response = remove(client, club, confirm_slug="iets-anders")
    assert "Typ de korte naam van de club" in text(response)
    assert Club.objects.filter(pk=club.pk).exists()


def test_removal_deletes_everything_of_the_club_and_keeps_the_fact(
    client, club, full_club, secretary_client, operator
):
    other = competition_with_results(entrants=2, rounds=1)  # another club's, untouched
    download(secretary_client, club)
    archive = club_archive(club=club)  # what the club was, for the comparison below
    assert archive
    shared = full_club.players[0]
    club_id = club.pk
    client.force_login(operator)
    response = remove(client, club)
    assert response.status_code == 200
    assert "is verwijderd" in text(response)

    assert not Club.objects.filter(pk=club_id).exists()
    assert not Competition.objects.filter(club_id=club_id).exists()
    assert not Round.objects.filter(competition__club_id=club_id).exists()
    assert not HistoryEntry.objects.filter(club_id=club_id).exists()
    # Players of no other club went; the member of Delft stays, with Delft.
    assert list(Player.objects.filter(name__startswith=full_club.competition.slug)) == [shared]
    assert Membership.objects.filter(player=shared, club__slug="delft").exists()
    assert not Player.objects.filter(user__username="secretaris").exists()
    # The other club keeps all it had.
    assert Game.objects.filter(round__competition=other.competition).count() == 1
    # The fact stays, readable without the club.
    entry = HistoryEntry.objects.get(action=HistoryAction.OPERATOR_REMOVE)
    assert (entry.club_id, entry.object_id, entry.object_label) == (None, club_id, club.name)
    assert entry.before["slug"] == "gouda" and entry.reason == "opgezegd" and entry.by == operator
    page = text(client.get(reverse("operator_history")))
    assert "Club verwijderd door de dienstbeheerder" in page and "De Goudse Letters" in page
    assert "gouda" in page and "opgezegd" in page
    assert client.get(reverse("club", kwargs={"club": "gouda"})).status_code == 404


def test_removal_of_an_empty_club(client, operator, secretary_client, club):
    download(secretary_client, club)
    client.force_login(operator)
    remove(client, club)
    assert not Club.objects.filter(pk=club.pk).exists()


def test_a_player_of_the_club_without_a_game_elsewhere_goes_with_it(
    client, operator, secretary_client, club
):
    lone = PlayerFactory(name="Alleen Hier")
    Membership.objects.create(club=club, player=lone)
    download(secretary_client, club)
    client.force_login(operator)
    remove(client, club)
    assert not Player.objects.filter(pk=lone.pk).exists()
    assert user_in_club  # imported for the fixtures' sake
    assert CompetitionFactory


@pytest.mark.parametrize("name", ["operator_act", "operator_remove", "operator_approve"])
def test_odd_input_gets_a_message_and_changes_nothing(operator_client, club, name):
    before = HistoryEntry.objects.count()
    for data in (
        {"reason": "x" * 10_000, "confirm_slug": club.slug},
        {"reason": "\x00\u202e", "confirm_slug": "g" * 500},
        {},
    ):
        response = operator_client.post(
            reverse(name, kwargs={"club": club.slug}), data, follow=True
        )
        assert response.status_code == 200
        assert 'class="alert alert-danger"' in text(response)
    assert HistoryEntry.objects.count() == before
    assert Club.objects.get(pk=club.pk).status == ClubStatus.ACTIVE
    assert "hosting.acting" not in operator_client.session


def test_an_unknown_club_is_a_404(operator_client):
    assert (
        operator_client.get(reverse("operator_club", kwargs={"club": "nergens"})).status_code == 404
    )
    response = operator_client.post(reverse("operator_suspend", kwargs={"club": "nergens"}), {})
    assert response.status_code == 404


@pytest.mark.parametrize("name", ["operator_club", "operator_history"])
def test_a_page_of_the_operator_has_a_fixed_query_budget(operator_client, club, operator, name):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from clubs.history import history_record

    kwargs = {"club": club.slug} if name == "operator_club" else {}

    def count() -> int:
        with CaptureQueriesContext(connection) as context:
            assert operator_client.get(reverse(name, kwargs=kwargs)).status_code == 200
        return len(context.captured_queries)

    def record(action) -> None:
        history_record(
            club_id=club.pk, by=operator, action=action, object_type="club", label=club.name
        )

    record(HistoryAction.OPERATOR_SUSPEND)
    few = count()
    for _ in range(15):
        record(HistoryAction.OPERATOR_REACTIVATE)
        HistoryEntryFactory(club=club)
    assert count() == few <= 10
