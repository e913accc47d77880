"""Dutch unless the visitor chose English: the language switch's cookie decides, not the
browser's Accept-Language (a club's members all read Dutch; their browsers may say English)."""

from django.conf import settings
from django.utils import translation


class ChosenLanguageMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.available = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        language = chosen if chosen in self.available else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response
