"""Helpers shared by the terminal tests: run `boardct` in process and write a script file."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from boardct.cli.main import cli


def run(*args: object, input: bytes | str | None = None) -> tuple[int, str]:
    """`boardct ARGS` in process: its exit status and everything it printed. A traceback is
    not caught, so a crash fails the test that caused it."""
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input,
                                catch_exceptions=False)
    return result.exit_code, result.output


def script(tmp_path: Path, *lines: str, name: str = "game.txt") -> str:
    """A `--script` file holding `lines`, one token a line."""
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)
