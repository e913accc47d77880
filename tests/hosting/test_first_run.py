"""An installed Bordpunt's first run (hosting/first_run.py): the club, the secretary's
account and the first competition made from one form, only with the command's code and
only while there is no club."""

import pytest
from django.urls import reverse

from clubs.history import HistoryAction
from clubs.models import Club, ClubStatus, HistoryEntry, Membership
from competition.models import Competition
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

CODE = "de-code-van-deze-start"
PASSWORD = "lange-letters-zijn-fijn"
FORM = {
    "code": CODE,
    "club_name": "De Goudse Letters",
    "secretary_name": "Anke de Vries",
    "username": "anke",
    "password1": PASSWORD,
    "password2": PASSWORD,
    "rules": "standard",
}


@pytest.fixture
def installed(settings):
    settings.FIRST_RUN_CODE = CODE


def test_the_setup_makes_the_club_the_secretary_and_the_first_competition(
    client, installed, django_assert_num_queries
):
    with django_assert_num_queries(1):  # is there a club?
        page = client.get(reverse("first_run"), {"code": CODE})
    assert page.status_code == 200 and b'id="first-run-form"' in page.content
    done = client.post(reverse("first_run"), FORM)
    club = Club.objects.get()
    assert done.status_code == 302 and done["Location"] == reverse(
        "first_steps", kwargs={"club": club.slug}
    )
    assert (club.name, club.slug, club.status) == (
        "De Goudse Letters",
        "de-goudse-letters",
        ClubStatus.ACTIVE,
    )
    membership = Membership.objects.get(club=club)
    assert membership.role == Membership.Role.SECRETARY
    assert membership.player.name == "Anke de Vries"
    assert membership.player.user.username == "anke"
    assert membership.player.user.check_password(PASSWORD)
    competition = Competition.objects.get(club=club)
    assert competition.rules == Competition.Rules.STANDARD
    assert competition.name.startswith("Clubcompetitie ")
    assert HistoryEntry.objects.filter(club_id=club.pk, action=HistoryAction.CLUB_SIGNUP).exists()
    # Logged in: the club's first steps open.
    assert client.get(done["Location"]).status_code == 200


def test_without_the_commands_code_there_is_no_page(client, installed):
    assert client.get(reverse("first_run")).status_code == 404
    assert client.get(reverse("first_run"), {"code": "geraden"}).status_code == 404
    assert client.post(reverse("first_run"), {**FORM, "code": "geraden"}).status_code == 404
    assert not Club.objects.exists()


def test_a_hosted_bordpunt_has_no_first_run(client, settings):
    settings.FIRST_RUN_CODE = ""
    assert client.get(reverse("first_run"), {"code": ""}).status_code == 404
    assert client.post(reverse("first_run"), {**FORM, "code": ""}).status_code == 404
    assert not Club.objects.exists()


def test_once_there_is_a_club_the_setup_is_refused(client, installed):
    ClubFactory()
    done = client.post(reverse("first_run"), FORM)
    assert done.status_code == 302 and done["Location"] == reverse("login")
    assert Club.objects.count() == 1 and not Competition.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("password2", "iets-anders-dan-dat"),
        ("password1", "kort"),
        ("rules", "custom"),
        ("club_name", ""),
        ("username", "met spatie"),
    ],
)
def test_bad_input_is_refused_and_makes_nothing(client, installed, field, value):
    data = {**FORM, field: value}
    if field == "password1":
        data["password2"] = value
    page = client.post(reverse("first_run"), data)
    assert page.status_code == 200 and b"is-invalid" in page.content
    assert not Club.objects.exists()


@pytest.fixture
def laptop(settings, installed):
    settings.BORDPUNT_INSTALLED = True
    settings.LAN_URL = "http://192.168.1.23:8000/"


def test_on_the_laptop_the_front_door_without_a_club_is_the_setup(client, laptop):
    # The way back for a secretary who closed the setup's tab; the laptop's own LAN address
    # is the laptop too (`bordpunt run --lan` opens its browser there).
    for remote in ("127.0.0.1", "192.168.1.23"):
        response = client.get(reverse("home"), REMOTE_ADDR=remote)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('first_run')}?code={CODE}"


def test_a_phone_meets_no_setup_and_no_code(client, laptop):
    response = client.get(reverse("home"), REMOTE_ADDR="192.168.1.50")
    html = response.content.decode()
    assert response.status_code == 200 and 'id="setup-waiting"' in html
    assert CODE not in html and reverse("first_run") not in html


def test_the_front_door_of_a_laptop_with_its_club_is_the_clubs_page(
    client, laptop, club, django_assert_num_queries
):
    with django_assert_num_queries(1):
        response = client.get(reverse("home"))
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()


def test_a_laptop_with_several_clubs_lists_them_without_the_services_sign_up(client, laptop):
    ClubFactory(name="De Goudse Letters", slug="gouda")
    ClubFactory(name="Woordzoekers", slug="leiden")
    html = client.get(reverse("home")).content.decode()
    assert "Woordzoekers" in html and "De Goudse Letters" in html
    assert reverse("signup") not in html and 'id="about"' not in html
