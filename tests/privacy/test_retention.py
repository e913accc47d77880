"""A club's retention period for former members: `manage.py privacy_retention` erases a
person once every club they left has kept them long enough, and never one still in a club."""

from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from clubs.history import HistoryAction
from clubs.models import Club, HistoryEntry, Membership, Player, Throttle, ThrottleScope
from clubs.services import membership_delete
from privacy.retention import months_after, retention_apply
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory

LEFT = datetime(2026, 1, 15, 20, 0, tzinfo=UTC)


@pytest.fixture
def gouda(db):
    return ClubFactory(slug="gouda", former_member_retention_months=12)


@pytest.fixture
def delft(db):
    return ClubFactory(slug="delft", former_member_retention_months=6)


def _member(*clubs: Club) -> Player:
    player = PlayerFactory(name="Anke de Vries")
    for club in clubs:
        MembershipFactory(club=club, player=player)
    return player


def _erased(player: Player) -> bool:
    return Player.objects.get(pk=player.pk).erased_at is not None


def _months_later(months: int, days: int = 0) -> datetime:
    """`months` (and `days`) after the last removal from a club."""
    entry = HistoryEntry.objects.filter(action=HistoryAction.MEMBERSHIP_REMOVE).latest("at")
    return months_after(entry.at, months) + timedelta(days=days)


def test_a_former_member_is_erased_once_the_period_has_passed(gouda):
    player = _member(gouda)
    membership_delete(Membership.objects.get(player=player), by=None)
    assert retention_apply(now=_months_later(12, days=-1)) == []
    assert not _erased(player)
    assert retention_apply(now=_months_later(12)) == [player.pk]
    assert _erased(player)
    entry = HistoryEntry.objects.get(action=HistoryAction.PLAYER_ERASE)
    assert (entry.club, entry.reason_code, entry.by) == (gouda, "erase_retention", None)
    assert retention_apply(now=_months_later(24)) == []  # run again: nobody twice


def test_a_person_still_in_any_club_is_never_erased(gouda, delft):
    player = _member(gouda, delft)
    membership_delete(Membership.objects.get(player=player, club=gouda), by=None)
    assert retention_apply(now=_months_later(120)) == []
    assert not _erased(player)


def test_every_club_left_must_have_kept_them_long_enough(gouda, delft):
    player = _member(gouda, delft)
    membership_delete(Membership.objects.get(player=player, club=delft), by=None)
    membership_delete(Membership.objects.get(player=player, club=gouda), by=None)
    assert retention_apply(now=_months_later(6)) == []  # delft's 6 months, not gouda's 12
    assert retention_apply(now=_months_later(12)) == [player.pk]


def test_a_club_without_a_period_keeps_its_former_members(gouda):
    keeper = ClubFactory(slug="houden", former_member_retention_months=None)
    player = _member(gouda, keeper)
    for membership in Membership.objects.filter(player=player):
        membership_delete(membership, by=None)
    assert retention_apply(now=_months_later(600)) == []


def test_a_player_who_left_no_club_on_record_is_kept(gouda):
    guest = PlayerFactory(name="Gast")
    assert retention_apply(now=LEFT + timedelta(days=10_000)) == []
    assert not _erased(guest)


def test_the_command_erases_and_says_whom(gouda):
    player = _member(gouda)
    membership_delete(Membership.objects.get(player=player), by=None)
    Club.objects.filter(pk=gouda.pk).update(former_member_retention_months=0)
    out = StringIO()
    call_command("privacy_retention", "--dry-run", stdout=out)
    assert out.getvalue().strip() == f"1 former member(s) due: #{player.pk}"
    assert not _erased(player)
    call_command("privacy_retention", stdout=out)
    assert _erased(player)


def test_quiet_throttle_counts_are_deleted(db):
    now = LEFT
    for name, age in (("oud", timedelta(days=2)), ("nieuw", timedelta(hours=2))):
        Throttle.objects.create(
            scope=ThrottleScope.LOGIN_ACCOUNT,
            subject=name,
            address="192.0.2.7",
            failures=3,
            last_failure_at=now - age,
        )
    retention_apply(now=now)
    assert list(Throttle.objects.values_list("subject", flat=True)) == ["nieuw"]


def test_the_secretary_sets_the_period_on_the_club_settings(client, gouda):
    from django.urls import reverse

    from tests.factories import secretary_of

    client.force_login(secretary_of(gouda, username="sietske"))
    address = reverse("club_settings", kwargs={"club": gouda.slug})
    assert 'name="former_member_retention_months"' in client.get(address).content.decode()
    for wrong in ("-1", "twaalf", "1201", "12.5"):
        response = client.post(
            address, {"slip_notation": gouda.slip_notation, "former_member_retention_months": wrong}
        )
        assert response.status_code == 200  # the form again, with the error
        assert Club.objects.get(pk=gouda.pk).former_member_retention_months == 12
    posted = {"slip_notation": gouda.slip_notation, "former_member_retention_months": "24"}
    assert client.post(address, posted).status_code == 302
    assert Club.objects.get(pk=gouda.pk).former_member_retention_months == 24
    entry = HistoryEntry.objects.get(action=HistoryAction.CLUB_CHANGE)
    assert (entry.before, entry.after) == (
        {"former_member_retention_months": 12},
        {"former_member_retention_months": 24},
    )
    posted["former_member_retention_months"] = ""  # empty: keep
    assert client.post(address, posted).status_code == 302
    assert Club.objects.get(pk=gouda.pk).former_member_retention_months is None
