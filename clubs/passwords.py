"""Django's password validators with the texts in the app's own voice.

Django's Dutch catalogue addresses the reader as "u" where the app says "je", and in
Django 5.2 it lacks the new text of the "too short" message, which then shows in English
on a Dutch page. The rules themselves are Django's.
"""

from django.contrib.auth import password_validation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short: use at least %(min_length)d character.",
            "This password is too short: use at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}

    def get_help_text(self) -> str:
        return ngettext(
            "At least %(min_length)d character.",
            "At least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}


class UserAttributeSimilarityValidator(password_validation.UserAttributeSimilarityValidator):
    def get_help_text(self) -> str:
        return _("Not too much like your name or user name.")


class CommonPasswordValidator(password_validation.CommonPasswordValidator):
    def get_help_text(self) -> str:
        return _("Not a commonly used password.")


class NumericPasswordValidator(password_validation.NumericPasswordValidator):
    def get_help_text(self) -> str:
        return _("Not only digits.")
