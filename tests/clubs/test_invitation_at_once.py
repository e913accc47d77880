"""One invitation code used by two people at the same moment (a code read aloud at the club,
a link opened in two tabs), on PostgreSQL, in threads with connections of their own: one
account is made and tied to the member; the other is told the invitation is no longer
valid, as when it came second, and no second account is made. (On SQLite every write runs
alone: config/settings.py.)"""

from __future__ import annotations

from functools import partial

from django.contrib.auth import get_user_model
from django.utils import translation

from clubs.accounts import AccountError, account_create_from_invite, player_invite
from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Player
from tests.factories import MembershipFactory, PlayerFactory
from tests.test_lock_order import AT_ONCE_ON_POSTGRESQL, at_once

pytestmark = AT_ONCE_ON_POSTGRESQL

#: Codes used twice at once, one after the other: each a fresh chance for the race.
RACES = 10
PASSWORD = "Zeven-Letters-2026"


def _invited(club, secretary, name: str) -> tuple[Player, str]:
    player = PlayerFactory(name=name)
    MembershipFactory(club=club, player=player)
    return player, player_invite(club=club, player=player, by=secretary).code


def _use(code: str, username: str):
    """The new account, or the refusal (in Dutch, as the person reads it)."""
    try:
        with translation.override("nl"):
            return account_create_from_invite(code=code, username=username, password=PASSWORD)
    except AccountError as error:
        return error


def test_one_code_used_twice_at_once_makes_one_account(club, secretary):
    users = get_user_model().objects
    # One after the other: the second hears this.
    _player, code = _invited(club, secretary, "Vera")
    assert not isinstance(_use(code, "vera"), AccountError)
    after = _use(code, "vera-2")
    assert isinstance(after, AccountError)
    for race in range(RACES):
        player, code = _invited(club, secretary, f"Speler {race}")
        names = (f"speler{race}", f"speler{race}-tab")
        results = at_once(partial(_use, code, names[0]), partial(_use, code, names[1]))
        refusals = [result for result in results if isinstance(result, AccountError)]
        assert len(refusals) == 1, results
        assert str(refusals[0].message) == str(after.message)
        (made,) = [result for result in results if not isinstance(result, AccountError)]
        player.refresh_from_db()
        assert player.user == made and player.invite_code_hash == ""
        assert not users.filter(username__in=names).exclude(pk=made.pk).exists()
        created = HistoryEntry.objects.filter(
            action=HistoryAction.ACCOUNT_CREATE, object_id=player.pk
        )
        assert created.count() == 1
