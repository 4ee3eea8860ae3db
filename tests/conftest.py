"""Suite-wide fixtures, and the sixth game installed for the whole run."""

from __future__ import annotations

import contextlib
import faulthandler
import importlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import warnings
from pathlib import Path

import pytest

from boardct.cli.history import ENV_DATA_DIR
from boardct.core import registry

SIXTH_GAME = Path(__file__).with_name("sixth_game")  # Sealed Bids, a package of its own
_installed: list[Path] = []


def pytest_configure(config: pytest.Config) -> None:
    """Install the sixth game as any game package is installed (pip, from its folder, into a
    private folder put on the path of this process and of every process the tests start), so
    that boardct finds it through the `boardct.games` entry point alone."""
    work = Path(tempfile.mkdtemp(prefix="boardct-sixth-game-"))
    _installed.append(work)
    source = shutil.copytree(SIXTH_GAME, work / "source")  # the build leaves its files there
    site = work / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-build-isolation", "--no-index", "--target", str(site),
                           str(source)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise pytest.UsageError(f"could not install the sixth game from {SIXTH_GAME}: "
                                f"{done.stderr.strip()[-2000:]}")
    sys.path.insert(0, str(site))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site),
                                                             os.environ.get("PYTHONPATH")]))
    importlib.invalidate_caches()
    registry.refresh()
    # pexpect's pseudo-terminal never answers a cursor position request, as a real terminal
    # does: without this, prompt_toolkit waits for the answer and then prints a warning
    os.environ.setdefault("PROMPT_TOOLKIT_NO_CPR", "1")


# A test that outlives pytest-timeout's limit fails with its stacks. But pytest-timeout stops
# its timer as soon as a test has failed (it makes way for a debugger), and so does pytest's
# own faulthandler timeout, so a teardown that then hangs has no limit at all: in CI, a failed
# server test left its websocket open, the test client's exit waited for ever, and the run
# stopped at CI's own limit without naming the test. This watchdog, a timer of its own that
# nothing else cancels, covers the whole test, teardown included: past its time it prints the
# test's name and every thread's stack and ends the process, which pytest-xdist reports as the
# worker crashing in that test before it starts another worker and goes on.
# Beyond pytest-timeout's 300 s, which answers first when it can ($BOARDCT_TEST_WATCHDOG: the
# test of the watchdog itself, tests/test_watchdog.py, sets a short one).
WATCHDOG_SECONDS = float(os.environ.get("BOARDCT_TEST_WATCHDOG", "420"))


def _watchdog_fires(item: pytest.Item) -> None:
    capman = item.config.pluginmanager.getplugin("capturemanager")
    with contextlib.suppress(Exception):  # what the test printed is let go: the stacks matter
        capman.suspend_global_capture(in_=True)
    sys.stderr.write(f"\nwatchdog: {item.nodeid} still running after {WATCHDOG_SECONDS:g} s "
                     "(pytest-timeout had stopped watching it); every thread's stack:\n")
    sys.stderr.flush()
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    os._exit(1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    timer = threading.Timer(WATCHDOG_SECONDS, _watchdog_fires, args=(item,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _close_left_websockets(client_class: type) -> None:
    """Make a Starlette test client close, on its own exit, any websocket session a test
    opened and did not close. Such a session's task lives in the client's event-loop thread
    and never ends by itself, so the client's exit (joining that thread) would wait for ever:
    a failed assertion between opening a socket and closing it would hang the test's
    teardown instead of reporting the failure."""
    connect, leave = client_class.websocket_connect, client_class.__exit__

    def websocket_connect(self, *args, **kwargs):
        session = connect(self, *args, **kwargs)
        self.__dict__.setdefault("_sessions", []).append(session)
        return session

    def __exit__(self, *exc):
        for session in self.__dict__.pop("_sessions", []):
            if getattr(session, "exit_stack", None) is not None:
                # closing a closed session does nothing; a broken one is let go
                with contextlib.suppress(Exception):
                    session.exit_stack.close()
        return leave(self, *exc)

    client_class.websocket_connect = websocket_connect
    client_class.__exit__ = __exit__


try:
    with warnings.catch_warnings():  # Starlette's notice that it prefers httpx2 to httpx
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient as _StarletteTestClient
except ImportError:  # the server extra is not installed: no server tests either
    pass
else:
    _close_left_websockets(_StarletteTestClient)


def pytest_unconfigure(config: pytest.Config) -> None:
    for work in _installed:
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Every test gets its own boardct data folder ($BOARDCT_DATA_DIR, inherited by the
    processes pexpect spawns): the game history and rescue saves of the games tests play
    never reach the real user folder, and no test sees another's history."""
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path_factory.mktemp("boardct-data")))


@pytest.fixture(autouse=True)
def _signals_as_a_shell_gives_them():
    """Programs the terminal tests spawn inherit this process's signal dispositions, and
    `boardct` keeps an ignored signal ignored on purpose (as under `nohup`). A library a test
    uses can leave SIGINT ignored in the pytest process (the suite's Ray test did, in CI), and
    every later Ctrl-C test then saw a `boardct` that ignored Ctrl-C. Each test starts with
    SIGINT as a shell gives it, and what a test changed is put back after it."""
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    if saved[signal.SIGINT] == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    for sig, handler in saved.items():
        if handler is not None and signal.getsignal(sig) != handler:
            signal.signal(sig, handler)

