"""The operator: an account with the permission `clubs.operate_service`, not staff."""

import pytest
from django.contrib.auth.models import Permission

from tests.factories import UserFactory


@pytest.fixture
def operator(db):
    user = UserFactory(username="operator")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="clubs", codename="operate_service")
    )
    return user


@pytest.fixture
def operator_client(client, operator):
    client.force_login(operator)
    return client
