"""Finding a competition from the command line: by id, `club/competition` or short name."""

from django.core.management.base import CommandError

from competition.models import Competition


def competition_from_argument(value: str) -> Competition:
    queryset = Competition.objects.select_related("club")
    if value.isascii() and value.isdigit():
        found = list(queryset.filter(pk=int(value)))
    elif "/" in value:
        club, _slash, slug = value.partition("/")
        found = list(queryset.filter(club__slug=club, slug=slug))
    else:
        found = list(queryset.filter(slug=value))
    if not found:
        raise CommandError(f"No competition “{value}”. Use its id, slug or club/slug.")
    if len(found) > 1:
        options = ", ".join(f"{c.club.slug}/{c.slug}" for c in found)
        raise CommandError(f"“{value}” is ambiguous: {options}.")
    return found[0]
