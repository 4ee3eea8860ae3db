"""Earlier versions of boardct, taken from this repository's git history, for the before/after
benchmarks: no frozen copy of old code lives in the tree.

- `source_tree(spec, into)`: a tree to run in a fresh interpreter (`PYTHONPATH=<it>`). `spec`
  is a folder holding the `boardct` package, or a git revision whose `src/` is exported with
  `git archive`. This tree's `arena/bench.py` is copied into it, so that both columns of a
  before/after are measured by one instrument.
- `register_agent_at("mcts@3bc2f5c")`: the agent module `src/boardct/agents/mcts.py` as it was
  at that revision, loaded in this process beside this tree's engines and registered under
  the name `mcts@3bc2f5c` (its own `register("mcts", ...)` is undone, so this tree's `mcts`
  stays). The old search then plays the same engines as the new one, as in an arena at equal
  CPU time. An agent module at an older revision must still run on this tree's core API.

Revisions used in benchmarks/results/: 3bc2f5c (the agent before issue 21, once the copy
`mcts_old.py`), 4893f96 (main before branch mcts3, once `mcts_main3.py`), 33b3f9d (main before
branch fsmcts4, once `mcts_main4.py`).
"""

from __future__ import annotations

import importlib.util
import io
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path("boardct") / "arena" / "bench.py"


class RevisionError(ValueError):
    """A revision git does not know, or a file it does not hold (the message says which)."""


def _git(*args: str) -> bytes:
    try:
        proc = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True,
                              check=False)
    except FileNotFoundError:
        raise RevisionError("git is not installed: a revision cannot be read") from None
    if proc.returncode != 0:
        raise RevisionError(f"git {' '.join(args)}: "
                            f"{proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout


def commit(rev: str) -> str:
    """The full hash of the commit `rev` names; RevisionError when there is none (an unknown
    name, or a shallow clone without that history)."""
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    except RevisionError:
        raise RevisionError(f"{rev!r} is not a revision of this repository ({ROOT})") from None


def available(rev: str) -> bool:
    """Whether `rev` can be read here (tests skip without the history)."""
    try:
        commit(rev)
    except RevisionError:
        return False
    return True


def export(rev: str, into: Path) -> Path:
    """`rev`'s src/ written into `into` (git archive), returned as the folder to import from."""
    data = _git("archive", commit(rev), "src")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def source_tree(spec: str | Path, into: Path) -> Path:
    """The folder to put on PYTHONPATH for `spec` (a folder with `boardct/`, or a revision),
    made under `into` with this tree's bench as the one instrument. This tree's own `src` is
    returned as it is."""
    given = Path(spec)
    if (given / "boardct").is_dir():
        if given.resolve() == (ROOT / "src").resolve():
            return given
        src = into / "src"
        shutil.copytree(given, src, ignore=shutil.ignore_patterns("__pycache__"))
    else:
        src = export(str(spec), into)
    target = src / BENCH
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "src" / BENCH, target)
    return src


def file_at(rev: str, path: str) -> str:
    """The text of `path` (relative to the repository's root) at revision `rev`."""
    return _git("show", f"{commit(rev)}:{path}").decode("utf-8")


def agent_module(name: str, rev: str) -> ModuleType:
    """`src/boardct/agents/<name>.py` at `rev`, imported beside this tree (once a process) as
    the module `boardct_at_<hash>_<name>`; whatever it registers is undone."""
    from boardct.agents import base

    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise RevisionError(f"{name!r} is not an agent module's name")
    full = commit(rev)
    modname = f"boardct_at_{full[:12]}_{name}"
    if modname in sys.modules:
        return sys.modules[modname]
    source = file_at(full, f"src/boardct/agents/{name}.py")
    spec = importlib.util.spec_from_loader(modname, loader=None,
                                           origin=f"{rev}:src/boardct/agents/{name}.py")
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    kept = dict(base._AGENTS)  # the module registers itself as `name`: undone below
    sys.modules[modname] = module
    try:
        exec(compile(source, spec.origin or modname, "exec"), module.__dict__)
    except BaseException:
        del sys.modules[modname]
        raise
    finally:
        module.registered = {k: v for k, v in base._AGENTS.items() if kept.get(k) is not v}
        base._AGENTS.clear()
        base._AGENTS.update(kept)
    return module


def register_agent_at(label: str) -> str:
    """Register `NAME@REV` (the agent NAME as its module was at REV) and return the label;
    a label without `@` is left alone (an agent of this tree)."""
    name, at, rev = label.partition("@")
    if not at:
        return label
    module = agent_module(name, rev)
    factory = module.registered.get(name)
    if factory is None:
        raise RevisionError(f"src/boardct/agents/{name}.py at {rev} registers no agent {name!r}")
    from boardct.agents.base import register

    register(label, factory)
    return label
