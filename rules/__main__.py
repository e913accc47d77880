"""``python -m rules``: see :mod:`rules.cli`. Imports nothing from Django."""

from rules.cli import main

raise SystemExit(main())
