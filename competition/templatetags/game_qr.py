"""`{% game_qr game %}`: the QR code that opens a game's page, for the printed round papers."""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from competition.qr import qr_svg

register = template.Library()


def game_url(request, game) -> str:
    """The game's page as an absolute URL on the host the paper was printed from."""
    return request.build_absolute_uri(reverse("replay", args=[game.pk]))


@register.simple_tag(takes_context=True)
def game_qr(context, game) -> str:
    """A bye has no game page, so no code."""
    if game.is_bye:
        return ""
    return qr_svg(
        game_url(context["request"], game),
        title=_("Table %(table)s: scan to open this game") % {"table": game.table or "–"},
    )
