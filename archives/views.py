"""The club archive as a download for the club's secretaries.

Django: a view.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.cache import never_cache

from archives.backup import club_archive
from archives.services import archive_downloaded
from clubs.models import Club
from clubs.permissions import can_manage_club


@never_cache
@login_required
def club_backup(request, club: str):
    """The whole club as the archive `manage.py export_club` writes: for its secretaries
    (and the operator acting for the club). The download is kept (`archive_downloaded`):
    the operator removes a club only after one."""
    club_obj = get_object_or_404(Club, slug=club)
    if not can_manage_club(request.user, club_obj):
        raise PermissionDenied
    taken_at = timezone.now()
    response = HttpResponse(club_archive(club=club_obj), content_type="application/zip")
    archive_downloaded(club=club_obj, by=request.user, at=taken_at)
    stamp = timezone.localtime(taken_at).strftime("%Y-%m-%d")
    response["Content-Disposition"] = f'attachment; filename="{club_obj.slug}-{stamp}.zip"'
    return response
