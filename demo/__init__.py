"""Demo data for a developer's `make run` (`manage.py seed_demo`)."""
