"""A redis-server of a test's own (tests/hosted_stack.py, `Redis`): without the binary a
test that needs it skips with the reason on a developer machine, and fails in CI
(CI=true), where .ci/run installs it."""

import os

import pytest

from tests.hosted_stack import REDIS_SERVER, Redis


@pytest.fixture
def redis_server(tmp_path):
    """A redis-server without persistence on a free port, stopped after the test."""
    if REDIS_SERVER is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("redis-server not found; .ci/run installs Debian's redis-server")
        pytest.skip("redis-server not found; install Debian's redis-server")
    server = Redis(tmp_path / "redis")
    yield server
    server.stop()
