"""The throttle's waits (clubs/throttle.py): free failures, then a minute, doubling, capped,
forgotten after a quiet day; keys that never reach another address. The clock is passed."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from clubs.models import Throttle, ThrottleScope
from clubs.throttle import (
    Policy,
    invite_keys,
    login_keys,
    throttle_clear,
    throttle_fail,
    throttle_wait,
)


def test_waits_start_at_the_limit_double_and_stop_at_the_longest():
    policy = Policy(limit=3, longest_wait=timedelta(minutes=10))
    waits = [policy.wait(failures).total_seconds() / 60 for failures in range(1, 9)]
    # failures 1, 2 free; 3 -> 1; 4 -> 2; 5 -> 4; 6 -> 8; 7 -> 16 capped to 10; 8 -> 10
    assert waits == [0, 0, 1, 2, 4, 8, 10, 10]
    assert policy.wait(10**9) == timedelta(minutes=10)  # no overflow however many


def test_keys_hold_the_address_and_fold_the_case():
    assert login_keys(username="Anke", address="10.0.0.1") == login_keys(
        username="anke", address="10.0.0.1"
    )
    account, address = login_keys(username="Anke", address="10.0.0.1")
    assert (account.scope, account.subject) == ("login.account", "anke")
    assert account.address == "10.0.0.1"
    assert (address.scope, address.subject) == ("login.address", "")
    assert [key.scope for key in invite_keys(player_id=7, address="x")] == [
        "invite.player",
        "invite.address",
    ]
    assert [key.scope for key in invite_keys(player_id=None, address="x")] == ["invite.address"]
    odd = login_keys(username="a\x00" + "b" * 500, address="1" * 500)[0]
    assert "\x00" not in odd.subject and len(odd.subject) == 150 and len(odd.address) == 64


@pytest.mark.django_db
def test_failures_bring_growing_waits_that_end_by_themselves(settings):
    settings.THROTTLE_LIMITS = {**settings.THROTTLE_LIMITS, "invite.player": 3}
    keys = invite_keys(player_id=1, address="10.0.0.1")[:1]
    start = timezone.now()
    assert [throttle_fail(keys, now=start) for _ in range(2)] == [0, 0]
    assert throttle_wait(keys, now=start) == 0
    assert throttle_fail(keys, now=start) == 1
    assert throttle_wait(keys, now=start + timedelta(seconds=59)) == 1
    later = start + timedelta(seconds=61)
    assert throttle_wait(keys, now=later) == 0
    assert throttle_fail(keys, now=later) == 2  # doubled
    much_later = later + timedelta(minutes=2, seconds=1)
    assert throttle_fail(keys, now=much_later) == 4
    # A quiet day forgets them: the next failure is the first again.
    next_day = much_later + timedelta(days=1, seconds=1)
    assert throttle_fail(keys, now=next_day) == 0
    assert Throttle.objects.get().failures == 1


@pytest.mark.django_db
def test_the_longest_key_decides_and_a_success_clears_only_its_own(settings):
    settings.THROTTLE_LIMITS = {**settings.THROTTLE_LIMITS, "login.account": 1, "login.address": 2}
    now = timezone.now()
    keys = login_keys(username="anke", address="10.0.0.1")
    assert throttle_fail(keys, now=now) == 1  # account: 1st failure = limit
    assert throttle_fail(keys, now=now) == 2  # account 2nd (2 min); address 2nd (1 min)
    throttle_clear(keys[:1])
    assert list(Throttle.objects.values_list("scope", "failures")) == [
        (ThrottleScope.LOGIN_ADDRESS, 2)
    ]
    assert throttle_wait(keys, now=now) == 1
    # Another address shares no key with these.
    assert throttle_wait(login_keys(username="anke", address="10.0.0.2"), now=now) == 0


@pytest.mark.django_db
def test_throttle_reset_lifts_the_waits_of_a_username_or_an_address(settings):
    settings.THROTTLE_LIMITS = {**settings.THROTTLE_LIMITS, "login.account": 1}
    for address in ("10.0.0.1", "10.0.0.2"):
        throttle_fail(login_keys(username="anke", address=address))
    throttle_fail(login_keys(username="bert", address="10.0.0.3"))
    call_command("throttle_reset", username="Anke", stdout=StringIO())
    assert set(Throttle.objects.values_list("scope", "subject")) == {
        ("login.address", ""),
        ("login.account", "bert"),
    }
    call_command("throttle_reset", address="10.0.0.3", stdout=StringIO())
    assert not Throttle.objects.filter(address="10.0.0.3").exists()
    call_command("throttle_reset", stdout=StringIO())
    assert not Throttle.objects.exists()
