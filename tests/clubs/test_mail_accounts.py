"""Accounts by e-mail, through a real SMTP server (tests/mail.py): a new password, a player
invited by mail, a changed address confirmed from the new address. Each test reads the
link from the message the server received and follows it."""

import time
from urllib.parse import urlparse

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import HistoryEntry, Throttle
from tests.factories import PASSWORD, ClubFactory, MembershipFactory, PlayerFactory, secretary_of

# Mails go out after the transaction commits: these tests commit.
pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "Nieuw-en-lang-2026"


def path_of(link: str) -> str:
    return urlparse(link).path


def reset_password(client, smtp, address: str) -> str:
    """Ask for a new password for `address`, follow the mailed link, choose NEW_PASSWORD;
    the username the link was for."""
    response = client.post(reverse("password_reset"), {"email": address})
    assert response.status_code == 302
    link = path_of(smtp.link(address, containing="/accounts/reset/"))
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.status_code == 302 and done.url == reverse("password_reset_complete")
    return link


@pytest.mark.parametrize(
    "fields, typed",
    [
        ({"username": "anke@example.nl", "email": "anke@example.nl"}, "Anke@Example.NL"),
        ({"username": "anke", "email": "anke@example.nl"}, "anke@example.nl"),
        ({"username": "anke@example.nl", "email": ""}, "anke@example.nl"),  # an admin's
    ],
    ids=["signed-up", "existing-with-address", "username-is-address"],
)
def test_a_new_password_by_mail(client, smtp, fields, typed):
    user = get_user_model().objects.create_user(**fields, password=PASSWORD)
    reset_password(client, smtp, typed)
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert user.email == fields["email"], "the address is not changed by the reset"


def test_a_reset_link_works_once(client, smtp):
    get_user_model().objects.create_user("anke", email="anke@example.nl", password=PASSWORD)
    link = reset_password(client, smtp, "anke@example.nl")
    again = client.get(link, follow=True)
    assert "new_password1" not in again.content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, smtp):
    response = client.post(reverse("password_reset"), {"email": "niemand@example.nl"})
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    assert smtp.messages == []


def test_reset_mails_are_throttled_per_address_typed(client, smtp):
    get_user_model().objects.create_user("anke", email="anke@example.nl", password=PASSWORD)
    for _ in range(3):
        assert (
            client.post(reverse("password_reset"), {"email": "anke@example.nl"}).status_code == 302
        )
    response = client.post(reverse("password_reset"), {"email": "ANKE@example.nl"})
    assert response.status_code == 429 and "Te veel mails" in response.content.decode()
    assert len(smtp.to("anke@example.nl")) == 3


# A player invited by mail


def test_a_secretary_mails_an_invitation_and_the_player_makes_an_account(client, smtp):
    club = ClubFactory(name="De Goudse Letters", slug="gouda")
    client.force_login(secretary_of(club, username="secretaris"))
    cor = PlayerFactory(name="Cor Cornelissen")
    MembershipFactory(club=club, player=cor)
    page = client.post(reverse("club_players", args=[club.slug]), {"player": cor.pk})
    code = page.context["invitation"].code
    assert 'id="invite-mail"' in page.content.decode()
    sent = client.post(
        reverse("invite_mail", args=[club.slug, cor.pk]), {"code": code, "email": "cor@example.nl"}
    )
    assert sent.status_code == 302
    (entry,) = HistoryEntry.objects.filter(action=HistoryAction.PLAYER_INVITE_MAIL)
    assert (entry.object_id, entry.after) == (cor.pk, {"email": "cor@example.nl"})
    client.logout()

    link = path_of(smtp.link("cor@example.nl", containing="/accounts/uitnodiging/"))
    assert client.post(link, {"code": code}).status_code == 302
    made = client.post(
        reverse("invite_account"),
        {"username": "cor", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert made.status_code == 302
    cor.refresh_from_db()
    assert cor.user.username == "cor"


def test_a_code_not_open_is_not_mailed(client, smtp):
    club = ClubFactory(slug="gouda")
    client.force_login(secretary_of(club))
    cor = PlayerFactory()
    MembershipFactory(club=club, player=cor)
    response = client.post(
        reverse("invite_mail", args=[club.slug, cor.pk]),
        {"code": "ABCD-EFGH", "email": "cor@example.nl"},
        follow=True,
    )
    assert "niet meer open" in response.content.decode()
    assert smtp.messages == [] and not HistoryEntry.objects.exists()


def test_only_the_clubs_secretary_mails_invitations(client, smtp):
    club, other = ClubFactory(slug="gouda"), ClubFactory(slug="elders")
    client.force_login(secretary_of(other))
    cor = PlayerFactory()
    MembershipFactory(club=club, player=cor)
    url = reverse("invite_mail", args=[club.slug, cor.pk])
    assert client.post(url, {"code": "ABCDEFGH", "email": "cor@example.nl"}).status_code == 403
    assert smtp.messages == []


def test_invitation_mails_are_throttled(client, smtp):
    club = ClubFactory(slug="gouda")
    client.force_login(secretary_of(club))
    cor = PlayerFactory()
    MembershipFactory(club=club, player=cor)
    for _ in range(4):
        page = client.post(reverse("club_players", args=[club.slug]), {"player": cor.pk})
        code = page.context["invitation"].code
        response = client.post(
            reverse("invite_mail", args=[club.slug, cor.pk]),
            {"code": code, "email": "cor@example.nl"},
            follow=True,
        )
    assert "Te veel mails" in response.content.decode()
    assert len(smtp.to("cor@example.nl")) == 3


# A changed address


def change_address(client, smtp, new: str) -> str:
    response = client.post(reverse("account"), {"email": new, "password": PASSWORD})
    assert response.status_code == 302
    return path_of(smtp.link(new, containing="/accounts/e-mail/"))


def test_a_changed_address_is_confirmed_from_the_new_address(client, smtp):
    club = ClubFactory(slug="gouda")
    user = secretary_of(club, username="anke@example.nl", email="anke@example.nl")
    client.force_login(user)
    assert client.get(reverse("account")).status_code == 200
    link = change_address(client, smtp, "Anke@Nieuw.nl")
    user.refresh_from_db()
    assert user.email == "anke@example.nl", "nothing changes before the link is followed"

    shown = client.get(link)
    assert "Anke@Nieuw.nl" in shown.content.decode()
    user.refresh_from_db()
    assert user.email == "anke@example.nl", "opening the link changes nothing"

    assert client.post(link).status_code == 302
    user.refresh_from_db()
    assert (user.email, user.username) == ("Anke@Nieuw.nl", "anke@nieuw.nl")
    (entry,) = HistoryEntry.objects.filter(action=HistoryAction.ACCOUNT_EMAIL)
    assert (entry.before, entry.after) == ({"email": "anke@example.nl"}, {"email": "Anke@Nieuw.nl"})

    again = client.post(link)
    assert again.status_code == 200 and 'id="email-change-failed"' in again.content.decode()
    assert HistoryEntry.objects.filter(action=HistoryAction.ACCOUNT_EMAIL).count() == 1


def test_a_username_of_its_own_is_kept(client, smtp):
    user = get_user_model().objects.create_user("anke", email="anke@example.nl", password=PASSWORD)
    client.force_login(user)
    client.post(change_address(client, smtp, "anke@nieuw.nl"))
    user.refresh_from_db()
    assert (user.username, user.email) == ("anke", "anke@nieuw.nl")


def test_a_wrong_password_changes_nothing_and_mails_nothing(client, smtp):
    user = get_user_model().objects.create_user("anke", email="anke@example.nl", password=PASSWORD)
    client.force_login(user)
    response = client.post(reverse("account"), {"email": "anke@nieuw.nl", "password": "fout"})
    assert response.status_code == 200 and "niet je wachtwoord" in response.content.decode()
    assert smtp.messages == []


def test_an_address_of_another_account_is_not_given_away(client, smtp):
    get_user_model().objects.create_user("bert", email="bert@example.nl", password=PASSWORD)
    user = get_user_model().objects.create_user("anke", email="anke@example.nl", password=PASSWORD)
    client.force_login(user)
    response = client.post(reverse("account"), {"email": "bert@example.nl", "password": PASSWORD})
    assert response.status_code == 302, "the same answer as for a free address"
    (message,) = smtp.to("bert@example.nl")
    assert "/accounts/e-mail/" not in smtp.text(message)
    user.refresh_from_db()
    assert user.email == "anke@example.nl"


def test_an_address_taken_after_the_link_was_mailed_is_refused(client, smtp):
    user = get_user_model().objects.create_user("anke", email="anke@example.nl", password=PASSWORD)
    client.force_login(user)
    link = change_address(client, smtp, "gedeeld@example.nl")
    get_user_model().objects.create_user("bert", email="gedeeld@example.nl", password=PASSWORD)
    response = client.post(link)
    assert 'id="email-change-failed"' in response.content.decode()
    user.refresh_from_db()
    assert user.email == "anke@example.nl"


def test_an_expired_change_link_changes_nothing(client, smtp, monkeypatch):
    user = get_user_model().objects.create_user("anke", email="anke@example.nl", password=PASSWORD)
    client.force_login(user)
    real_time = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real_time() - 49 * 3600)
    link = change_address(client, smtp, "anke@nieuw.nl")
    monkeypatch.setattr(signing.time, "time", real_time)
    assert 'id="email-change-failed"' in client.post(link).content.decode()
    user.refresh_from_db()
    assert user.email == "anke@example.nl"


def test_address_changes_are_throttled(client, smtp):
    user = get_user_model().objects.create_user("anke", email="anke@example.nl", password=PASSWORD)
    client.force_login(user)
    for _ in range(3):
        client.post(reverse("account"), {"email": "anke@nieuw.nl", "password": PASSWORD})
    response = client.post(reverse("account"), {"email": "anke@nieuw.nl", "password": PASSWORD})
    assert response.status_code == 429
    assert len(smtp.to("anke@nieuw.nl")) == 3
    assert Throttle.objects.exists()
