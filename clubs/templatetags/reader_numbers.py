"""Numbers as the reader writes them, in templates (clubs/numbers.py is their one home)."""

from django import template

from clubs import numbers

register = template.Library()


@register.filter
def signed(value: int | None) -> str:
    """A spread with its sign: "+161", "-83", "0"."""
    return numbers.signed(value)
