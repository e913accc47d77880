"""``{% load rule_messages %}``: stored codes shown in the reader's language."""

from typing import Any

from django import template

from games import timing
from games.board import move_in_words
from games.rule_messages import describe_stored

register = template.Library()


@register.filter
def describe(stored: Any) -> str:
    """``{{ warning|describe }}`` for a stored ``{"code": ..., "params": {...}}``."""
    return describe_stored(stored)


@register.filter
def clock_time(ms: Any) -> str:
    """``{{ move.think_ms|clock_time }}``: a thinking time as "1:30"."""
    return timing.clock_time(ms)


@register.filter
def in_words(notation: str) -> str:
    """``{{ move.notation|in_words }}``: every turn but a play said in words ("passes")."""
    return move_in_words(notation)
