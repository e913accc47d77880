"""Pairing a round: the pure engines in `pairing.core` and the app around them."""
