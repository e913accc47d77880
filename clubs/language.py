"""The reader's language: Dutch unless the visitor chose English with the language switch.

The switch's cookie decides, not the browser's Accept-Language (a club's members all read
Dutch; their browsers may say English). Here, below every app, so that any layer that
answers a request before the middleware has run (the public pages' 304) asks the same rule.

Django: reads the settings.
"""

from django.conf import settings


def chosen_language(request) -> str:
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    available = {code for code, _name in settings.LANGUAGES}
    return chosen if chosen in available else settings.LANGUAGE_CODE
