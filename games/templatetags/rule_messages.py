"""``{% load rule_messages %}``: stored codes shown in the reader's language."""

from typing import Any

from django import template

from games.rule_messages import describe_stored

register = template.Library()


@register.filter
def describe(stored: Any) -> str:
    """``{{ warning|describe }}`` for a stored ``{"code": ..., "params": {...}}``."""
    return describe_stored(stored)
