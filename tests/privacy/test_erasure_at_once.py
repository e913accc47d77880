"""One person erased twice at the same moment (two secretaries of the club, a person's two
tabs), on PostgreSQL, in threads with connections of their own: the person is erased once,
with one history entry per club, and the other request is told the data are erased already,
as when it came second. (On SQLite every write runs alone: config/settings.py.)"""

from __future__ import annotations

from functools import partial

from django.utils import translation

from clubs.history import HistoryAction, HistoryReason
from clubs.models import HistoryEntry, Membership, Player
from privacy.erasure import ErasureError, player_erase, player_erase_for_club
from tests.factories import MembershipFactory, PlayerFactory, secretary_of, user_in_club
from tests.test_lock_order import AT_ONCE_ON_POSTGRESQL, at_once

pytestmark = AT_ONCE_ON_POSTGRESQL

#: Persons erased twice at once, one after the other: each a fresh chance for the race.
RACES = 10
ERASED = "erased"


def _erased_or_refused(erase):
    """ERASED, or the refusal (in Dutch, as the person reads it)."""
    try:
        with translation.override("nl"):
            erase()
    except ErasureError as error:
        return error
    return ERASED


def _for_club(club, player_id: int, by):
    player = Player.objects.get(pk=player_id)
    return _erased_or_refused(lambda: player_erase_for_club(club=club, player=player, by=by))


def _member(club, name: str) -> Player:
    player = PlayerFactory(name=name)
    MembershipFactory(club=club, player=player)
    return player


def _erased_once(player_id: int, refusal, results: list) -> None:
    assert results.count(ERASED) == 1, results
    (refused,) = [result for result in results if result != ERASED]
    assert isinstance(refused, ErasureError), refused
    assert str(refused.message) == str(refusal.message)
    assert Player.objects.get(pk=player_id).erased_at is not None
    assert not Membership.objects.filter(player_id=player_id).exists()
    erasures = HistoryEntry.objects.filter(action=HistoryAction.PLAYER_ERASE, object_id=player_id)
    assert erasures.count() == 1


def test_two_secretaries_erasing_one_member_at_once_erase_once(club, secretary):
    other = secretary_of(club, username="secretaris2")
    # One after the other: the second secretary's page still showed the member.
    first = _member(club, "Vera")
    assert _for_club(club, first.pk, secretary) == ERASED
    after = _for_club(club, first.pk, other)
    assert isinstance(after, ErasureError)
    for race in range(RACES):
        player = _member(club, f"Lid {race}")
        results = at_once(
            partial(_for_club, club, player.pk, secretary),
            partial(_for_club, club, player.pk, other),
        )
        _erased_once(player.pk, after, results)


def _own(player_id: int):
    player = Player.objects.select_related("user").get(pk=player_id)
    return _erased_or_refused(
        lambda: player_erase(
            player=player, by=player.user, reason_code=HistoryReason.ERASE_OWN_REQUEST
        )
    )


def test_a_person_erasing_themself_from_two_tabs_at_once_is_erased_once(club):
    first = Player.objects.get(user=user_in_club(club, username="vera"))
    assert _own(first.pk) == ERASED
    after = _own(first.pk)
    assert isinstance(after, ErasureError)
    for race in range(RACES):
        player = Player.objects.get(user=user_in_club(club, username=f"lid{race}"))
        _erased_once(player.pk, after, at_once(partial(_own, player.pk), partial(_own, player.pk)))
