"""Tests of the Galactic Chess Game engine (digest: rules/galactic_chess.md, prefix GC)."""
