"""The wheel carries everything, and the installed `bordpunt` runs outside the checkout
(tests/packaging/installed.py builds and installs it once per session)."""

import subprocess
import urllib.request
import zipfile
from pathlib import Path

from tests.packaging.installed import ROOT, environment, running


def tracked(*folders: str) -> set[str]:
    listed = subprocess.run(
        ["git", "ls-files", *folders], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    return set(listed)


def test_the_wheel_carries_the_apps_templates_static_files_translations_and_word_lists(
    installed,
):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    shared = {f"bordpunt/{name}" for name in tracked("templates", "static")}
    assert shared <= names, sorted(shared - names)[:5]
    assert "bordpunt/locale/nl/LC_MESSAGES/django.mo" in names
    python = {name for name in tracked() if name.endswith(".py")}
    ours = {
        name
        for name in python
        if "/" in name and not name.startswith(("tests/", "benchmarks/", "docs/", "deploy/"))
    }
    assert ours <= names, sorted(ours - names)[:5]  # every app, migrations included
    data = {name for name in tracked("rules/data", "games/demo")}
    assert data <= names and "rules/data/LICENSE-OpenTaal.txt" in names
    assert not {name for name in names if name.startswith(("tests/", "benchmarks/"))}


def test_bordpunt_comes_from_the_installed_wheel_not_the_checkout(installed, outside, tmp_path):
    done = subprocess.run(
        [
            str(installed.python),
            "-c",
            "import config, bordpunt, rules.lexicon as l; "
            "print(config.__file__); print(bordpunt.__file__); print(l.DATA_DIR)",
        ],
        cwd=outside,
        capture_output=True,
        text=True,
        check=True,
    )
    for path in done.stdout.split():
        assert Path(path).is_relative_to(installed.venv), done.stdout


def test_version_and_help_in_dutch_and_english(installed, outside, tmp_path):
    home = tmp_path / "home"
    version = installed.run(["version"], home=home, cwd=outside)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("bordpunt 0.")
    dutch = installed.run(["--help"], home=home, cwd=outside, LANG="nl_NL.UTF-8")
    english = installed.run(["--help"], home=home, cwd=outside, LANG="en_GB.UTF-8")
    assert "opdrachten" in dutch.stdout and "back up" not in dutch.stdout
    assert "commands" in english.stdout and "back up the database" in english.stdout
    assert installed.run(["--lang", "en", "--help"], home=home, cwd=outside).stdout == (
        english.stdout
    )
    assert not home.exists()  # asking costs nothing: no home made


def test_run_on_an_empty_home_serves_the_first_run_page_and_static_files(
    installed, outside, tmp_path
):
    home = tmp_path / "home"
    with running(installed, home, outside) as server:
        assert "/eerste-start/?code=" in server.url
        with urllib.request.urlopen(server.url) as page:
            html = page.read().decode()
        assert 'id="first-run-form"' in html and "Naam van de club" in html
        static = server.url.split("/eerste-start/")[0] + "/static/favicon.svg"
        with urllib.request.urlopen(static) as icon:
            assert icon.status == 200
    assert server.process.returncode == 0, "".join(server.lines)
    assert (home / "db.sqlite3").is_file() and (home / "secret_key").stat().st_mode & 0o077 == 0
    # Nothing written beside the installed package.
    site = installed.venv / "lib"
    assert not [path for path in site.rglob("*.sqlite3")]


def package_files(installed) -> set[Path]:
    (site,) = installed.venv.glob("lib/python3*/site-packages")
    return {path for path in site.rglob("*") if "__pycache__" not in path.parts}


def test_backup_and_restore_with_home_given_write_nothing_into_the_package(
    installed, outside, tmp_path
):
    """--home alone (no BORDPUNT_HOME): the settings still take the home's secret key,
    not a development key beside the package."""
    home = tmp_path / "home"
    before = package_files(installed)
    home.mkdir()
    setup = subprocess.run(
        [str(installed.python), "-m", "django", "migrate", "--verbosity=0"],
        cwd=outside,
        env={**environment(home), "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
    )
    assert setup.returncode == 0, setup.stderr
    backup = tmp_path / "kopie.sqlite3"
    for args in (["backup", str(backup)], ["restore", str(backup)]):
        done = installed.run(["--home", str(home), *args], home=home, cwd=outside, BORDPUNT_HOME="")
        assert done.returncode == 0, done.stderr
    assert package_files(installed) == before
