"""Dutch unless the visitor chose English: the language switch's cookie decides, not the
browser's Accept-Language (a club's members all read Dutch; their browsers may say English)."""

from django.conf import settings
from django.utils import translation


def chosen_language(request) -> str:
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    available = {code for code, _name in settings.LANGUAGES}
    return chosen if chosen in available else settings.LANGUAGE_CODE


class ChosenLanguageMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        language = chosen_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response
