"""Write operations of the competition app, one module per use case.

Every function here runs inside `transaction.atomic` and raises `CompetitionError` with a
translatable message when the operation cannot be done; nothing is half written.
"""

from typing import Any


class CompetitionError(Exception):
    def __init__(self, message: Any, *, errors: list[Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or []
