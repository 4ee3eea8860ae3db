"""What long-running commands tell the user: `boardct bench` shows a line with the time while it
measures (on a terminal; nothing in a pipe), and `boardct serve` says which SQLite file it
uses, keeping a new one in boardct's data folder rather than the current folder."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from cli_helpers import run

from boardct.cli import cmd_serve
from boardct.cli.history import data_dir


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pseudo-terminal")
def test_bench_shows_what_it_measures_while_it_runs(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    child = pexpect.spawn(exe, ["bench", "hills", "--seconds", "1"], cwd=str(tmp_path),
                          encoding="utf-8", timeout=120, dimensions=(24, 80),
                          env=dict(os.environ, COLUMNS="80", LINES="24"))
    child.expect_exact("bench: hills, 1 CPU s of random playouts...")
    child.expect_exact("random playouts")  # the figures, once done
    child.expect(pexpect.EOF)


def test_bench_into_a_pipe_prints_only_the_figures():
    code, out = run("bench", "hills", "--seconds", "0.2")
    assert code == 0 and "bench:" not in out and "random playouts" in out


def test_serve_keeps_a_new_database_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url = cmd_serve.default_database()
    folder = data_dir()
    assert folder is not None
    assert url == f"sqlite:///{(folder / 'boardct.db').as_posix()}"
    assert cmd_serve.sqlite_file(url) == (folder / "boardct.db").resolve()
    assert not (tmp_path / "boardct.db").exists()  # nothing left where it was started


def test_serve_goes_on_with_the_database_an_earlier_server_left_in_the_folder(tmp_path,
                                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "boardct.db").write_bytes(b"")
    assert cmd_serve.default_database() == "sqlite:///boardct.db"
    assert cmd_serve.sqlite_file("sqlite:///boardct.db") == (tmp_path / "boardct.db").resolve()


def test_a_database_that_is_not_a_sqlite_file_has_no_file_to_name():
    assert cmd_serve.sqlite_file("postgresql+psycopg://u@h/db") is None
    assert cmd_serve.sqlite_file("sqlite://") is None
