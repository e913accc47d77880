"""`bordpunt run` and `bordpunt demo`: the home's database brought up to date (after a
backup), then the site served by waitress (a production server that runs on Windows and
macOS as well) until Ctrl+C, and a backup at the end of the evening.

The order keeps bad starts harmless: a home another `bordpunt` holds (bordpunt/home_lock.py),
a home made by a newer version and a port in use are refused before anything in the home
changes.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import sqlite3
import sys
import webbrowser
from pathlib import Path

from bordpunt import backups, i18n
from bordpunt.cli import Refused, writable
from bordpunt.home_lock import HomeLock, held
from bordpunt.i18n import _
from config.home import HOME_VARIABLE, Home

#: waitress's threads: a club evening's phones at once; SQLite queues the writers.
THREADS = 8


def setup_django(home: Home) -> None:
    """Django set up for this home (config/settings.py reads BORDPUNT_HOME)."""
    from bordpunt import __version__

    os.environ[HOME_VARIABLE] = str(home.root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("BORDPUNT_RELEASE", __version__)
    # The first-run page answers only this code, which only the browser this command
    # opens knows (hosting/first_run.py).
    os.environ.setdefault("BORDPUNT_SETUP_CODE", secrets.token_urlsafe(16))
    import django

    django.setup()


def known_migrations(home: Home) -> set[tuple[str, str]]:
    """Every migration this version has (Django set up for `home` if it is not yet)."""
    from django.apps import apps
    from django.db.migrations.loader import MigrationLoader

    if not apps.ready:
        setup_django(home)
    return set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def pending_migrations(home: Home) -> tuple[bool, bool]:
    """Whether the database has data (migrations applied), and whether it needs
    migrating; refuses a database of a newer version."""
    from django.db import DatabaseError, connection
    from django.db.migrations.executor import MigrationExecutor

    try:
        executor = MigrationExecutor(connection)  # reads the applied migrations
        applied = set(executor.recorder.applied_migrations())
    except DatabaseError:
        raise Refused(
            _(
                "The database in %(home)s cannot be read: it is damaged. Restore a backup "
                "with `bordpunt restore` (without a file it lists them)."
            )
            % {"home": home.root}
        ) from None
    if applied - set(executor.loader.graph.nodes):
        raise Refused(
            _(
                "The data in %(home)s was made by a newer version of Bordpunt. Install "
                "that version again; nothing was changed."
            )
            % {"home": home.root}
        )
    return bool(applied), bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))


def migrate(home: Home, *, has_data: bool) -> None:
    """Bring the database up to date; one with data is backed up first."""
    from django.core.management import call_command

    if has_data:
        saved = backup_or_refuse(home, "before-upgrade")
        print(_("Backup before the upgrade: %(file)s") % {"file": saved})
    from django.db import DatabaseError

    try:
        call_command("migrate", interactive=False, verbosity=0)
    except (DatabaseError, OSError) as error:
        raise Refused(
            _(
                "The upgrade of the data in %(home)s failed (%(reason)s). The backups are in "
                "%(folder)s: `bordpunt restore` puts one back."
            )
            % {"home": home.root, "reason": i18n.reason(error), "folder": home.backups}
        ) from None


def backup_or_refuse(home: Home, reason: str) -> Path:
    """A backup, or a refusal to go on without it (a full disk, say)."""
    try:
        return backups.backup_into(home.database, home.backups, reason)
    except (OSError, sqlite3.Error) as error:
        raise Refused(
            _("No backup could be made in %(folder)s (%(reason)s); nothing was changed.")
            % {"folder": home.backups, "reason": i18n.reason(error)}
        ) from None


def site_address(host: str, port: int) -> str:
    """The site's address at `host` (this computer's for every address)."""
    shown = "127.0.0.1" if host in {"0.0.0.0", "::"} else host
    return f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/"


def said_address(first: str, *, lan_address: str | None, port: int) -> str:
    """The address the window says (and the home's lock tells a second run). With --lan
    the window may be on the club room's screen: no secret in it, so the setup's code goes
    to the browser alone (the laptop's `/` leads to the setup as well).

    >>> said_address("http://10.0.0.5:8000/eerste-start/?code=x", lan_address="10.0.0.5", port=8000)
    'http://10.0.0.5:8000/'
    """
    return site_address(lan_address, port) if lan_address else first


def first_page(host: str, port: int) -> str:
    """The address to open: the first-run setup while the home has no club."""
    from django.urls import reverse

    from clubs.models import Club

    address = site_address(host, port)
    if Club.objects.exists():
        return address
    return f"{address}{reverse('first_run')[1:]}?code={os.environ['BORDPUNT_SETUP_CODE']}"


def run(
    home: Home,
    *,
    host: str,
    port: int,
    browser: bool,
    demo: bool = False,
    shown: str | None = None,
) -> int:
    """Serve on `host`; the browser opens `shown` (the LAN address with --lan) if given.
    The home is this command's alone from before its database is read until after the
    evening's backup: a second run, a restore, a demo into it wait for the end."""
    writable(home)
    with held(home, "demo" if demo else "run") as lock:
        return _serve(home, lock, host=host, port=port, browser=browser, demo=demo, shown=shown)


def _serve(
    home: Home,
    lock: HomeLock,
    *,
    host: str,
    port: int,
    browser: bool,
    demo: bool,
    shown: str | None,
) -> int:
    # The links in notification mails: the address this server is reached at (the club
    # room's network address with --lan), unless the environment says otherwise.
    os.environ.setdefault("DJANGO_SITE_URL", site_address(shown or host, port))
    setup_django(home)
    has_data, needs_migrating = pending_migrations(home)
    from waitress import create_server

    from config.wsgi import application

    try:
        server = create_server(application, host=host, port=port, threads=THREADS)
    except OSError as error:
        raise Refused(
            _(
                "Port %(port)s on %(host)s is in use (%(reason)s): is Bordpunt running "
                "already? Stop it, or choose another port with --port."
            )
            % {"port": port, "host": host, "reason": i18n.reason(error)}
        ) from None
    try:
        url = prepare(
            home,
            host=shown or host,
            port=port,
            needs_migrating=needs_migrating,
            has_data=has_data,
            demo=demo,
            lan=shown is not None,
        )
    except BaseException:
        server.close()
        raise
    # A polite stop (SIGTERM from a service manager or a test) ends like Ctrl+C: set before
    # the address is announced, so a stop that follows at once ends as politely.
    signal.signal(signal.SIGTERM, _interrupt)
    from notifications.worker import WorkerThread

    # The notifications' worker: mail leaves from here, never from a page's request.
    worker = WorkerThread().start()
    told = said_address(url, lan_address=shown, port=port)
    lock.announce(told)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: the evening ends
            print(
                _("Bordpunt runs at %(url)s (data: %(home)s). Stop it with Ctrl+C.")
                % {"url": told, "home": home.root}
            )
            sys.stdout.flush()
            if browser:
                webbrowser.open(url)
            server.run()
    finally:
        server.close()
        worker.stop()
        from django.db import connections

        connections.close_all()
    try:
        saved = backups.evening_backup(home.database, home.backups)
    except OSError as error:
        print(
            _("No backup could be made in %(folder)s (%(reason)s).")
            % {"folder": home.backups, "reason": i18n.reason(error)},
            file=sys.stderr,
        )
        return 1
    if saved:
        print(_("Backup made: %(file)s") % {"file": saved})
    return 0


def prepare(
    home: Home,
    *,
    host: str,
    port: int,
    needs_migrating: bool,
    has_data: bool,
    demo: bool,
    lan: bool = False,
) -> str:
    """The database backed up and brought up to date (demo data in the demo's home, and
    its logins said); the address of the first page."""
    if backups.changed_since_last_backup(home.database, home.backups):
        # An evening whose end was not seen (the laptop switched off).
        backup_or_refuse(home, "evening")
    if needs_migrating:
        migrate(home, has_data=has_data)
    if demo:
        from django.core.management import call_command

        call_command("seed_demo", if_empty=True, force=True, verbosity=0)
        print(demo_logins(lan=lan))
    from clubs.word_lists import folder, missing

    for club, name in missing():
        print(
            _(
                "The word list %(name)s of %(club)s is missing from %(folder)s: its games "
                "check their words against the shipped list until it is back (build it "
                "again with `bordpunt lexicon`)."
            )
            % {"name": name, "club": club, "folder": folder()}
        )
    return first_page(host, port)


def demo_logins(*, lan: bool) -> str:
    """The demo's logins; their password only when no phone in the club's network can see
    this window (it opens the site administrator's pages)."""
    from demo.management.commands.seed_demo import DEMO_PASSWORD

    if lan:
        return _(
            "Demo logins: secretaris (club secretary), speler (player), admin (site "
            "administrator, /admin/). Their password is not shown while the phones in the "
            "network can see this window: `bordpunt demo` without --lan shows it."
        )
    return _(
        "Demo logins (password “%(password)s”): secretaris (club secretary), speler (player), "
        "admin (site administrator, /admin/)."
    ) % {"password": DEMO_PASSWORD}


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
