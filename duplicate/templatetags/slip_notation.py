"""``{% load slip_notation %}``: slips and tops in the club's slip notation
(`duplicate.notation`): ``{{ slip|slip_shown:competition.club.slip_notation }}``."""

from __future__ import annotations

from django import template

from duplicate import notation as shown
from duplicate.models import Slip

register = template.Library()


@register.filter
def slip_shown(slip: Slip | None, notation: str) -> str:
    """The slip as typed, its position in the club's notation ("" for no slip)."""
    return "" if slip is None else shown.slip_shown(slip, notation)


@register.filter
def play_shown(play: str, notation: str) -> str:
    """A top (the engine's notation) in the club's notation."""
    return shown.play_shown(play or "", notation)


@register.filter
def slip_reason(slip: Slip, notation: str) -> str:
    """Why the slip scores 0, its square in the club's notation."""
    if not slip.reason_code:
        return ""
    return shown.reason_shown(slip.reason_code, slip.reason_params or {}, notation)
