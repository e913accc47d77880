"""The pages a visitor sees when something is wrong: Dutch, in the site's layout.

404, 403 and 400 are Django's own handlers with our templates (templates/404.html etc.);
500 is rendered without any request context, so it needs neither the database nor the
session; a database fault that reaches it (raised before any view, in a middleware that
reads the session, say) gets the 503 page that names the fault instead. Only the CSRF
failure needs a view of its own.
"""

import sys

from django.http import HttpRequest, HttpResponseForbidden
from django.template import loader
from django.views import defaults

from config.faults import fault_of
from config.middleware import fault_response


def server_error(request: HttpRequest, template_name: str = "500.html"):
    error = sys.exc_info()[1]
    fault = fault_of(error)
    if fault is not None and error is not None:
        return fault_response(request, fault, error)
    return defaults.server_error(request, template_name)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponseForbidden:
    """A form sent from a page that was open too long, or with cookies blocked."""
    template = loader.get_template("403_csrf.html")
    return HttpResponseForbidden(template.render({"reason": reason}, request))
