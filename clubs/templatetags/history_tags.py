"""`{% load history_tags %}`: a history entry's changes as text (clubs.history_display)."""

from django import template

from clubs.history_display import entry_changes

register = template.Library()


@register.filter
def history_changes(entry):
    return entry_changes(entry)
