"""Tests of the game-agnostic toolkit."""
