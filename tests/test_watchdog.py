"""The suite's watchdog (tests/conftest.py): a test that hangs where pytest-timeout no longer
watches (after a failure, in its teardown) ends its process with every thread's stack instead
of holding the run until CI's own limit, as it did twice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent

HANGS = '''
import threading

import pytest


@pytest.fixture
def stuck():
    yield
    threading.Event().wait()  # a teardown that never ends


def test_fails_then_hangs_in_teardown(stuck):
    assert False, "the failure that stops pytest-timeout's timer"
'''


def test_a_teardown_hanging_after_a_failure_ends_with_its_stack(tmp_path):
    (tmp_path / "test_hangs.py").write_text(HANGS)
    env = dict(os.environ, BOARDCT_TEST_WATCHDOG="3",
               PYTHONPATH=os.pathsep.join(filter(None, [str(TESTS),
                                                        os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider",
         "-o", "timeout=300", "--rootdir", str(tmp_path), str(tmp_path / "test_hangs.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert ("watchdog: test_hangs.py::test_fails_then_hangs_in_teardown still running after "
            "3 s") in done.stderr, done.stderr[-2000:]
    assert "in stuck" in done.stderr  # the stack names where it hung
