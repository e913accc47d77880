"""Sign-up and the operator's pages.

Django: the URL configuration.
"""

urlpatterns: list = []
