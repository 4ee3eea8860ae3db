"""Fuzz tests (issue 15). Profile: BOARDCT_FUZZ_PROFILE=ci (default) or deep; see fuzz_kit.

Under the deep profile (or with BOARDCT_FUZZ_REPORT=1) the session ends with the number of
inputs each target tried and how many per second, per target and per game.
"""

from __future__ import annotations

import os
import time

import pytest
from fuzz_kit import PROFILE, TARGETS, count_table


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Time each fuzz test as a whole (inputs generated and run) for the summary's rates."""
    target = getattr(getattr(item, "obj", None), "fuzz_target", None)
    t0 = time.perf_counter()
    try:
        return (yield)
    finally:
        if target is not None:
            target.seconds += time.perf_counter() - t0


def pytest_report_header(config):
    return f"boardct fuzz profile: {PROFILE}"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if PROFILE != "deep" and not os.environ.get("BOARDCT_FUZZ_REPORT"):
        return
    ran = [t for t in TARGETS.values() if t.tried]
    if not ran:
        return
    terminalreporter.section(f"fuzz inputs tried (profile {PROFILE})")
    for line in count_table(ran):
        terminalreporter.write_line(line)
