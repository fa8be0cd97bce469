"""Suite-wide checks: every `@pytest.mark.rule(...)` names a rule ID that a game's rules know."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

import engines

# Property tests: derandomized in CI (a red run is reproduced by running it again); random seeds and ten
# times the examples under `make fuzz` (tests/scale.py), which prints the seed to replay a failure.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", derandomize=False, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _known_rule_ids() -> set[str]:
    return {rule for engine in engines.registry().values() for rule in engine.rules}


def pytest_collection_modifyitems(config, items):
    known = _known_rule_ids()
    for item in items:
        for marker in item.iter_markers("rule"):
            if not marker.args:
                raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.rule needs a rule ID")
            for rule_id in marker.args:
                if rule_id not in known:
                    raise pytest.UsageError(f"{item.nodeid}: unknown rule ID {rule_id!r} in @pytest.mark.rule")


@pytest.fixture(scope="session")
def panel_extensions():
    """Panel and HoloViews loaded as a served app loads them (HoloViews options need a plotting backend)."""
    from companion.ui.theme import extension
    extension("tabulator")
