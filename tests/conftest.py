"""Suite-wide checks: every `@pytest.mark.rule(...)` names a rule ID that a game's rules know."""
from __future__ import annotations

import pytest

import engines


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
