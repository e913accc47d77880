"""The director's pages: attendance before a round and the round's pairing."""
