"""What the site admin changes in the admin is kept in the club's history too: a club's
details, players (changed or deleted), who is member or secretary of a club, and a
competition deleted before its first round."""

import pytest
from django.urls import reverse
from django.utils import translation

from clubs.history import HistoryAction
from clubs.history_display import entry_changes
from clubs.models import Club, HistoryEntry, Membership, Player
from competition.models import Competition
from tests.factories import MembershipFactory, PlayerFactory, RoundFactory, UserFactory

pytestmark = pytest.mark.django_db


def admin_url(model, action: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{action}", args=args)


def club_form(club: Club, memberships: list[dict], **changes) -> dict:
    """The club's change form with its memberships inline, as the admin page posts it."""
    existing = [row for row in memberships if "id" in row]
    data = {
        "name": club.name,
        "slug": club.slug,
        "city": club.city,
        "rating_system": club.rating_system,
        "slip_notation": club.slip_notation,
        "memberships-TOTAL_FORMS": len(memberships),
        "memberships-INITIAL_FORMS": len(existing),
        "memberships-MIN_NUM_FORMS": 0,
        "memberships-MAX_NUM_FORMS": 1000,
        **changes,
    }
    for number, row in enumerate(memberships):
        for key, value in {"club": club.pk, **row}.items():
            data[f"memberships-{number}-{key}"] = value
    return data


def entries(action: str) -> list[HistoryEntry]:
    return list(HistoryEntry.objects.filter(action=action).order_by("pk"))


def test_a_clubs_details_and_its_members_roles_are_kept(admin_client, admin_user, club):
    anna = PlayerFactory(name="Anna")
    bert = MembershipFactory(club=club, player=PlayerFactory(name="Bert")).player
    bert_membership = Membership.objects.get(player=bert)
    change = admin_url(Club, "change", club.pk)

    # Renamed, Anna joins, Bert becomes secretary: one save of the page, three entries.
    response = admin_client.post(
        change,
        club_form(
            club,
            [
                {"id": bert_membership.pk, "player": bert.pk, "role": "secretary"},
                {"player": anna.pk, "role": "member"},
            ],
            name="De Goudse Letters '82",
        ),
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    (renamed,) = entries(HistoryAction.CLUB_CHANGE)
    assert (renamed.before, renamed.after) == (
        {"name": "De Goudse Letters"},
        {"name": "De Goudse Letters '82"},
    )
    assert renamed.by == admin_user
    (joined,) = entries(HistoryAction.MEMBERSHIP_ADD)
    assert (joined.object_label, joined.before, joined.after) == ("Anna", None, {"role": "member"})
    (promoted,) = entries(HistoryAction.MEMBERSHIP_ROLE)
    assert (promoted.object_label, promoted.before, promoted.after) == (
        "Bert",
        {"role": "member"},
        {"role": "secretary"},
    )
    with translation.override("nl"):
        (row,) = entry_changes(promoted)
        assert (row.label, row.before, row.after) == ("rol", "lid", "secretaris")

    # Saved again unchanged: nothing new. Then Anna leaves.
    club.refresh_from_db()
    anna_membership = Membership.objects.get(player=anna)
    rows = [
        {"id": bert_membership.pk, "player": bert.pk, "role": "secretary"},
        {"id": anna_membership.pk, "player": anna.pk, "role": "member"},
    ]
    assert admin_client.post(change, club_form(club, rows)).status_code == 302
    assert HistoryEntry.objects.count() == 3
    rows[1]["DELETE"] = "on"
    assert admin_client.post(change, club_form(club, rows)).status_code == 302
    (left,) = entries(HistoryAction.MEMBERSHIP_REMOVE)
    assert (left.object_label, left.before, left.after) == ("Anna", {"role": "member"}, None)
    assert not Membership.objects.filter(player=anna).exists()


def test_a_membership_changed_on_its_own_page_is_kept(admin_client, club):
    membership = MembershipFactory(club=club, player=PlayerFactory(name="Cor"))
    response = admin_client.post(
        admin_url(Membership, "change", membership.pk),
        {"club": club.pk, "player": membership.player_id, "role": "secretary"},
    )
    assert response.status_code == 302
    (entry,) = entries(HistoryAction.MEMBERSHIP_ROLE)
    assert (entry.club_id, entry.after) == (club.pk, {"role": "secretary"})
    admin_client.post(admin_url(Membership, "delete", membership.pk), {"post": "yes"})
    assert entries(HistoryAction.MEMBERSHIP_REMOVE)[0].before == {"role": "secretary"}


def test_a_player_changed_or_deleted_is_kept_in_each_of_their_clubs(admin_client, club, other_club):
    dirk = PlayerFactory(name="Dirk")
    for each in (club, other_club):
        MembershipFactory(club=each, player=dirk)
    account = UserFactory(username="dirk")
    response = admin_client.post(
        admin_url(Player, "change", dirk.pk),
        {"name": "Dirk de Vries", "federation_number": "", "rating": "1450", "user": account.pk},
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    changed = entries(HistoryAction.PLAYER_CHANGE)
    assert sorted(entry.club_id for entry in changed) == sorted([club.pk, other_club.pk])
    assert changed[0].before == {"name": "Dirk", "rating": None, "username": None}
    assert changed[0].after == {"name": "Dirk de Vries", "rating": 1450, "username": "dirk"}

    # A player without games can be deleted; the clubs' history says who it was.
    response = admin_client.post(admin_url(Player, "delete", dirk.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=dirk.pk).exists()
    deleted = entries(HistoryAction.PLAYER_DELETE)
    assert len(deleted) == 2 and deleted[0].before["name"] == "Dirk de Vries"


def test_players_deleted_in_bulk_are_each_kept(admin_client, club):
    players = [PlayerFactory(name=name) for name in ("Els", "Frits")]
    for player in players:
        MembershipFactory(club=club, player=player)
    response = admin_client.post(
        admin_url(Player, "changelist"),
        {"action": "delete_selected", "post": "yes", "_selected_action": [p.pk for p in players]},
    )
    assert response.status_code == 302
    assert sorted(e.object_label for e in entries(HistoryAction.PLAYER_DELETE)) == [
        "Els",
        "Frits",
    ]


def test_a_competition_deleted_before_its_first_round_keeps_its_settings(admin_client, competition):
    response = admin_client.post(admin_url(Competition, "delete", competition.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not Competition.objects.filter(pk=competition.pk).exists()
    (entry,) = entries(HistoryAction.COMPETITION_DELETE)
    assert (entry.competition_id, entry.before["name"], entry.after) == (
        competition.pk,
        "Clubcompetitie",
        None,
    )


def test_a_competition_with_a_round_is_refused_and_nothing_is_kept(admin_client, competition):
    RoundFactory(competition=competition)
    page = admin_client.post(admin_url(Competition, "delete", competition.pk), {"post": "yes"})
    assert page.status_code == 200  # the admin lists what protects it
    assert Competition.objects.filter(pk=competition.pk).exists()
    assert not entries(HistoryAction.COMPETITION_DELETE)

    from competition.services.competitions import CompetitionHasRounds, competition_delete

    with pytest.raises(CompetitionHasRounds):
        competition_delete(competition=competition)
    assert not entries(HistoryAction.COMPETITION_DELETE)
