"""The competition app: competitions, entrants, rounds, pairings and standings.

Django: the app around its pure core, `competition.core` (no Django there).
"""
