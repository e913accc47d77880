"""Erase the former members whose clubs' retention periods have passed (privacy/retention.py).

Safe to run daily by cron, and twice: an erased person is not erased again.
"""

from django.core.management.base import BaseCommand

from privacy.retention import retention_apply


class Command(BaseCommand):
    help = "Erase former members past their clubs' retention period; their results stay."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="List who is due, erase nobody.")

    def handle(self, *args, dry_run: bool = False, **options) -> None:
        erased = retention_apply(dry_run=dry_run)
        verb = "due" if dry_run else "erased"
        players = ", ".join(f"#{pk}" for pk in erased) or "none"
        self.stdout.write(f"{len(erased)} former member(s) {verb}: {players}")
