"""``shared/`` stays pure (ARCHITECTURE §1): no pygame, twisted, yaml, sockets, clock,
threads, file or OS access, and no global ``random`` -- only seeded ``random.Random``."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "pygame", "pygame_gui", "twisted", "yaml", "socket", "time", "datetime", "threading",
    "asyncio", "select", "selectors", "subprocess", "os", "io", "pathlib", "platformdirs",
}


def violations(source: str, name: str = "<src>") -> list[str]:
    """Every forbidden import or global-random use in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FORBIDDEN:
                    found.append(f"{name}:{node.lineno} import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            if top in FORBIDDEN:
                found.append(f"{name}:{node.lineno} from {node.module}")
            if top == "random" and any(a.name != "Random" for a in node.names):
                found.append(f"{name}:{node.lineno} from random import a global function")
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == "random" and node.attr != "Random"):
            found.append(f"{name}:{node.lineno} random.{node.attr} (global random)")
    return found


def test_the_checker_catches_what_it_must():
    bad = "import time\nfrom twisted.internet import reactor\nimport random\nrandom.shuffle(x)\nfrom random import choice\n"
    assert len(violations(bad)) == 4
    assert violations("import random\nr = random.Random(3)\nr.shuffle(x)\n") == []


def test_shared_sources_are_pure():
    found = []
    for path in sorted((ROOT / "shared").rglob("*.py")):
        found += violations(path.read_text(), str(path.relative_to(ROOT)))
    assert found == []


def test_importing_every_shared_module_loads_no_forbidden_package():
    modules = [".".join(p.relative_to(ROOT).with_suffix("").parts)
               for p in (ROOT / "shared").rglob("*.py") if p.name != "__init__.py"]
    code = (
        "import sys, importlib\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'pygame', 'pygame_gui', 'twisted', 'yaml', 'platformdirs'})\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
