"""`python -m bordpunt`: the same as the `bordpunt` command."""

from bordpunt.cli import main

raise SystemExit(main())
