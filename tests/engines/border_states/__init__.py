"""Tests of the 灰に硝煙と青き天 engine (digest: rules/border_states.md, prefix BS)."""
