"""Table Companion: the game-agnostic toolkit (dice, odds, event log, store, plots, UI, server)."""
