"""The turn's countdown as text, for the pages that render it before their script runs."""

from django import template

from duplicate.clock import countdown_text

register = template.Library()


@register.filter
def clock_text(seconds: int | None) -> str:
    """180 -> "3:00" (nothing for no clock)."""
    return "" if seconds is None else countdown_text(int(seconds))
