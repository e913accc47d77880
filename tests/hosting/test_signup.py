"""A club signs itself up: the form, the mailed link (through a real SMTP server,
tests/mail.py), the club made in one piece or not at all, and the same answer whatever
the address."""

import time
from urllib.parse import urlparse

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import Club, ClubStatus, HistoryEntry, Membership, Player, Throttle
from hosting.models import SignUp

# The mail goes out after the transaction commits: these tests commit.
pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "lange-letters-zijn-fijn"
FORM = {
    "club_name": "De Woordzoekers",
    "city": "Leiden",
    "secretary_name": "Anke de Vries",
    "email": "Anke@Example.nl",
    "password1": PASSWORD,
    "password2": PASSWORD,
}


def path_of(link: str) -> str:
    return urlparse(link).path


def nothing_made() -> bool:
    return (
        not get_user_model().objects.exists()
        and not Player.objects.exists()
        and not Club.objects.exists()
        and not HistoryEntry.objects.exists()
    )


def test_a_club_signs_up_confirms_and_lands_on_its_first_steps(client, smtp, settings):
    settings.SIGNUP_MODE = "open"
    response = client.post(reverse("signup"), FORM)
    assert response.status_code == 302 and response.url == reverse("signup_sent")
    assert nothing_made()
    link = smtp.link("anke@example.nl", containing="/aanmelden/bevestigen/")

    shown = client.get(path_of(link))
    assert shown.status_code == 200 and "De Woordzoekers" in shown.content.decode()
    assert nothing_made(), "opening the link (a mail program's preview) makes nothing"

    made = client.post(path_of(link))
    club = Club.objects.get()
    assert made.status_code == 302
    assert made.url == reverse("first_steps", kwargs={"club": club.slug})
    assert (club.name, club.slug, club.city, club.status) == (
        "De Woordzoekers",
        "de-woordzoekers",
        "Leiden",
        ClubStatus.ACTIVE,
    )
    user = get_user_model().objects.get()
    assert (user.username, user.email) == ("anke@example.nl", "Anke@Example.nl")
    assert user.check_password(PASSWORD)
    membership = Membership.objects.get()
    assert (membership.player.name, membership.player.user, membership.role) == (
        "Anke de Vries",
        user,
        Membership.Role.SECRETARY,
    )
    (entry,) = HistoryEntry.objects.all()
    assert (entry.action, entry.club, entry.by) == (HistoryAction.CLUB_SIGNUP, club, user)
    assert not SignUp.objects.exists()

    steps = client.get(made.url)
    assert steps.status_code == 200, "the secretary is logged in"
    assert 'id="step-competition"' in steps.content.decode()

    # The login page takes the address however it is written.
    client.logout()
    assert (
        client.post(
            reverse("login"), {"username": "ANKE@example.nl", "password": PASSWORD}
        ).status_code
        == 302
    )


def test_a_link_works_once(client, smtp, settings):
    client.post(reverse("signup"), FORM)
    link = path_of(smtp.link("anke@example.nl"))
    client.post(link)
    client.logout()
    again = client.post(link)
    assert again.status_code == 200
    assert "al gebruikt" in again.content.decode()
    assert Club.objects.count() == 1 and get_user_model().objects.count() == 1
    assert client.get(link).status_code == 200


def test_an_expired_link_makes_nothing(client, smtp, settings, monkeypatch):
    real_time = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real_time() - 49 * 3600)
    client.post(reverse("signup"), FORM)
    monkeypatch.setattr(signing.time, "time", real_time)
    link = path_of(smtp.link("anke@example.nl"))
    for method in (client.get, client.post):
        response = method(link)
        assert response.status_code == 200 and "verlopen" in response.content.decode()
    assert nothing_made()


@pytest.mark.parametrize("token", ["nonsense", "a" * 3000, "eyJpZCI6MX0:1abc:xyz", "%00"])
def test_a_forged_or_mangled_link_is_refused_clearly(client, token):
    response = client.post(f"/aanmelden/bevestigen/{token}/")
    assert response.status_code in (200, 404)
    assert nothing_made()


def test_a_club_name_taken_between_sign_up_and_confirmation_makes_nothing(client, smtp):
    client.post(reverse("signup"), FORM)
    link = path_of(smtp.link("anke@example.nl"))
    Club.objects.create(name="de woordzoekers", slug="elders")
    response = client.post(link)
    assert response.status_code == 200
    assert "in de tussentijd" in response.content.decode()
    assert Club.objects.count() == 1
    assert not get_user_model().objects.exists() and not Player.objects.exists()
    assert not HistoryEntry.objects.exists()
    assert SignUp.objects.count() == 1, "the sign-up waits: its link can say so again"


def test_a_club_name_taken_is_said_at_sign_up(client, smtp):
    Club.objects.create(name="De Woordzoekers", slug="dw")
    response = client.post(reverse("signup"), {**FORM, "club_name": "DE-WOORDZOEKERS "})
    assert response.status_code == 200
    assert "Er staat al een club met deze naam" in response.content.decode()
    assert not SignUp.objects.exists() and smtp.messages == []


def test_an_address_with_an_account_gets_the_same_answer_and_a_mail_saying_so(client, smtp):
    get_user_model().objects.create_user("anke", email="anke@example.nl", password="x")
    response = client.post(reverse("signup"), FORM)
    assert response.status_code == 302 and response.url == reverse("signup_sent")
    assert not SignUp.objects.exists()
    (message,) = smtp.to("anke@example.nl")
    text = smtp.text(message)
    assert "/accounts/login/" in text and "/accounts/password_reset/" in text
    assert "bevestigen" not in text


def test_a_second_sign_up_for_an_address_replaces_the_first(client, smtp):
    client.post(reverse("signup"), FORM)
    first = path_of(smtp.link("anke@example.nl"))
    Throttle.objects.all().delete()
    client.post(reverse("signup"), {**FORM, "email": "ANKE@example.NL", "club_name": "Anders"})
    second = path_of(smtp.link("anke@example.nl"))
    assert SignUp.objects.get().club_name == "Anders"
    assert "al gebruikt" in client.post(first).content.decode()
    assert nothing_made()
    client.post(second)
    assert Club.objects.get().name == "Anders"


def test_the_database_keeps_one_sign_up_per_address_case_ignored():
    SignUp.objects.create(email="anke@example.nl", club_name="A", secretary_name="A", key="1")
    with pytest.raises(IntegrityError), transaction.atomic():
        SignUp.objects.create(email="ANKE@example.nl", club_name="B", secretary_name="B", key="2")


def test_sign_ups_are_throttled_per_address_typed(client, smtp):
    for _ in range(3):
        assert client.post(reverse("signup"), FORM).status_code == 302
    response = client.post(reverse("signup"), FORM)
    assert response.status_code == 429
    assert "Te veel aanmeldingen" in response.content.decode()
    assert len(smtp.to("anke@example.nl")) == 3


LONG = "x" * 10_000


@pytest.mark.parametrize(
    "field, value",
    [
        ("club_name", LONG),
        ("secretary_name", LONG),
        ("city", LONG),
        ("email", LONG + "@example.nl"),
        ("password1", LONG),
        ("club_name", "Club\x00"),
        ("secretary_name", "An\u202ekE"),
        ("email", "geen-adres"),
        ("password1", "12345678"),
        ("club_name", ""),
    ],
)
def test_bad_input_gets_a_message_and_makes_nothing(client, smtp, field, value):
    data = {**FORM, field: value}
    if field == "password1":
        data["password2"] = value
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200
    assert 'class="invalid-feedback' in response.content.decode()
    assert not SignUp.objects.exists() and smtp.messages == []


def test_names_in_any_script(client, smtp, settings):
    settings.SIGNUP_MODE = "open"
    data = {
        **FORM,
        "club_name": "Σύλλογος Λέξεων 東京",
        "city": "Αθήνα",
        "secretary_name": "Ελένη Παπαδοπούλου",
        "email": "eleni@παράδειγμα.gr",
    }
    assert client.post(reverse("signup"), data).status_code == 302
    # Django's SMTP backend writes the domain in its ASCII form (IDNA) on the envelope.
    client.post(path_of(smtp.link("eleni@" + "παράδειγμα.gr".encode("idna").decode())))
    club = Club.objects.get()
    assert (club.name, club.slug) == ("Σύλλογος Λέξεων 東京", "club")
    assert client.get(reverse("first_steps", kwargs={"club": "club"})).status_code == 200


def test_approve_mode_makes_a_pending_club_that_says_so(client, smtp, settings):
    settings.SIGNUP_MODE = "approve"
    page = client.get(reverse("signup"))
    assert 'id="approval-note"' in page.content.decode()
    client.post(reverse("signup"), FORM)
    made = client.post(path_of(smtp.link("anke@example.nl")))
    assert Club.objects.get().status == ClubStatus.PENDING
    steps = client.get(made.url).content.decode()
    assert 'id="pending-note"' in steps
    assert "De Woordzoekers" not in client.get(reverse("home")).content.decode()


def test_invite_mode_needs_the_operators_invitation(client, smtp, settings, django_user_model):
    settings.SIGNUP_MODE = "invite"
    closed = client.post(reverse("signup"), FORM)
    assert 'id="signup-closed"' in closed.content.decode()
    assert not SignUp.objects.exists()
    assert (
        'id="signup-closed"' in client.get(reverse("signup") + "?uitnodiging=vals").content.decode()
    )

    operator = django_user_model.objects.create_user("beheerder", password="x")
    assert client.get(reverse("signup_invite")).status_code == 302  # log in first
    client.force_login(operator)
    assert client.get(reverse("signup_invite")).status_code == 403
    from django.contrib.auth.models import Permission

    operator.user_permissions.add(Permission.objects.get(codename="operate_service"))
    sent = client.post(reverse("signup_invite"), {"email": "anke@example.nl"})
    assert sent.status_code == 302
    from hosting.models import SignUpInvitation

    invitation = SignUpInvitation.objects.get()
    assert (invitation.email, invitation.by) == ("anke@example.nl", operator)
    client.logout()

    link = smtp.link("anke@example.nl", containing="uitnodiging=")
    url = urlparse(link)
    page = client.get(f"{url.path}?{url.query}")
    assert 'id="signup-form"' in page.content.decode()
    token = page.context["invitation"]
    # The address is the invited one, whatever is posted.
    client.post(reverse("signup"), {**FORM, "email": "ander@example.nl", "uitnodiging": token})
    assert SignUp.objects.get().email == "anke@example.nl"
    client.post(path_of(smtp.link("anke@example.nl", containing="bevestigen")))
    assert Club.objects.get().status == ClubStatus.ACTIVE


def test_the_english_pages(client, smtp):
    client.cookies["django_language"] = "en"
    client.post(reverse("signup"), FORM)
    (message,) = smtp.to("anke@example.nl")
    assert message["Subject"] == "Confirm the sign-up of De Woordzoekers"
    link = path_of(smtp.link("anke@example.nl"))
    client.post(link)
    client.logout()  # which forgets every cookie, the language's too
    client.cookies["django_language"] = "en"
    assert "has been used already" in client.post(link).content.decode()


def test_a_mail_server_that_refuses_changes_no_answer(client, settings, caplog):
    """Nothing listens on the port: the sign-up is kept and the page says the same; the
    failure is logged for the operator."""
    from tests.mail import free_port

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()
    settings.MAIL_CONFIGURED = True
    response = client.post(reverse("signup"), FORM)
    assert response.status_code == 302 and response.url == reverse("signup_sent")
    assert SignUp.objects.count() == 1
    assert "could not be sent" in caplog.text


def test_a_short_name_is_free_and_no_page_of_the_site():
    from hosting.services import club_slug_for

    Club.objects.create(name="De Woordzoekers", slug="de-woordzoekers")
    assert club_slug_for("De Woordzoekers!") == "de-woordzoekers-2"
    assert club_slug_for("Aanmelden") == "aanmelden-2", "/aanmelden/ is the sign-up page"
    assert club_slug_for("東京") == "club"
    assert len(club_slug_for("Lang " * 100)) <= 50
