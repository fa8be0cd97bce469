"""Tests of the Battle at Bull Run engine (digest: rules/bull_run.md, prefix BR)."""
