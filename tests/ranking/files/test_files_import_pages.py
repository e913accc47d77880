"""The federation's import page: upload, preview, confirm or cancel; and
`manage.py import_event_results`. Every bad input a message, nothing imported."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.utils import translation

from events.models import Season
from ranking.models import RankedEvent, RankedResult
from tests.factories import ClubFactory, UserFactory, secretary_of
from tests.ranking.files.files_data import as_json, edited, interclub

pytestmark = pytest.mark.django_db

PAGE = "/ntsv/beheer/uitslagen-importeren/"


def upload(client, data: bytes, season) -> str:
    response = client.post(
        PAGE,
        {"season": season.pk, "file": SimpleUploadedFile("interclub.json", data)},
    )
    assert response.status_code == 200
    return response.content.decode()


def confirm(client, season, **extra):
    digest = client.session[f"results-file-import-{season.federation_id}"]["digest"]
    return client.post(PAGE, {"digest": digest, "season": season.pk, **extra}, follow=True)


@pytest.fixture
def logged_in(client, official, english):
    client.force_login(official)
    return client


def test_upload_preview_confirm(logged_in, season, clubs):
    results = interclub()
    page = upload(logged_in, as_json(results), season)
    assert "Nothing has been saved yet." in page
    assert "Interclub Gouda" in page and "Gast Gastmans" in page
    assert "4 new persons" in page
    assert RankedEvent.objects.count() == 0
    done = confirm(logged_in, season, confirm="1")
    assert done.redirect_chain[-1][0] == PAGE
    assert "Interclub Gouda is in the ranking of Seizoen 2026-2027" in done.content.decode()
    ranked = RankedEvent.objects.get()
    assert ranked.uid == results.uid and RankedResult.objects.count() == 10
    # Sent again (a second click, the back button): refused, nothing doubled.
    again = logged_in.post(PAGE, {"digest": "x" * 64, "season": season.pk}, follow=True)
    assert "expired" in again.content.decode()
    page = upload(logged_in, as_json(results), season)
    assert "already in the ranking" in page and 'name="confirm"' not in page
    assert RankedEvent.objects.count() == 1


def test_dutch_by_default(client, official, season, clubs):
    client.force_login(official)
    data = edited(as_json(interclub()), lambda v: v["games"][0]["results"][0].update(points=9))
    with translation.override("nl"):
        page = upload(client, data, season)
    assert "misschien is het met de hand bewerkt" in page


def test_cancel(logged_in, season, clubs):
    upload(logged_in, as_json(interclub()), season)
    response = confirm(logged_in, season, cancel="1")
    assert response.status_code == 200 and RankedEvent.objects.count() == 0
    assert "results-file-import-" not in "".join(logged_in.session.keys())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"players": []}', "not a Bordpunt results file"),
        (b"\x00\x01\x02", "not a Bordpunt results file"),
        (as_json(interclub())[:300], "cut off"),
        (
            edited(as_json(interclub()), lambda v: v["games"][0]["results"][0].update(points=9)),
            "edited by hand",
        ),
    ],
)
def test_a_bad_file(logged_in, season, data, message):
    page = upload(logged_in, data, season)
    assert message in page
    assert RankedEvent.objects.count() == 0


def test_a_problem_shown_and_no_confirm(logged_in, season, clubs):
    from tests.factories import PlayerFactory

    PlayerFactory(name="Els Evers", federation_number="1001")
    page = upload(logged_in, as_json(interclub()), season)
    assert "Two clubs cannot claim one person" in page
    assert 'name="confirm"' not in page
    # Confirmed anyway (a form from before, a crafted post): refused, nothing imported.
    response = confirm(logged_in, season, confirm="1")
    assert "Nothing was imported." in response.content.decode()
    assert RankedEvent.objects.count() == 0


def test_a_season_of_another_federation_or_gone(logged_in, season, clubs):
    other = ClubFactory(name="SBNL", slug="sbnl", is_federation=True)
    theirs = Season.objects.create(
        federation=other, name="SBNL", slug="s", start=season.start, end=season.end
    )
    response = logged_in.post(
        PAGE, {"season": theirs.pk, "file": SimpleUploadedFile("f.json", as_json(interclub()))}
    )
    assert "Select a valid choice" in response.content.decode()
    upload(logged_in, as_json(interclub()), season)
    digest = logged_in.session[f"results-file-import-{season.federation_id}"]["digest"]
    response = logged_in.post(
        PAGE, {"digest": digest, "season": theirs.pk, "confirm": "1"}, follow=True
    )
    assert "That season does not exist" in response.content.decode()
    for season_value in ("999999", "x", "-1", "9" * 30):
        response = logged_in.post(
            PAGE, {"digest": digest, "season": season_value, "confirm": "1"}, follow=True
        )
        assert response.status_code == 200
    assert RankedEvent.objects.count() == 0


def test_who_may_import(client, season, clubs):
    assert client.get(PAGE).status_code == 302  # to the login
    for user in (secretary_of(clubs["GL"]), UserFactory()):
        client.force_login(user)
        assert client.get(PAGE).status_code == 403
        response = client.post(
            PAGE, {"season": season.pk, "file": SimpleUploadedFile("f.json", as_json(interclub()))}
        )
        assert response.status_code == 403
    client.force_login(secretary_of(clubs["GL"]))
    assert client.get("/gouda/beheer/uitslagen-importeren/").status_code == 404  # not a federation
    assert RankedEvent.objects.count() == 0


# --- manage.py import_event_results --------------------------------------------------------------


def test_command(tmp_path, season, clubs, capsys):
    path = tmp_path / "interclub.json"
    path.write_bytes(as_json(interclub()))
    call_command("import_event_results", str(path), "--season", "2026-2027", "--dry-run")
    assert RankedEvent.objects.count() == 0
    call_command("import_event_results", str(path), "--season", "2026-2027")
    assert RankedEvent.objects.get().source == RankedEvent.Source.IMPORTED
    with pytest.raises(CommandError, match="already in the ranking"):
        call_command("import_event_results", str(path), "--season", "2026-2027")
    assert RankedEvent.objects.count() == 1


def test_command_bad_input(tmp_path, season, clubs):
    path = tmp_path / "interclub.json"
    path.write_bytes(as_json(interclub()))
    with pytest.raises(CommandError, match="no season “2025”"):
        call_command("import_event_results", str(path), "--season", "2025")
    with pytest.raises(CommandError, match="cannot be read"):
        call_command(
            "import_event_results", str(tmp_path / "missing.json"), "--season", "2026-2027"
        )
    other = ClubFactory(name="SBNL", slug="sbnl", is_federation=True)
    Season.objects.create(
        federation=other, name="SBNL", slug="2026-2027", start=season.start, end=season.end
    )
    with pytest.raises(CommandError, match="--federation"):
        call_command("import_event_results", str(path), "--season", "2026-2027")
    path.write_bytes(as_json(interclub())[:100])
    with pytest.raises(CommandError, match="cut off"):
        call_command(
            "import_event_results", str(path), "--season", "2026-2027", "--federation", "ntsv"
        )
    assert RankedEvent.objects.count() == 0


def test_the_preview_reads_the_same_whatever_the_file_holds(logged_in, season, clubs):
    """The preview's queries do not grow with the persons and clubs in the file."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.ranking.files.files_data import GOUDA

    def queries(players: int) -> int:
        rows = [(f"{players}-{i}", f"Speler {players}-{i}", GOUDA, 300 + i) for i in range(players)]
        data = as_json(interclub(games=[rows, rows]))
        with CaptureQueriesContext(connection) as captured:
            upload(logged_in, data, season)
        return len(captured)

    queries(3)
    assert queries(5) == queries(120)
