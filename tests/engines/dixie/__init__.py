"""Tests of the Dixie: Gettysburg engine (digest: rules/dixie.md, prefix DX)."""
