"""The pages a visitor sees when something is wrong: Dutch, in the site's layout.

404, 403 and 400 are Django's own handlers with our templates (templates/404.html etc.);
500 is rendered without any request context, so it needs neither the database nor the
session. Only the CSRF failure needs a view of its own.
"""

from django.http import HttpRequest, HttpResponseForbidden
from django.template import loader


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponseForbidden:
    """A form sent from a page that was open too long, or with cookies blocked."""
    template = loader.get_template("403_csrf.html")
    return HttpResponseForbidden(template.render({"reason": reason}, request))
