"""Settings for Bordpunt, read from the environment.

SQLite by default (nothing to install); PostgreSQL via DATABASE_URL. Nothing is chosen by
hostname or command line: the same file serves development, tests and production.
"""

import os
import secrets
from email.utils import getaddresses
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path
from typing import Any

import dj_database_url
import dj_email_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.home import HOME_VARIABLE, SHARED_DIR, Home

BASE_DIR = Path(__file__).resolve().parent.parent
# An installed Bordpunt (`bordpunt run`) names its home folder: the database, the secret key,
# uploads and logs are there, debug is off, the static files are served from the package.
HOME = Home(Path(os.environ[HOME_VARIABLE])) if os.environ.get(HOME_VARIABLE, "").strip() else None


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def development_secret_key() -> str:
    """A random key kept in a git-ignored file, so a developer never needs to set one."""
    key_file = BASE_DIR / ".secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
    return key_file.read_text().strip()


DEBUG = env_bool("DJANGO_DEBUG", HOME is None)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or (
    HOME.secret_key() if HOME else development_secret_key() if DEBUG else ""
)
if not SECRET_KEY:
    raise RuntimeError("Set DJANGO_SECRET_KEY when DJANGO_DEBUG is off.")

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

# Bordpunt's own apps (config/warmup.py compiles their templates before the first request).
PROJECT_APPS = [
    "clubs",
    "events",
    "persons",
    "games",
    "competition",
    "duplicate",
    "pairing",
    "interchange",
    "archives",
    "demo",
    "ranking",
    "notifications",
    "hosting",
    "privacy",
]
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_htmx",
    "csp",
    "django_tasks",
    "django_tasks_db",
    *PROJECT_APPS,
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A visitor's reload of an unchanged public page: 304 before sessions and the rest.
    "competition.views.conditional.RepeatVisitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Before authentication: a shared device's login past its hours is no login at all.
    "config.middleware.SharedDeviceMiddleware",
    "config.middleware.ChosenLanguageMiddleware",
    "config.middleware.UploadSizeLimitMiddleware",
    "config.middleware.DatabaseFaultMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # The operator acting for a club, then a club's status (suspended, pending): hosting/.
    "hosting.middleware.OperatorMiddleware",
    "hosting.middleware.ClubStatusMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SHARED_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "hosting.context_processors.hosting",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# Connections are kept only when DATABASE_CONN_MAX_AGE says so (e.g. 60 under a server that
# reuses its threads, such as gunicorn): `manage.py runserver` starts a thread per request,
# and each thread's kept connection stays open after it, until PostgreSQL refuses more
# clients (10 devices left 90 connections open; benchmarks/devices.py).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{(HOME.database if HOME else BASE_DIR / 'db.sqlite3').as_posix()}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] in {"django.db.backends.sqlite3", "config.sqlite"}:
    # A club evening is many devices writing at once (docs/architecture.md, "Concurrency").
    # WAL: readers never wait for the writer. IMMEDIATE: a transaction takes the write lock
    # at BEGIN, so two writers queue (up to `timeout` seconds) instead of one failing with
    # "database is locked" when it upgrades from reading to writing. synchronous=NORMAL is
    # safe with WAL: a crash of the app loses nothing committed, a power cut at most the last
    # moments, never the file.
    # config.sqlite: writers queue for the write lock in order, threads and processes alike.
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        **DATABASES["default"].get("OPTIONS", {}),
    }
    # Tests on a file, like production: the live server's threads share an in-memory test
    # database's one connection (tests/games/test_live_devices.py says why that is wrong).
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's rules, with texts in the app's voice (clubs/passwords.py).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "clubs.passwords.MinimumLengthValidator"},
    {"NAME": "clubs.passwords.UserAttributeSimilarityValidator"},
    {"NAME": "clubs.passwords.CommonPasswordValidator"},
    {"NAME": "clubs.passwords.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [SHARED_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Amsterdam")
USE_I18N = True
USE_TZ = True
# Numbers follow the reader's language (a decimal comma in Dutch: clubs/numbers.py), but
# without a thousands separator: the Dutch one is a point, and a season's "1.552" board
# points would read as a fraction beside the standings' "1,058"; score lists write 1552.
USE_THOUSAND_SEPARATOR = False

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [SHARED_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG and not HOME
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
if HOME:
    # Served from the installed package as they are, found by Django's finders when the
    # server starts: no collectstatic, nothing written beside the package or into the home.
    WHITENOISE_USE_FINDERS = True
    STATIC_ROOT = None  # type: ignore[assignment]  # no collected copy to serve
    MEDIA_ROOT = HOME.uploads

# The clubs' own word lists (clubs/word_lists.py): `bordpunt lexicon` builds them into the
# home; elsewhere `python -m rules build-lexicon --club-list FILE --output DIR/NAME.marisa`.
WORD_LISTS_DIR = (
    HOME.lexicons
    if HOME
    else Path(os.environ.get("BORDPUNT_WORD_LISTS", "").strip() or BASE_DIR / "lexicons")
)

# Uploads are a results CSV or a GCG file: kilobytes. A request larger than a file of
# UPLOAD_MAX_SIZE plus the form around it is refused before its body is read (413); a file
# above UPLOAD_MAX_SIZE is a form error. Other bodies: Django's limit (400 when exceeded).
UPLOAD_MAX_SIZE = 2 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_SIZE

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"


def cache_and_sessions(redis_url: str) -> tuple[dict, str]:
    """The cache and the session engine (docs/deployment.md, "Redis").

    With a cache every worker and server shares (Redis, at `redis_url`), sessions are
    Django's cached_db: read from the cache, written to both. Without it, each process has
    a cache of its own, and sessions stay in the database alone: a session cached in one
    worker's memory would outlive its logout in another worker. Redis is Django's own
    backend, answering "nothing cached" while Redis fails (config/cache.py): the pages are
    slower then, not broken, and sessions come from the database.
    """
    if redis_url:
        cache = {"BACKEND": "config.cache.DegradingRedisCache", "LOCATION": redis_url}
        return {"default": cache}, "django.contrib.sessions.backends.cached_db"
    locmem = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {"default": locmem}, "django.contrib.sessions.backends.db"


REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CACHES, SESSION_ENGINE = cache_and_sessions(REDIS_URL)


# --- Production: HTTPS, errors, mail (see docs/deployment.md) -------------------------------

# Behind a reverse proxy that terminates HTTPS: HSTS, redirect to HTTPS and cookies that
# only travel over HTTPS. Off by default, so `make serve` also works on a club laptop over
# plain HTTP in the club room.
HTTPS = env_bool("DJANGO_HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
# The health check answers plain HTTP, so a proxy or monitor may call it on the inside.
SECURE_REDIRECT_EXEMPT = [r"^gezond/$"]

# "Name <address>, Other <address>": who receives a mail for every server error.
ADMINS = [
    (name, address)
    for name, address in getaddresses([os.environ.get("DJANGO_ADMINS", "")])
    if address
]
SERVER_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", "bordpunt@localhost")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", SERVER_EMAIL)

# Mail is configured by EMAIL_URL (smtp://user:password@host:587/?tls=True) or EMAIL_HOST.
# Without either, nothing pretends to send mail: password reset is off and the login page
# says to ask the secretary.
if os.environ.get("EMAIL_URL"):
    globals().update(dj_email_url.parse(os.environ["EMAIL_URL"]))  # the library's documented use
    MAIL_CONFIGURED = True
elif os.environ.get("EMAIL_HOST"):
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    MAIL_CONFIGURED = True
else:
    MAIL_CONFIGURED = False

# Notifications (notifications/): mail leaves through a worker, never a request. The tasks
# wait in the database (django-tasks' database backend); `manage.py db_worker` runs them,
# started by `make run` and `bordpunt run`, and as its own processes when hosted.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# A mail has no request to tell it this site's address: its links start with this.
SITE_URL = os.environ.get("DJANGO_SITE_URL", "http://127.0.0.1:8000")
# A mail server that is down: tried again after 1, 4, 16, 64 and 256 minutes, then given up.
NOTIFICATIONS_RETRY_SECONDS = float(os.environ.get("NOTIFICATIONS_RETRY_SECONDS", "60"))
NOTIFICATIONS_ATTEMPTS = 6

# Every error with its traceback on stderr (gunicorn, systemd and docker keep stderr), and
# by mail to ADMINS when mail is configured and debug is off.
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(process)d: %(message)s"}
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["stderr"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        name: {
            "handlers": ["stderr", *(["mail_admins"] if MAIL_CONFIGURED else [])],
            "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING"),
            "propagate": False,
        }
        # config: a database fault (config/middleware.py) is an error to hear about too.
        for name in ("django", "config")
    },
}

if HOME:
    # An installed Bordpunt also keeps its log in the home, for the secretary to send along.
    LOGGING["handlers"]["file"] = {
        "class": "logging.handlers.RotatingFileHandler",
        "filename": str(HOME.logs / "bordpunt.log"),
        "maxBytes": 1_000_000,
        "backupCount": 3,
        "encoding": "utf-8",
        "delay": True,
        "formatter": "plain",
    }
    for logger in (LOGGING["root"], *LOGGING["loggers"].values()):
        logger["handlers"] = [*logger["handlers"], "file"]

# Dutch error pages in the site's layout; the CSRF failure page too.
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"

# --- Safe by default: login throttling, Content-Security-Policy -----------------------------

# Wrong passwords and invitation codes (clubs/throttle.py): after `limit` failures in a row
# under one key a wait of a minute, doubling with every further failure up to the longest
# wait; a quiet day forgets them. The keys with a username or an invitation are tight and
# hold one address each; the address alone is looser (many usernames, few passwords each).
AUTHENTICATION_BACKENDS = ["config.security.ThrottledBackend"]
THROTTLE_LIMITS = {
    "login.account": int(os.environ.get("BORDPUNT_LOGIN_ATTEMPTS", "5")),
    "login.address": int(os.environ.get("BORDPUNT_LOGIN_ADDRESS_ATTEMPTS", "30")),
    "invite.player": 3,
    "invite.address": 10,
    # Sign-ups and mails that go to an address a visitor types (hosting/, clubs/accounts.py):
    # each one counts, so a mailbox is not flooded and one visitor cannot send many.
    "signup.email": 3,
    "signup.address": 10,
    "mail.sender": 20,
    "mail.recipient": 3,
}
THROTTLE_LONGEST_WAIT_MINUTES = int(os.environ.get("BORDPUNT_LOCKOUT_MINUTES", "60"))
# Who may sign a club up (hosting/, docs/deployment.md): "open" (the club is active once the
# address is confirmed), "approve" (it waits for the operator's approval) or "invite" (only an
# address the operator invited).
SIGNUP_MODE = os.environ.get("BORDPUNT_SIGNUP", "approve").strip().lower()
if SIGNUP_MODE not in {"open", "approve", "invite"}:
    raise ImproperlyConfigured("BORDPUNT_SIGNUP is one of open, approve, invite.")
#: How long a mailed confirmation link works; an operator's invitation to sign up works longer.
SIGNUP_LINK_HOURS = 48
SIGNUP_INVITATION_DAYS = 14
# An installed Bordpunt's first run (hosting/first_run.py): the code `bordpunt run` made and
# put in the address it opens; none (no first-run page at all) otherwise.
FIRST_RUN_CODE = os.environ.get("BORDPUNT_SETUP_CODE", "").strip() if HOME else ""
# An installed Bordpunt (the `bordpunt` command on a club's laptop): its front door is the
# club's own page (hosting/front_door.py). With `bordpunt run --lan`, the address the phones
# open (bordpunt/lan.py), which the club room's page shows whatever address it was opened at.
BORDPUNT_INSTALLED = HOME is not None
LAN_URL = os.environ.get("BORDPUNT_LAN_URL", "").strip() if HOME else ""
# "Shared device" at login: the session ends with the browser and after these hours anyway.
SHARED_DEVICE_HOURS = 4
# The visitor's address is the connection's, unless the connection comes from a trusted
# proxy: then it is the address that proxy adds to X-Forwarded-For (clubs/throttle.py,
# `client_ip`). DJANGO_TRUSTED_PROXIES lists the proxies' addresses or networks
# ("10.0.0.5, 10.1.0.0/16"); without it, DJANGO_BEHIND_PROXY (default: as DJANGO_HTTPS)
# trusts a proxy on this machine only, and otherwise no proxy is trusted.
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", HTTPS)


def trusted_proxies(listed: str, *, behind_proxy: bool) -> list[IPv4Network | IPv6Network]:
    """The networks whose connections may name the visitor in X-Forwarded-For."""
    if not listed.strip():
        listed = "127.0.0.0/8, ::1" if behind_proxy else ""
    try:
        return [ip_network(entry.strip()) for entry in listed.split(",") if entry.strip()]
    except ValueError as error:
        raise RuntimeError(f"DJANGO_TRUSTED_PROXIES: {error}") from None


TRUSTED_PROXIES = trusted_proxies(
    os.environ.get("DJANGO_TRUSTED_PROXIES", ""), behind_proxy=BEHIND_PROXY
)

# Only the site's own files: no inline script or style, no other origin, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
