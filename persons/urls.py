"""The secretary's pages of persons, under /<club>/beheer/spelers/.

Django: URLs.
"""

from django.urls import path

from persons import views

urlpatterns = [
    path("<slug:club>/beheer/spelers/nieuw/", views.member_add_view, name="member_add"),
    path("<slug:club>/beheer/spelers/samenvoegen/", views.merge_view, name="persons_merge"),
    path(
        "<slug:club>/beheer/spelers/samenvoegen/<id:merge_id>/ongedaan-maken/",
        views.unmerge_view,
        name="persons_unmerge",
    ),
    path(
        "<slug:club>/beheer/spelers/<id:player_id>/lidmaatschap/",
        views.membership_view,
        name="club_membership",
    ),
]
