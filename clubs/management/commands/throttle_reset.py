"""Lift the waits after wrong passwords or invitation codes: of one username, one address,
or (without either) all of them."""

from django.core.management.base import BaseCommand

from clubs.models import Throttle, ThrottleScope


class Command(BaseCommand):
    help = "Lift login and invitation waits: --username, --address, or all."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", help="a username as typed at login (any case)")
        parser.add_argument("--address", help="an IP address: every key it holds")

    def handle(self, *args, username=None, address=None, **options) -> None:
        rows = Throttle.objects.all()
        if username is not None:
            rows = rows.filter(scope=ThrottleScope.LOGIN_ACCOUNT, subject=username.casefold())
        if address is not None:
            rows = rows.filter(address=address)
        deleted, _by_model = rows.delete()
        self.stdout.write(f"{deleted} throttle row(s) deleted.")
