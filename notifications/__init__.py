"""Notifications by mail: each person opts in per kind, a worker sends (django-tasks with its
database backend), each notification at most once, and the person sees what was sent.

Combines several apps below it (competition's rounds, games' results): it listens to their
signals and imports nothing above its own layer. docs/notifications.md says how it runs.
"""
