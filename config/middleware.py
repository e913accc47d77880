"""Dutch unless the visitor chose English: the language switch's cookie decides, not the
browser's Accept-Language (a club's members all read Dutch; their browsers may say English)."""

from django.conf import settings
from django.shortcuts import render
from django.utils import translation

from clubs.inputs import file_size_text


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


class UploadSizeLimitMiddleware:
    """Refuse a request body far larger than any upload may be, before reading it.

    A 50 MB "CSV" would otherwise be read, stored and parsed while a worker waits. Files
    just above the limit reach the form, which says so next to the field.
    """

    # Room for the other form fields and the multipart boundaries around the file.
    FORM_ALLOWANCE = 256 * 1024

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.UPLOAD_MAX_SIZE + self.FORM_ALLOWANCE
        if length > limit:
            return render(
                request,
                "upload_too_large.html",
                {
                    "size": file_size_text(length),
                    "limit": file_size_text(settings.UPLOAD_MAX_SIZE),
                    "back": request.get_full_path(),
                },
                status=413,
            )
        return self.get_response(request)
