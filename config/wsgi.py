"""WSGI entry point for Bordpunt: the application, warmed up before its first request, each
request stamped with the moment it reached us before anything else runs
(`clubs.timing.first_seen`: a slip is judged by when it arrived, not when a worker took it)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

from clubs.timing import first_seen  # noqa: E402 - needs the apps that the line above loaded
from config.warmup import warm_up  # noqa: E402 - needs the apps that the line above loaded

application = first_seen(django_application)
warm_up()
