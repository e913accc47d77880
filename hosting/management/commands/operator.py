"""`manage.py operator USERNAME`: give an account the operator's permission (`--remove`
takes it back). The same as giving `clubs.operate_service` in the admin.

Django: a management command.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Make an account the operator of this Bordpunt (or, with --remove, no longer)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="take the permission back")

    def handle(self, *args, username: str, remove: bool, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account named {username!r}.")
        permission = Permission.objects.get(
            content_type__app_label="clubs", codename="operate_service"
        )
        if remove:
            user.user_permissions.remove(permission)
            self.stdout.write(f"{username} is no longer the operator.")
            return
        user.user_permissions.add(permission)
        self.stdout.write(f"{username} is the operator: /dienst/")
        if user.is_staff or user.is_superuser:
            self.stderr.write(
                "Warning: this account is staff: staff manage every club, drafts and personal "
                "data included. An operator's account should not be staff (docs/deployment.md)."
            )
