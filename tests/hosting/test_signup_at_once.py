"""Two clicks at once on PostgreSQL, in two threads with connections of their own: two
sign-ups for one address leave one sign-up, two confirmations of one link make one club.
Whatever the order the database lets them run in, the outcome is the same."""

import threading

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from clubs.locks import club_names_lock
from clubs.models import Club, Membership, Player
from hosting.models import SignUp
from hosting.services import USED, SignUpError, signup_confirm, signup_request
from tests.test_lock_order import AT_ONCE_ON_POSTGRESQL, at_once

pytestmark = AT_ONCE_ON_POSTGRESQL

FORM = {
    "club_name": "De Woordzoekers",
    "city": "Leiden",
    "secretary_name": "Anke",
    "password": "lange-letters-zijn-fijn",
}


def test_two_sign_ups_for_one_address_at_once_leave_one():
    results = at_once(
        lambda: signup_request(email="anke@example.nl", **FORM),
        lambda: signup_request(email="ANKE@example.nl", **FORM),
    )
    assert not any(isinstance(result, BaseException) for result in results), results
    assert SignUp.objects.count() == 1
    waiting = SignUp.objects.get()
    tokens = [
        result.token for result in results if result.signup and result.signup.pk == waiting.pk
    ]
    assert len(tokens) == 1, "the sign-up that stayed has its link"


def test_one_link_confirmed_twice_at_once_makes_one_club():
    token = signup_request(email="anke@example.nl", **FORM).token
    results = at_once(lambda: signup_confirm(token), lambda: signup_confirm(token))
    errors = [result for result in results if isinstance(result, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], SignUpError), results
    # What the second click hears one after the other: the link is used.
    assert str(errors[0].message) == str(USED)
    assert Club.objects.count() == Player.objects.count() == Membership.objects.count() == 1
    assert get_user_model().objects.count() == 1
    assert not SignUp.objects.exists()


def test_two_clubs_of_one_name_confirmed_at_once_make_one():
    first = signup_request(email="anke@example.nl", **FORM).token
    second = signup_request(email="bert@example.nl", **FORM).token
    results = at_once(lambda: signup_confirm(first), lambda: signup_confirm(second))
    errors = [result for result in results if isinstance(result, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], SignUpError), results
    assert Club.objects.count() == 1 and get_user_model().objects.count() == 1
    assert Player.objects.count() == 1


def test_a_confirmation_waits_for_a_club_of_its_name_still_being_made():
    """The window the test above hits only now and then, held open: another club of the
    name is made (under another short name) and not yet committed while the link is
    followed. The name's check must wait for it, not pass and make a second club."""
    token = signup_request(email="bert@example.nl", **FORM).token
    made, release = threading.Event(), threading.Event()

    def make_the_other_club():
        try:
            with transaction.atomic():
                club_names_lock()
                Club.objects.create(name=FORM["club_name"], slug="woordzoekers-leiden")
                made.set()
                release.wait(30)
        finally:
            connection.close()

    other = threading.Thread(target=make_the_other_club)
    other.start()
    assert made.wait(30)
    threading.Timer(1, release.set).start()  # commits while the confirmation is waiting
    try:
        signup_confirm(token)
    except SignUpError as error:
        refused = error
    else:
        refused = None
    other.join(30)
    assert refused is not None, "a second club of one name was made"
    assert "in de tussentijd aangemeld" in str(refused.message)
    assert list(Club.objects.values_list("slug", flat=True)) == ["woordzoekers-leiden"]
    assert SignUp.objects.count() == 1, "the sign-up is kept, to sign up again"
