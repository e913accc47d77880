"""The sign-up's and the account's pages in Dutch and in English, with mail set up (the
site-wide check, tests/test_page_languages.py, sees them as a site without mail shows
them): no English word on a Dutch page, no Dutch word on an English one."""

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Permission
from django.urls import reverse

from hosting.models import SignUp
from hosting.services import confirm_token
from tests.factories import ClubFactory, secretary_of
from tests.test_page_languages import page_words, word_lists

pytestmark = pytest.mark.django_db


def test_the_new_pages_speak_one_language(client, settings):
    settings.MAIL_CONFIGURED = True
    settings.SIGNUP_MODE = "approve"
    club = ClubFactory(name="De Woordzoekers", slug="woord", city="Leiden")
    user = secretary_of(club, username="anke@example.nl")
    user.user_permissions.add(Permission.objects.get(codename="operate_service"))
    signup = SignUp.objects.create(
        email="bert@example.nl", club_name="Nieuw", secretary_name="Bert", key="k"
    )
    visitor_pages = [
        reverse("home"),
        reverse("home") + "?q=nergens",
        reverse("signup"),
        reverse("signup_sent"),
        reverse("signup_confirm", kwargs={"token": confirm_token(signup)}),
        reverse("signup_confirm", kwargs={"token": "kapot"}),
    ]
    own_pages = [
        reverse("first_steps", kwargs={"club": club.slug}),
        reverse("account"),
        reverse("signup_invite"),
    ]
    english_only, dutch_only = word_lists()
    names = {"woordzoekers", "leiden", "nieuw", "bert", "anke", "example", "nl", "de"}
    wrong = []
    for pages, login in ((visitor_pages, False), (own_pages, True)):
        if login:
            client.force_login(user)
        for page in pages:
            for language, foreign in (("nl", english_only), ("en", dutch_only)):
                client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
                response = client.get(page)
                assert response.status_code == 200, page
                seen = page_words(response.content.decode()) - names
                if found := seen & foreign:
                    wrong.append(f"{page} [{language}]: {sorted(found)}")
    assert wrong == []
