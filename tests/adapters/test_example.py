"""examples/learn_to_beat_random.py stays runnable: a tiny run writes its learning curve."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the example needs boardct[rl] (numpy)")
pytest.importorskip("gymnasium", reason="the example needs boardct[rl] (Gymnasium)")
pytest.importorskip("matplotlib", reason="the example's curve needs boardct[report] (matplotlib)")

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_trains_and_saves_its_learning_curve(tmp_path):
    out = tmp_path / "curve.png"
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "learn_to_beat_random.py"), "--batches", "2",
         "--batch", "4", "--eval-every", "1", "--eval-games", "4", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode == 0, run.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "random against random: win rate" in run.stdout
