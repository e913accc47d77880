"""`manage.py notifications_schedule`: make sure the worker looks for what is due at a time
of day (the day before an event, entries closing, results missing), once: run before the
hosted workers start (deploy/bordpunt-worker@.service) and by `make run`. Does nothing when
the look is queued already, or when no mail is set up."""

from typing import Any

from django.core.management.base import BaseCommand

from notifications.tasks import due_schedule_ensure


class Command(BaseCommand):
    help = "Queue the periodic look for notifications that are due, unless it is queued."

    def handle(self, *args: Any, **options: Any) -> None:
        due_schedule_ensure()
