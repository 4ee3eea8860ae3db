"""The adapters' libraries are optional extras (issue 20 item 5): the core install stays light,
and a missing library is named with the extra that brings it."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module, library, extra", [
    ("boardct.adapters.pettingzoo", "pettingzoo", "rl"),
    ("boardct.adapters.gymnasium", "gymnasium", "rl"),
    ("boardct.adapters.openspiel", "pyspiel", "openspiel"),
])
def test_a_missing_library_names_the_extra_to_install(monkeypatch, module, library, extra):
    monkeypatch.setitem(sys.modules, library, None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError, match=rf"boardct\[{extra}\]"):
        importlib.import_module(module)


def test_the_core_and_the_adapters_package_import_no_heavy_library():
    code = ("import sys, boardct.core.registry as r, boardct.adapters, boardct.adapters.common;"
            "r.all_games(); import boardct.agents;"
            "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel')"
            " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert out.stdout.strip() == "[]"


def test_pyproject_declares_the_extras_with_lower_bounds():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert extras["rl"] == ["numpy>=1.26", "gymnasium>=1.0", "pettingzoo>=1.24"]
    # OpenSpiel has no Windows wheels: the README's test command must still install there
    assert extras["openspiel"] == ["open_spiel>=1.5; sys_platform != 'win32'", "numpy>=1.26"]
    core = " ".join(project["dependencies"])
    for heavy in ("numpy", "gymnasium", "pettingzoo", "open_spiel"):
        assert heavy not in core
