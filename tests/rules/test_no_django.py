"""The rules engine is pure Python: no Django, no database (issue 3)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "casino" / "rules"


def _imported_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_module_of_the_rules_engine_mentions_django_in_an_import():
    offenders = {
        str(path.relative_to(RULES)): sorted(n for n in _imported_names(path) if n.split(".")[0] == "django")
        for path in RULES.rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_importing_every_rules_module_leaves_django_unloaded():
    modules = sorted(
        "casino.rules." + ".".join(path.relative_to(RULES).with_suffix("").parts).removesuffix(".__init__")
        for path in RULES.rglob("*.py")
    )
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name.removesuffix('.__init__').rstrip('.'))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'django')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          cwd=RULES.parents[1])
    assert json.loads(done.stdout) == []
