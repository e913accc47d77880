"""The club-room screen: a beamer or TV showing tonight's pairings, results and standings.

No login: it shows what the public pages show. The page polls its panels with htmx; an
unchanged competition answers 304 (competition/views/conditional.py), so a room full of
evenings costs one query per poll.
"""

from django.shortcuts import render

from competition import selectors
from competition.screen import screen_get

#: Seconds between two polls, and how long each panel stays up.
POLL_SECONDS = 15
PANEL_SECONDS = 12


def _context(club: str, competition: str) -> dict:
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    return {"screen": screen_get(competition_obj), "competition": competition_obj}


def club_screen(request, club: str, competition: str):
    return render(
        request,
        "competition/screen.html",
        {
            **_context(club, competition),
            "poll_seconds": POLL_SECONDS,
            "panel_seconds": PANEL_SECONDS,
        },
    )


def club_screen_panels(request, club: str, competition: str):
    """The panels alone, for the screen's poll."""
    return render(request, "competition/_screen_panels.html", _context(club, competition))
