"""Duplicate evenings: a master game per evening, every slip scored by the engine."""
