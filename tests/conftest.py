"""Suite-wide fixtures."""

from __future__ import annotations

import signal

import pytest

from boardct.cli.history import ENV_DATA_DIR


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
