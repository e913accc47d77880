"""`{% submission_input %}`: the hidden key of a form that a phone may send again
(clubs/submissions.py)."""

from django import template
from django.utils.html import format_html

from clubs.submissions import FIELD, new_key

register = template.Library()


@register.simple_tag
def submission_input() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
