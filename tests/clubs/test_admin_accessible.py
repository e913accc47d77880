"""The admin's pages that axe-core found wanting (the browser crawl, tests/e2e/test_crawl.py,
checks every page; these say what was fixed, without a browser): every control of the
club's memberships has its own label, a user's last login and sign-up are shown, not
edited in unlabelled boxes, and every admin page links our stylesheet (44 px targets on a
phone, underlined breadcrumbs)."""

import re

import pytest
from django.urls import reverse

from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db


def labelled(html: str) -> set[str]:
    return set(re.findall(r'<label[^>]* for="([^"]+)"', html))


def test_each_membership_field_has_a_label(admin_client, club):
    MembershipFactory(club=club)
    html = admin_client.get(reverse("admin:clubs_club_change", args=[club.pk])).content.decode()
    assert {"id_memberships-0-role", "id_memberships-0-DELETE"} <= labelled(html)
    assert "css/admin.css" in html


def test_a_users_last_login_and_sign_up_are_read_only(admin_client, admin_user):
    html = admin_client.get(
        reverse("admin:auth_user_change", args=[admin_user.pk])
    ).content.decode()
    assert 'name="last_login_0"' not in html and 'name="date_joined_0"' not in html
    assert "field-last_login" in html and "field-date_joined" in html
    assert 'name="username"' in html  # the rest is Django's form as before
