"""The hosted stack's tests (marker `hosted`): nginx, two app servers, PostgreSQL and Redis,
each started by the test (tests/hosted_stack.py). Without one of them the tests skip with
the reason on a developer machine, and fail in CI (CI=true), where .ci/run installs them."""

import os

import pytest

from tests import hosted_stack


@pytest.fixture
def stack_components():
    """Skip (fail in CI) when this machine lacks a component of the stack."""
    reason = hosted_stack.missing()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason} (.ci/run installs it)")
        pytest.skip(reason)
