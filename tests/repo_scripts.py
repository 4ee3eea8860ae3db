"""The repository's scripts (benchmarks/, examples/: files, not modules of a package) for the
tests: loaded as modules, or run as a user runs them, with this checkout's sources."""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def load_script(relative: str) -> ModuleType:
    """`load_script("benchmarks/strength.py")`: the script loaded as a module, once a run."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(relative: str, *args: str) -> subprocess.CompletedProcess:
    """The script run in a process of its own with `args`, this checkout's src/ first on the
    path; its output captured, at most 300 s."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, str(ROOT / relative), *args], capture_output=True,
                          text=True, timeout=300, env=env, check=False)
