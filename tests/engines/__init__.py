"""Tests of the game engines: the generic conformance suite and one folder per game."""
