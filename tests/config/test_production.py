"""The production configuration: settings from the environment, `check --deploy`, the
health endpoint, errors logged with their traceback, `make serve`'s refusals.

Settings are read once per process, so each configuration runs in a fresh Python."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k3Y-" + "x7Qp9rT2vW5yZ8bN1mL4jH6gF0dS3aE" * 2


def run_python(args: list[str], **env: str) -> subprocess.CompletedProcess:
    clean = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "EMAIL_", "PYTEST_", "BORDPUNT_"))
        and name not in {"DATABASE_URL", "PORT", "WEB_CONCURRENCY"}
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def production(**env: str) -> dict[str, str]:
    return {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": STRONG_KEY, **env}


def test_check_deploy_is_clean_with_https():
    done = run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        **production(DJANGO_HTTPS="true", DJANGO_ALLOWED_HOSTS="bordpunt.example.nl"),
    )
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_names_what_plain_http_lacks():
    done = run_python(["manage.py", "check", "--deploy"], **production())
    # Without DJANGO_HTTPS: no HSTS, no redirect, cookies over plain HTTP; nothing else.
    found = {code for code in ("W004", "W008", "W012", "W016") if code in done.stderr}
    assert found == {"W004", "W008", "W012", "W016"}, done.stderr
    assert "W009" not in done.stderr  # the secret key is fine


SHOW_SETTINGS = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.ADMINS, s.MAIL_CONFIGURED, s.SECURE_HSTS_SECONDS if s.HTTPS else 0)"
)


def test_admins_and_mail_from_the_environment():
    done = run_python(
        ["-c", SHOW_SETTINGS],
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ADMINS="Anna de Vries <anna@example.nl>, bert@example.nl",
        EMAIL_URL="smtp://bordpunt:geheim@mail.example.nl:587/?tls=True",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("]")[0] + "]" == (
        "[('Anna de Vries', 'anna@example.nl'), ('', 'bert@example.nl')]"
    )
    assert done.stdout.split("]")[1].split() == ["True", "0"]


def test_no_mail_and_no_admins_by_default():
    done = run_python(["-c", SHOW_SETTINGS], DJANGO_SETTINGS_MODULE="config.settings")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "False", "0"]


def test_health_is_200_with_the_database(client, db):
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "no-store" in response["Cache-Control"]


UNREACHABLE = (
    "import json, django; django.setup(); from django.test import Client; "
    "c = Client(raise_request_exception=False); "
    "health = c.get('/gezond/'); page = c.get('/'); "
    "print('RESULT', json.dumps([health.status_code, health.json(), page.status_code, "
    "page.content.decode()]))"
)


def test_without_database_health_is_503_and_errors_are_logged_with_traceback(tmp_path):
    """A database that cannot be opened: the health check says so, a page answers with the
    Dutch 503 page that names the fault (it needs no database), stderr has the traceback
    once, and the site's administrators get it by mail (the console backend: stdout)."""
    env = production(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_ADMINS="Anna de Vries <anna@example.nl>",
        EMAIL_URL="console://",
        DATABASE_URL=f"sqlite:///{tmp_path}/no/such/folder/db.sqlite3",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
    )
    # As `make serve` does: with debug off, pages name their static files by the manifest.
    collected = run_python(["manage.py", "collectstatic", "--noinput", "-v0"], **env)
    assert collected.returncode == 0, collected.stderr
    done = run_python(["-c", UNREACHABLE], **env)
    assert done.returncode == 0, done.stderr
    mail, result = done.stdout.split("RESULT ")
    health_status, health, status, page = json.loads(result)
    assert health_status == 503
    assert health["database"] == "unreachable"
    assert "Bordpunt kan zijn databaseserver niet bereiken." in health["reason"]
    assert status == 503
    assert '<html lang="nl">' in page
    assert "De database is niet bereikbaar" in page
    assert "DATABASE_URL" in page
    assert done.stderr.count("Database fault (unreachable) on GET /") == 1  # logged once
    assert "Traceback (most recent call last)" in done.stderr
    assert "unable to open database file" in done.stderr
    assert "Internal Server Error" not in done.stderr
    assert "Health check: the database does not answer" in done.stderr
    assert "To: anna@example.nl" in mail
    assert "Database fault (unreachable) on GET /" in mail
    assert "unable to open database file" in mail


@pytest.mark.parametrize(
    ("env", "reason"),
    [
        ({}, "Debug is on"),
        ({"DJANGO_DEBUG": "true", "DJANGO_SECRET_KEY": STRONG_KEY}, "Debug is on"),
        ({"DJANGO_DEBUG": "false"}, "DJANGO_SECRET_KEY is not set"),
        (production(PORT="80٣0"), "PORT must be a whole number"),
        (production(WEB_CONCURRENCY="0"), "WEB_CONCURRENCY must be a whole number"),
    ],
)
def test_serve_refuses_with_the_reason(env, reason, tmp_path):
    done = run_python(
        ["-m", "config.serve"], DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3", **env
    )
    assert done.returncode == 2
    assert done.stderr.startswith("bordpunt serve: not started.")
    assert reason in done.stderr
    assert not (tmp_path / "db.sqlite3").exists()  # refused before touching the database
