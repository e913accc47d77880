"""The club archive's address, beside the club's own pages.

Django: the URL configuration.
"""

from django.urls import path

from archives.views import club_backup

urlpatterns = [
    path("<slug:club>/beheer/backup.zip", club_backup, name="club_backup"),
]
