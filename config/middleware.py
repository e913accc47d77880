"""Dutch unless the visitor chose English: the language switch's cookie decides, not the
browser's Accept-Language (a club's members all read Dutch; their browsers may say English)."""

import logging
import time

from django.conf import settings
from django.db import OperationalError
from django.shortcuts import render
from django.utils import translation

from clubs.inputs import file_size_text
from config.security import SHARED_SINCE, shared_login_expired

logger = logging.getLogger(__name__)


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


# PostgreSQL's answers when a write could not get its turn: serialization failure,
# deadlock, lock timeout. (SQLite says "database is locked".)
BUSY_SQLSTATES = {"40001", "40P01", "55P03"}


def database_busy(error: BaseException) -> bool:
    """Whether `error` means "the database was busy with other writers", not a fault."""
    if not isinstance(error, OperationalError):
        return False
    if getattr(error.__cause__, "sqlstate", None) in BUSY_SQLSTATES:
        return True
    return "database is locked" in str(error) or "database table is locked" in str(error)


class DatabaseBusyMiddleware:
    """A write that waited longer than the database allows gets "try again", not a 500.

    On a club evening a long import or backup can hold SQLite's write lock while a board
    saves a move; past the busy timeout SQLite gives up. Nothing was written (the
    transaction rolled back), so the honest answer is 503 with Retry-After, in Dutch.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not database_busy(exception):
            return None
        logger.warning("Database busy on %s %s: %s", request.method, request.path, exception)
        response = render(request, "busy.html", status=503)
        response["Retry-After"] = "5"
        return response


class SharedDeviceMiddleware:
    """A login on a shared device ends after `SHARED_DEVICE_HOURS`, however long the browser
    stays open (its cookie already ends when the browser closes, `set_expiry(0)`; browsers
    that restore their tabs keep such cookies, so the server holds the hours itself).

    Reads the session only when the request has one, and once: authentication reads the
    same loaded session afterwards.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        session = request.session
        if (
            settings.SESSION_COOKIE_NAME in request.COOKIES
            and SHARED_SINCE in session
            and shared_login_expired(session[SHARED_SINCE], now=time.time())
        ):
            session.flush()
        return self.get_response(request)
