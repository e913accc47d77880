"""One home, one server, on the installed wheel (docs/installed.md, "One home, one server"):
while `bordpunt run` serves a home, `restore`, a second `run` (on another port), a `demo`
into it and a newer version's upgrade of its data are refused with what to do, and the
data stays as it was; a run killed outright leaves no lock behind."""

import sqlite3
from pathlib import Path

from tests.packaging.installed import free_port, python, running

NEWEST_DUPLICATE = ("duplicate", "0009_turn_rejected_draws")


def applied(home: Path) -> set[tuple[str, str]]:
    with sqlite3.connect(home / "db.sqlite3") as db:
        return set(db.execute("SELECT app, name FROM django_migrations"))


def test_a_served_home_refuses_restore_a_second_run_a_demo_and_an_upgrade(
    installed, outside, tmp_path
):
    # The home `bordpunt demo` uses for BORDPUNT_HOME=base, served here by `bordpunt run`.
    base = tmp_path / "home"
    home = base / "demo"
    saturday = tmp_path / "zaterdag.sqlite3"
    with running(installed, home, outside) as server:
        # The first start migrated an empty database: nothing was there to back up.
        assert sorted(path.name for path in (home / "backups").iterdir()) == []
        made = installed.run(["backup", str(saturday)], home=home, cwd=outside)
        assert made.returncode == 0, made.stderr  # a backup is no change: it may
        # The data as a newer Bordpunt would find it, the old one still serving: its
        # newest migration not yet applied.
        python(installed, home, outside, "-m", "django", "migrate", "duplicate", "0008")
        before = applied(home)
        assert NEWEST_DUPLICATE not in before

        def bordpunt(*args: str, **env: str):
            return installed.run(list(args), home=home, cwd=outside, **env)

        refused = {
            "restore": bordpunt("restore", str(saturday)),
            "run": bordpunt("run", "--no-browser", "--port", str(free_port())),
            "demo": installed.run(
                ["demo", "--no-browser", "--port", str(free_port())], home=base, cwd=outside
            ),
            "restore in English": bordpunt("restore", str(saturday), LANG="en_GB.UTF-8"),
        }
        for what, done in refused.items():
            assert done.returncode == 2, (what, done.stdout, done.stderr)
            assert "Traceback" not in done.stderr, done.stderr
            assert server.url.split("/eerste-start/")[0] in done.stderr, (what, done.stderr)
        for what in ("restore", "run", "demo"):
            said = refused[what].stderr
            assert "Bordpunt draait al met de gegevens in" in said, said
            assert "Stop het eerst (Ctrl+C in zijn venster)" in said, said
        english = refused["restore in English"].stderr
        assert "Bordpunt is running already with the data in" in english, english
        # Nothing changed: no upgrade, no backup before one or before a restore.
        assert applied(home) == before
        assert sorted(path.name for path in (home / "backups").iterdir()) == []
        assert server.process.poll() is None

    # The evening ended: its backup is the first, a Bordpunt database that restores.
    (evening,) = (home / "backups").glob("*.sqlite3")
    assert evening.name.endswith("Z-evening.sqlite3")
    listed = installed.run(["restore"], home=home, cwd=outside)
    assert listed.stdout.strip().endswith(str(evening)), listed.stdout
    restored = installed.run(["restore", str(evening)], home=home, cwd=outside)
    assert restored.returncode == 0, restored.stderr


def test_a_killed_run_leaves_no_lock(installed, outside, club_home, tmp_path):
    saturday = tmp_path / "zaterdag.sqlite3"
    made = installed.run(["backup", str(saturday)], home=club_home, cwd=outside)
    assert made.returncode == 0, made.stderr
    with running(installed, club_home, outside) as server:
        server.process.kill()  # SIGKILL: no Ctrl+C, no evening backup, nothing let go
        server.process.wait(timeout=30)
    restored = installed.run(["restore", str(saturday)], home=club_home, cwd=outside)
    assert restored.returncode == 0, restored.stderr
    with running(installed, club_home, outside) as server:
        assert server.process.poll() is None
