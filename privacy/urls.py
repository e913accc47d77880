"""A person's own data and its erasure, the privacy page.

Django: the URL configuration.
"""

urlpatterns: list = []
