"""Suite-wide fixtures."""

from __future__ import annotations

import pytest

from boardct.cli.history import ENV_DATA_DIR


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Every test gets its own boardct data folder ($BOARDCT_DATA_DIR, inherited by the
    processes pexpect spawns): the game history and rescue saves of the games tests play
    never reach the real user folder, and no test sees another's history."""
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path_factory.mktemp("boardct-data")))
