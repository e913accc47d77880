"""Merges of two records of one person, shown read-only: made and undone through the
services (persons/services.py), which keep the history.

Django: the admin.
"""

from django.contrib import admin

from clubs.admin import ViewOnlyAdmin
from persons.models import PersonMerge


@admin.register(PersonMerge)
class PersonMergeAdmin(ViewOnlyAdmin):
    list_display = ("at", "keep", "other", "by_name", "undone_at")
    list_select_related = ("keep", "other")
