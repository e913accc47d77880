"""The person's notification settings with what was sent, and the one-click unsubscribe."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from clubs.language import chosen_language
from notifications.forms import SubscriptionsForm
from notifications.kinds import Kind
from notifications.selectors import notifications_of, subscribed_kinds
from notifications.services import mail_is_set_up, subscription_end, subscriptions_set
from notifications.tokens import unsubscribe_read


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    user_id = cast(int, request.user.pk)  # logged in
    if request.method == "POST":
        form = SubscriptionsForm(request.POST)
        if form.is_valid():
            subscriptions_set(
                user_id=user_id,
                kinds=form.cleaned_data["kinds"],
                language=chosen_language(request),
            )
            messages.success(request, _("Your notifications are saved."))
            return redirect("notification_settings")
    else:
        form = SubscriptionsForm(initial={"kinds": subscribed_kinds(user_id)})
    return render(
        request,
        "notifications/settings.html",
        {
            "form": form,
            "mail_set_up": mail_is_set_up(),
            "notifications": notifications_of(user_id),
        },
    )


# RFC 8058: the mail program POSTs "List-Unsubscribe=One-Click" to the address, with no
# cookie and no CSRF token; the signed token is the authority. A GET (a person's click, or
# a scanner looking at links) only shows the button.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def notification_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    read = unsubscribe_read(token)
    if read is None:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=404)
    user_id, kind = read
    done = False
    if request.method == "POST":
        subscription_end(user_id=user_id, kind=kind)
        done = True
    return render(
        request,
        "notifications/unsubscribe.html",
        {"kind": Kind(kind).label, "done": done},
    )
