"""What .ci/run shows of the installed wheel: `bordpunt run` on an empty home, the first-run
setup walked in Chromium, and a backup made while it serves, restored into another home and
served from there, the secretary logging in."""

import pytest
from playwright.sync_api import expect

from tests.packaging.installed import running

PASSWORD = "lange-letters-zijn-fijn"


@pytest.mark.e2e
def test_first_run_in_the_browser_then_a_backup_round_trips(installed, outside, tmp_path, page):
    home, other = tmp_path / "home", tmp_path / "other"
    backup = tmp_path / "zaterdag.sqlite3"
    with running(installed, home, outside) as server:
        page.goto(server.url)
        page.fill("#id_club_name", "De Goudse Letters")
        page.fill("#id_secretary_name", "Anke de Vries")
        page.fill("#id_username", "anke")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.select_option("#id_rules", "sbnl")
        page.get_by_role("button", name="Beginnen").click()
        page.wait_for_url("**/de-goudse-letters/beheer/eerste-stappen/")
        welcome = page.get_by_text("Welkom bij Bordpunt: De Goudse Letters staat klaar")
        expect(welcome).to_be_visible()
        # The setup is done: its address no longer makes a club.
        page.goto(server.url)
        expect(page).to_have_url(f"{server.url.split('/eerste-start/')[0]}/accounts/login/")
        made = installed.run(["backup", str(backup)], home=home, cwd=outside)
        assert made.returncode == 0, made.stderr
    assert list((home / "backups").glob("*-evening.sqlite3"))  # the evening ended: a backup

    restored = installed.run(["restore", str(backup)], home=other, cwd=outside)
    assert restored.returncode == 0, restored.stderr
    with running(installed, other, outside) as server:
        assert "/eerste-start/" not in server.url
        page.goto(f"{server.url}accounts/login/")
        page.fill("#id_username", "anke")
        page.fill("#id_password", PASSWORD)
        page.locator("form button").click()
        page.goto(f"{server.url}de-goudse-letters/beheer/eerste-stappen/")
        # The secretary's own page of the restored club: logged in, with the club's rights.
        expect(page.locator("h1")).to_have_text("Eerste stappen")
        expect(page.get_by_role("button", name="Uitloggen (anke)")).to_be_visible()
