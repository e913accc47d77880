"""Safe by default: login throttling (growing waits per username and address, a looser cap
per address), the shared-device login, password rules, password reset only with mail,
a Content-Security-Policy the templates keep, Dutch error pages."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Throttle, ThrottleScope
from config.security import SHARED_SINCE
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
PASSWORD = "zeven-letters-blanco"


@pytest.fixture
def user():
    account = UserFactory(username="anke")
    account.set_password(PASSWORD)
    account.save()
    return account


def log_in(client: Client, password: str, *, address: str = "10.0.0.1"):
    return client.post(
        reverse("login"),
        {"username": "anke", "password": password},
        REMOTE_ADDR=address,
    )


WAIT = "Te veel mislukte pogingen. Probeer het over {} opnieuw."


def wait_passes() -> None:
    """As if every running wait had just ended (the failures stay counted)."""
    Throttle.objects.update(locked_until=timezone.now() - timedelta(seconds=1))


def test_wrong_passwords_bring_growing_waits_for_that_username_from_that_address(client, user):
    for _attempt in range(4):
        assert log_in(client, "fout").status_code == 200  # the form again, with its error
    waiting = log_in(client, "fout")
    assert waiting.status_code == 429
    text = waiting.content.decode()
    assert '<html lang="nl">' in text
    assert WAIT.format("1 minuut") in text
    assert 'name="username"' in text  # the form stays, to try again after the wait
    # Now even the right password is not tried from there...
    assert log_in(client, PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session
    # ...but the same person from another address is not held up.
    elsewhere = Client()
    assert log_in(elsewhere, PASSWORD, address="10.0.0.2").status_code == 302
    assert int(elsewhere.session["_auth_user_id"]) == user.pk
    # After the wait a further wrong password doubles it, and again.
    wait_passes()
    assert WAIT.format("2 minuten") in log_in(client, "fout").content.decode()
    wait_passes()
    assert WAIT.format("4 minuten") in log_in(client, "fout").content.decode()


def test_after_the_wait_the_right_password_works_and_resets_the_count(client, user):
    for _attempt in range(5):
        log_in(client, "fout")
    assert log_in(client, PASSWORD).status_code == 429
    Throttle.objects.update(
        locked_until=F("locked_until") - timedelta(minutes=1),
        last_failure_at=F("last_failure_at") - timedelta(minutes=1),
    )
    assert log_in(client, PASSWORD).status_code == 302
    assert int(client.session["_auth_user_id"]) == user.pk
    client.logout()
    for _attempt in range(4):
        assert log_in(client, "fout").status_code == 200
    # The address's own count across usernames is not reset by a login.
    assert Throttle.objects.get(scope=ThrottleScope.LOGIN_ADDRESS).failures == 9


def test_many_usernames_from_one_address_are_slowed_but_not_the_secretary_elsewhere(
    client, user, settings
):
    limit = settings.THROTTLE_LIMITS["login.address"]
    for number in range(limit - 1):
        response = client.post(
            reverse("login"), {"username": f"lid{number}", "password": "x"}, REMOTE_ADDR="10.0.0.1"
        )
        assert response.status_code == 200
    assert log_in(client, "fout").status_code == 429  # the cap across usernames
    response = client.post(
        reverse("login"), {"username": "nog-een", "password": "x"}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 429
    assert log_in(Client(), PASSWORD, address="10.0.0.2").status_code == 302


def test_the_wait_does_not_say_whether_the_username_exists(client, user):
    def wait_text(username: str, address: str) -> str:
        for _attempt in range(5):
            response = Client().post(
                reverse("login"), {"username": username, "password": "fout"}, REMOTE_ADDR=address
            )
        assert response.status_code == 429
        return str(response.context["form"].non_field_errors())

    assert wait_text("anke", "10.0.0.5") == wait_text("niemand-heet-zo", "10.0.0.6")


def test_a_wait_in_english(english, user):
    for _attempt in range(5):
        response = log_in(english, "fout")
    assert response.status_code == 429
    assert "Too many failed attempts. Try again in 1 minute." in response.content.decode()


def test_the_admin_login_is_throttled_too(client, user):
    user.is_staff = True
    user.save()
    for _attempt in range(5):
        log_in(client, "fout")
    response = client.post(
        reverse("admin:login"),
        {"username": "anke", "password": PASSWORD, "next": "/admin/"},
        REMOTE_ADDR="10.0.0.1",
    )
    assert response.status_code == 200 and "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    "fields",
    [
        {"username": "a\x00b", "password": "x"},
        {"username": "x" * 5000, "password": "x"},
        {"username": "anke"},
        {"password": "x"},
        {"username": ["anke", "bert"], "password": ["x", "y"]},
        {"username": "anke", "password": "x", "shared_device": "ja\x00"},
    ],
)
def test_odd_logins_are_refused_cleanly(client, user, fields):
    response = client.post(reverse("login"), fields, REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_an_admin_lifts_a_wait_by_deleting_its_row(client, user, admin_client):
    for _attempt in range(5):
        log_in(client, "fout")
    row = Throttle.objects.get(scope=ThrottleScope.LOGIN_ACCOUNT)
    assert admin_client.get(reverse("admin:clubs_throttle_changelist")).status_code == 200
    response = admin_client.post(
        reverse("admin:clubs_throttle_delete", args=[row.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert log_in(client, PASSWORD).status_code == 302


# --- Shared device: until the browser closes, four hours at most ----------------------------


def log_in_shared(client: Client, *, shared: bool = True):
    fields = {"username": "anke", "password": PASSWORD}
    if shared:
        fields["shared_device"] = "on"
    response = client.post(reverse("login"), fields, REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 302
    return response


def move_login_back(client: Client, **delta) -> None:
    session = client.session
    session[SHARED_SINCE] -= int(timedelta(**delta).total_seconds())
    session.save()


def logged_in(client: Client) -> bool:
    return client.get(reverse("my_games")).status_code == 200


def test_the_login_page_offers_the_shared_device_choice(client):
    page = client.get(reverse("login")).content.decode()
    assert 'name="shared_device"' in page and "Gedeeld apparaat" in page
    assert "na 4 uur" in page


def test_a_shared_device_login_ends_with_the_browser_and_after_four_hours(client, user):
    response = log_in_shared(client)
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["max-age"] == "" and cookie["expires"] == ""  # gone when the browser closes
    assert client.session.get_expire_at_browser_close()
    move_login_back(client, hours=3, minutes=59)
    assert logged_in(client)
    move_login_back(client, minutes=1)
    key = client.session.session_key
    assert not logged_in(client)
    assert not Session.objects.filter(session_key=key).exists()


def test_without_the_tick_the_login_stays_as_before(client, user):
    response = log_in_shared(client, shared=False)
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) == settings.SESSION_COOKIE_AGE == 14 * 24 * 3600
    assert SHARED_SINCE not in client.session
    assert logged_in(client)


def test_a_later_login_without_the_tick_lifts_the_shared_limit(client, user):
    log_in_shared(client)
    log_in_shared(client, shared=False)
    assert SHARED_SINCE not in client.session
    assert not client.session.get_expire_at_browser_close()


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("9283746501", "password_entirely_numeric"),
        ("٣٤٥٦٧٨٩٠١٢", "password_entirely_numeric"),
        ("kort", "password_too_short"),
        ("wachtwoord", "password_too_common"),
    ],
)
def test_weak_passwords_are_refused(password, code):
    with pytest.raises(ValidationError) as refused:
        validate_password(password)
    assert code in {error.code for error in refused.value.error_list}


def test_a_good_password_passes():
    validate_password("scrabble-op-dinsdag-8")


def test_without_mail_no_password_reset(client, settings):
    settings.MAIL_CONFIGURED = False
    page = client.get(reverse("login")).content.decode()
    assert "Vraag de secretaris van je club om een nieuw wachtwoord in te stellen" in page
    assert reverse("password_reset") not in page
    assert client.get(reverse("password_reset")).status_code == 404
    assert client.post(reverse("password_reset"), {"email": "a@b.nl"}).status_code == 404
    assert client.get(reverse("password_reset_done")).status_code == 404
    confirm = reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "x-y"})
    assert client.get(confirm).status_code == 404


def test_with_mail_password_reset_works_to_the_end(client, settings, user, mailoutbox):
    settings.MAIL_CONFIGURED = True
    user.email = "anke@example.nl"
    user.save()
    page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in page
    assert "Wachtwoord vergeten?" in page
    form = client.get(reverse("password_reset")).content.decode()
    assert "we sturen je een link" in form
    response = client.post(reverse("password_reset"), {"email": "anke@example.nl"}, follow=True)
    assert "Kijk in je mail" in response.content.decode()
    assert len(mailoutbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    confirm = client.get(link, follow=True)
    assert "Nieuw wachtwoord opslaan" in confirm.content.decode()
    new_password = "nieuw-plankje-met-acht"
    done = client.post(
        confirm.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
        follow=True,
    )
    assert "Je nieuwe wachtwoord is opgeslagen." in done.content.decode()
    assert log_in(Client(), new_password).status_code == 302


def test_reset_link_used_twice_says_so(client, settings, user, mailoutbox):
    settings.MAIL_CONFIGURED = True
    user.email = "anke@example.nl"
    user.save()
    client.post(reverse("password_reset"), {"email": "anke@example.nl"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    confirm = client.get(link, follow=True)
    new_password = "nieuw-plankje-met-acht"
    client.post(
        confirm.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
    )
    again = client.get(link, follow=True).content.decode()
    assert "Deze link werkt niet meer" in again


def test_pages_carry_a_strict_content_security_policy(client, competition):
    policy = client.get(competition.get_absolute_url())["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=", re.IGNORECASE)


def test_no_template_has_inline_script_style_or_event_handlers():
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in TEMPLATES.rglob("*.html")
        for match in INLINE.finditer(path.read_text())
    ]
    assert found == []


def test_the_inline_pattern_finds_what_it_should():
    assert INLINE.search('<button onclick="x()">')
    assert INLINE.search('<input style="width:1px">')
    assert INLINE.search("<script>alert(1)</script>")
    assert not INLINE.search('<script src="/static/a.js"></script>')


def test_404_is_dutch_in_the_site_layout(client):
    response = client.get("/bestaat/niet/echt/")
    assert response.status_code == 404
    text = response.content.decode()
    assert '<html lang="nl">' in text
    assert "Pagina niet gevonden" in text
    assert 'class="navbar' in text


def test_404_in_english(english):
    assert "Page not found" in english.get("/bestaat/niet/echt/").content.decode()


def test_403_is_dutch(client, member, competition):
    client.force_login(member)
    response = client.get(reverse("competition_edit", kwargs=competition.url_kwargs))
    assert response.status_code == 403
    assert "Geen toegang" in response.content.decode()


def test_csrf_failure_is_dutch_and_saves_nothing(competition, secretary):
    client = Client(enforce_csrf_checks=True)
    client.force_login(secretary)
    response = client.post(reverse("round_create", kwargs=competition.url_kwargs), {})
    assert response.status_code == 403
    text = response.content.decode()
    assert "Formulier verlopen" in text
    assert "Er is niets opgeslagen" in text
    assert not competition.rounds.exists()


def test_400_is_dutch(client, settings):
    response = client.get("/", HTTP_HOST="niet-toegestaan.example")
    assert response.status_code == 400
    text = response.content.decode()
    assert "Ongeldig verzoek" in text
    assert '<html lang="nl">' in text


def test_no_template_comment_spans_lines():
    """`{# #}` is a one-line comment: spread over lines it is printed on the page."""
    found = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in TEMPLATES.rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if line.count("{#") != line.count("#}")
    ]
    assert found == []


def test_login_without_a_request_still_works(client, user):
    """`Client.login` (and management commands) authenticate without a request: nothing to
    throttle, so the throttle steps aside rather than refusing."""
    assert not client.login(username="anke", password="fout")
    assert client.login(username="anke", password=PASSWORD)
