"""The ranking's fixtures (tests/ranking/fixtures.py), shared with its browser test."""

from tests.ranking.fixtures import *  # noqa: F403
