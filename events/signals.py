"""What the events app tells the apps above it, which it may not import.

`season_changed` is sent inside the transaction that changed a season's settings
(`events.services.season_update`), so that what follows from them is written with the
change or not at all: the ranking (ranking/) scores the season's ranked games again when
its GV changed. Arguments: `season` (an `events.models.Season`, as saved) and `changed`
(the names of the settings that changed, never empty).

`event_changed` is sent the same way inside the transaction that changed an event's
settings (`events.services.event_update`): the ranking publishes the event's games again
under its season, date, kind and name as they are now, or takes them out of the ranking
when the event no longer has a season. Arguments: `event` (an `events.models.Event`, as
saved) and `changed` (the names of the settings that changed, never empty).

`entry_made` is sent inside the transaction that entered a person in an event
(`events.services.entry_create` and `entry_create_by_number`): the notifications tell the
person after the commit. Arguments: `entry_id` (int).

Django: a signal.
"""

from django.dispatch import Signal

season_changed = Signal()
event_changed = Signal()
entry_made = Signal()
