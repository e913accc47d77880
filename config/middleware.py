"""Dutch unless the visitor chose English: the language switch's cookie decides, not the
browser's Accept-Language (a club's members all read Dutch; their browsers may say English)."""

import logging
import time

from django.conf import settings
from django.db import connection
from django.shortcuts import render
from django.utils import translation

from clubs.inputs import file_size_text
from clubs.language import chosen_language
from config.faults import EXPLANATIONS, REMEDIES, TITLES, Fault, fault_of
from config.security import SHARED_SINCE, shared_login_expired

logger = logging.getLogger(__name__)


class ChosenLanguageMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        """The request in its reader's language, and only the request: the thread's language
        is given back afterwards (a thread serves many readers; a test many requests)."""
        language = chosen_language(request)
        request.LANGUAGE_CODE = language
        with translation.override(language):
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


class DatabaseFaultMiddleware:
    """A write the database refused for a reason of its own gets a Dutch 503, not a 500.

    Busy (a long import or backup held the write lock past the timeout), read-only, disk
    full, unreachable (`config.faults`): nothing of the request was written (the
    transaction rolled back). The page says what is wrong for whoever can fix it and holds
    what was typed, to save again with one tap. A fault is logged once, with its traceback;
    the connection is closed, so that the next request opens a new one once the cause is
    fixed (a connection SQLite opened read-only stays read-only).
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        fault = fault_of(exception)
        if fault is None:
            return None
        return fault_response(request, fault, exception)


def fault_response(request, fault: Fault, exception: BaseException):
    if fault is Fault.BUSY:
        logger.warning("Database busy on %s %s: %s", request.method, request.path, exception)
    else:
        logger.error(
            "Database fault (%s) on %s %s", fault, request.method, request.path, exc_info=exception
        )
        connection.close()
    response = render(request, "database_fault.html", fault_context(request, fault), status=503)
    response["Retry-After"] = "5"
    response["X-Bordpunt-Fault"] = fault.value
    response._has_been_logged = True  # type: ignore[attr-defined]  # Django's own flag: logged once
    return response


def fault_context(request, fault: Fault) -> dict:
    """The fault's texts, and what the request posted, to post again from the page."""
    typed = []
    if request.method == "POST":
        typed = [
            (name, value)
            for name, values in request.POST.lists()
            if name != "csrfmiddlewaretoken" and "password" not in name
            for value in values
        ]
    return {
        "fault": fault.value,
        "title": TITLES[fault],
        "explanation": EXPLANATIONS[fault],
        "remedy": REMEDIES[fault],
        "typed": typed,
        # A button with nothing to type (a new address, say) is sent again the same way.
        "posted": request.method == "POST",
        "had_files": request.method == "POST" and bool(request.FILES),
        "again": request.get_full_path(),
    }


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
