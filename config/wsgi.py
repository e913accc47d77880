"""WSGI entry point for Bordpunt: the application, warmed up before its first request."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from config.warmup import warm_up  # noqa: E402 - needs the apps that the line above loaded

warm_up()
