"""Layering (DESIGN.md): data flows one way, engines <- companion core <- apps.

Every module under engines/ and companion/ is parsed (never imported) and its imports resolved,
relative ones included. An engine may not import panel, holoviews, bokeh, companion.ui or apps;
no companion module but companion/cli.py may import apps.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE_FORBIDDEN = ("panel", "holoviews", "bokeh", "companion.ui", "apps")
COMPANION_FORBIDDEN = ("apps",)
SERVER = "companion/cli.py"  # the one place that assembles the apps into a server


def module_name(relpath: str) -> str:
    parts = list(Path(relpath).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, relpath: str) -> set[str]:
    """Every module the source imports: `import a.b` gives a.b; `from a import b` gives a and a.b;
    relative imports are resolved against the module's package."""
    package = module_name(relpath).split(".")
    if not relpath.endswith("__init__.py"):
        package = package[:-1]
    names = set()
    for node in ast.walk(ast.parse(source, relpath)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:max(0, len(package) - node.level + 1)] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" if module else alias.name for alias in node.names)
    return names


def forbidden_for(relpath: str) -> tuple[str, ...]:
    if relpath.startswith("engines/"):
        return ENGINE_FORBIDDEN
    if relpath.startswith("companion/") and relpath != SERVER:
        return COMPANION_FORBIDDEN
    return ()


def violations(source: str, relpath: str) -> list[str]:
    """The forbidden imports of one module, as 'path imports name'."""
    banned = forbidden_for(relpath)
    return sorted(f"{relpath} imports {name}" for name in imported(source, relpath)
                  if any(name == b or name.startswith(b + ".") for b in banned))


MODULES = sorted(p.relative_to(ROOT).as_posix() for top in ("engines", "companion") for p in (ROOT / top).rglob("*.py"))


def test_there_are_modules_to_check():
    assert "companion/engine.py" in MODULES and any(m.startswith("engines/") for m in MODULES)


@pytest.mark.parametrize("relpath", MODULES)
def test_module_respects_the_layers(relpath):
    assert violations((ROOT / relpath).read_text(encoding="utf-8"), relpath) == []


@pytest.mark.parametrize("relpath, source, found", [
    ("engines/game/a.py", "import panel as pn", ["panel"]),
    ("engines/game/a.py", "import holoviews.plotting.bokeh", ["holoviews.plotting.bokeh"]),
    ("engines/game/a.py", "from bokeh.models import Div", ["bokeh.models", "bokeh.models.Div"]),
    ("engines/game/a.py", "from companion.ui import theme", ["companion.ui", "companion.ui.theme"]),
    ("engines/game/a.py", "from companion import ui, dice", ["companion.ui"]),
    ("engines/game/a.py", "def later():\n    import apps.game\n", ["apps.game"]),
    ("engines/game/__init__.py", "from ...apps import game", ["apps", "apps.game"]),
    ("engines/a.py", "from ..companion.ui import log", ["companion.ui", "companion.ui.log"]),
    ("companion/store.py", "from apps import index", ["apps", "apps.index"]),
    ("companion/ui/log.py", "from ...apps.game import view", ["apps.game", "apps.game.view"]),
    ("companion/ui/log.py", "import apps", ["apps"]),
], ids=["import", "dotted", "from", "from-ui", "from-package", "in-function", "relative-package", "relative-up",
        "companion-apps", "ui-relative-apps", "ui-apps"])
def test_the_checker_catches_a_violation(relpath, source, found):
    assert violations(source, relpath) == sorted(f"{relpath} imports {name}" for name in found)


@pytest.mark.parametrize("relpath, source", [
    ("companion/cli.py", "import apps.game\nfrom apps import index"),
    ("companion/ui/log.py", "import panel as pn\nimport holoviews as hv\nfrom . import theme"),
    ("companion/plots.py", "import holoviews as hv\nfrom bokeh.models import HoverTool"),
    ("engines/game/a.py", "from companion.engine import RuleError\nfrom . import rules\nfrom .state import State"),
    ("engines/game/a.py", "import panelling\nimport appsec\nfrom companion import uix"),
    ("engines/__init__.py", "from importlib import import_module"),
], ids=["cli-assembles-apps", "ui-uses-panel", "plots-use-holoviews", "engine-uses-core", "lookalike-names",
        "registry"])
def test_the_checker_allows_what_the_layers_allow(relpath, source):
    assert violations(source, relpath) == []


@pytest.mark.parametrize("relpath, source, expected", [
    ("engines/game/actions.py", "from . import rules", {"engines.game", "engines.game.rules"}),
    ("engines/game/actions.py", "from .state import State", {"engines.game.state", "engines.game.state.State"}),
    ("engines/game/__init__.py", "from .actions import table", {"engines.game.actions", "engines.game.actions.table"}),
    ("engines/game/sub/x.py", "from .. import rules", {"engines.game", "engines.game.rules"}),
])
def test_relative_imports_are_resolved(relpath, source, expected):
    assert imported(source, relpath) == expected
