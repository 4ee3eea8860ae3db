"""The fuzzing kit shared by tests/fuzz: profiles, targets, oracles, text strategies, mutations.

A *fuzz target* is a function of one argument, `draw` (Hypothesis' `data.draw`), that builds
one input, feeds it to boardct through the core API (or a loader, or the terminal), and checks
the oracle of issue 15: only `BoardctError` subclasses escape, and a rejected input changes
nothing. `@fuzz(game)` registers a target and turns it into a pytest test; `tests/fuzz/run.py`
runs the same registered targets outside pytest for a given number of inputs each, counting
inputs per second and grouping every crash by where it happened instead of stopping at the
first.

Profiles (environment variable BOARDCT_FUZZ_PROFILE):
- `ci` (the default, and whenever no profile is named): each target's own small budget,
  derandomized (the same inputs on every run), so the whole suite stays well under a minute.
- `deep`: BOARDCT_FUZZ_EXAMPLES inputs per target (default 2,000), random seeds; the pytest
  session ends with a table of inputs tried per target and per second.

Nothing here writes outside a private temporary folder: file loaders read scratch files in it,
and terminal targets run with it as the working folder, with dialogue answers kept inside it.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from boardct.core import registry
from boardct.core.errors import BoardctError
from boardct.core.game import State
from boardct.core.records import record_of

Draw = Callable[[st.SearchStrategy], Any]

# -- profiles ---------------------------------------------------------------------------------
PROFILE = os.environ.get("BOARDCT_FUZZ_PROFILE", "").strip().lower() or "ci"
if PROFILE not in ("ci", "deep"):
    raise RuntimeError(f"BOARDCT_FUZZ_PROFILE={PROFILE!r}: expected ci or deep")
DEEP_EXAMPLES = int(os.environ.get("BOARDCT_FUZZ_EXAMPLES", "2000"))
# One input may take this long before it counts as a hang (a crash of its own). CTF 2187 turns
# and the command-line runs take milliseconds; many seconds mean an unbounded loop or read. The
# limit leaves room for a machine busy with other work (a CI runner's neighbours): a slow input
# must not pass for a hang.
TIME_LIMIT = float(os.environ.get("BOARDCT_FUZZ_TIME_LIMIT", "20"))
# Inputs that make today's boardct allocate or loop without bound (10**7 bots per team, a
# deck of 10**8 cards, an option naming /dev/zero) are the subject of issue 15 item 2's own
# tests. Each costs the whole time limit and up to MEMORY_LIMIT, so the fuzzers draw them only
# when asked (BOARDCT_FUZZ_HAZARDS=1, or run.py --hazards); otherwise such counts are bounded.
HAZARDS = os.environ.get("BOARDCT_FUZZ_HAZARDS", "") not in ("", "0")

_COMMON = dict(
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=False,
)
# No shrinking in CI unless asked (BOARDCT_FUZZ_SHRINK=1): shrinking a crash can take minutes,
# and a failing example is reproduced as is (derandomized: the same inputs on every run).
_CI_PHASES = tuple(Phase) if os.environ.get("BOARDCT_FUZZ_SHRINK") else \
    (Phase.explicit, Phase.reuse, Phase.generate)
settings.register_profile("boardct-fuzz-ci", derandomize=True, phases=_CI_PHASES, **_COMMON)
settings.register_profile("boardct-fuzz-deep", derandomize=False, **_COMMON)


def profile_settings(ci_examples: int) -> settings:
    """The settings of one fuzz test under the selected profile (applied per test, never
    loaded globally, so the other Hypothesis tests of the suite keep their own)."""
    if PROFILE == "deep":
        return settings(settings.get_profile("boardct-fuzz-deep"), max_examples=DEEP_EXAMPLES)
    return settings(settings.get_profile("boardct-fuzz-ci"), max_examples=ci_examples)


# -- targets ----------------------------------------------------------------------------------
@dataclass
class Target:
    """One fuzz target: `game` groups targets per game in the counts (records and terminal
    targets are per game too; `any` for those that are not)."""

    name: str
    game: str
    fn: Callable[[Draw], None]
    ci_examples: int
    tried: int = 0
    seconds: float = 0.0


TARGETS: dict[str, Target] = {}


def fuzz(game: str, ci_examples: int = 60,
         name: str | None = None) -> Callable[[Callable[[Draw], None]], Any]:
    """Register `fn(draw)` as a target and return it as a Hypothesis test for pytest (named
    `name`, by default the function's own name)."""

    def deco(fn: Callable[[Draw], None]):
        if name is not None:
            fn.__name__ = name
        name_ = fn.__name__.removeprefix("test_")
        target = TARGETS.setdefault(name_, Target(name_, game, fn, ci_examples))

        @profile_settings(ci_examples)
        @given(data=st.data())
        def test(data: st.DataObject) -> None:
            run_one(target, data.draw)

        test.__name__ = fn.__name__
        test.__qualname__ = fn.__name__
        test.__doc__ = fn.__doc__
        test.__module__ = fn.__module__
        test.fuzz_target = target  # type: ignore[attr-defined]
        return test

    return deco


def run_one(target: Target, draw: Draw) -> None:
    """One input of `target`, counted (the runner and conftest time whole targets, input
    generation included)."""
    target.tried += 1
    target.fn(draw)


def deep_settings(examples: int, seed: int | None) -> settings:
    """For the runner: generate only (no shrinking: crashes are collected, not raised)."""
    return settings(settings.get_profile("boardct-fuzz-deep"), max_examples=examples,
                    phases=(Phase.generate,), derandomize=False)


# -- time limit -------------------------------------------------------------------------------
class Hang(Exception):  # noqa: N818 - it is the finding's name
    """An input that kept boardct busy longer than TIME_LIMIT seconds."""


_CAN_TIME = hasattr(signal, "setitimer") and sys.platform != "win32"
# Memory one input may take on top of what the process holds: an input that makes boardct
# allocate without bound (10**7 bots, a deck of 10**8 cards) then fails with MemoryError, a
# finding, rather than exhausting the machine.
MEMORY_LIMIT = int(float(os.environ.get("BOARDCT_FUZZ_MEMORY_GB", "3")) * 2**30)


def _address_space() -> int | None:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


@contextlib.contextmanager
def _memory_limit() -> Iterator[None]:
    try:
        import resource
    except ImportError:  # Windows
        yield
        return
    now = _address_space()
    if now is None:
        yield
        return
    old = resource.getrlimit(resource.RLIMIT_AS)
    cap = now + MEMORY_LIMIT
    if old[1] != resource.RLIM_INFINITY:
        cap = min(cap, old[1])
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, old[1]))
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, old)


_timing = False


@contextlib.contextmanager
def time_limit(seconds: float = TIME_LIMIT) -> Iterator[None]:
    """Raise `Hang` inside the code if it runs longer than `seconds`, and cap the memory it
    may take (POSIX main thread only; elsewhere no limit)."""
    global _timing
    if _timing or not _CAN_TIME or threading.current_thread() is not threading.main_thread():
        yield  # already limited by an enclosing call
        return

    def alarm(signum, frame):
        raise Hang(f"no answer within {seconds:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _timing = True
    try:
        with _memory_limit():
            yield
    finally:
        _timing = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# The last call `attempt` made (function, args, kwargs): the runner shows it with a crash.
LAST_CALL: list[Any] = [None]


def last_call_text(limit: int = 300) -> str:
    """The last attempted call as Python text (long arguments cut)."""
    if LAST_CALL[0] is None:
        return "?"
    fn, args, kwargs = LAST_CALL[0]
    name = getattr(fn, "__qualname__", repr(fn))
    owner = getattr(fn, "__self__", None)
    if owner is not None and not isinstance(owner, type):
        name = f"<{type(owner).__name__}>.{fn.__name__}"

    def short(v: Any) -> str:
        if isinstance(v, str | bytes) and len(v) > limit:
            return f"{v[:limit]!r}...({len(v)} long)"
        text = repr(v)
        return text if len(text) <= limit else text[:limit] + "..."

    parts = [short(a) for a in args] + [f"{k}={short(v)}" for k, v in kwargs.items()]
    return f"{name}({', '.join(parts)})"


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
    """(True, result), or (False, the BoardctError) when boardct refused the input. Anything
    else escapes: that is the crash a fuzz target looks for."""
    LAST_CALL[0] = (fn, args, kwargs)
    with time_limit():
        try:
            return True, fn(*args, **kwargs)
        except BoardctError as exc:
            str(exc)  # the message itself must be buildable
            return False, exc


def refused(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    """Whether boardct refused the input with a `BoardctError` (False: it was accepted)."""
    return not attempt(fn, *args, **kwargs)[0]


def foreign_digits(text: str) -> bool:
    """Whether `text` (comments after `#` left out) writes a digit other than ASCII 0-9:
    `٣`, `²`, `３`. Issue 15 item 1: every number a game reads is ASCII digits only, so such
    text must be refused, not read as 3 (nor crash)."""
    for line in text.splitlines() or [text]:
        body = line.split("#", 1)[0]
        if any((ch.isdigit() or ch.isnumeric()) and not ch.isascii() for ch in body):
            return True
    return False


def assert_ascii_numbers(text: str, what: str) -> None:
    assert not foreign_digits(text), \
        f"{what}: accepted a number written with digits other than ASCII 0-9 ({text[:200]!r})"


# -- "nothing changed" ------------------------------------------------------------------------
class Snapshot:
    """What the core API shows of a state: the history cell (identity), whose decision it is,
    the outcome and every player's view (and the spectator's). `deep` adds the record, which
    replays the game (costly for CTF 2187, so only now and then)."""

    def __init__(self, state: State, deep: bool = False):
        self.hist = state._hist
        self.players = state.current_players()
        self.outcome = state.outcome
        self.views = [state.view(p) for p in (None, *state.iter_players())]
        self.record = _record_dict(state) if deep else None

    def check(self, state: State, what: str) -> None:
        assert state._hist is self.hist, f"{what}: refused, but the history changed"
        assert state.current_players() == self.players, \
            f"{what}: refused, but whose decision it is changed"
        assert state.outcome == self.outcome, f"{what}: refused, but the outcome changed"
        for p, before in zip((None, *state.iter_players()), self.views, strict=True):
            assert state.view(p) == before, f"{what}: refused, but view({p}) changed"
        if self.record is not None:
            assert _record_dict(state) == self.record, f"{what}: refused, but the record changed"


def _record_dict(state: State) -> dict:
    doc = record_of(state).to_dict()
    doc.pop("saved", None)
    return doc


# -- scratch files ----------------------------------------------------------------------------
_SANDBOX: Path | None = None
_counter = itertools.count()


def sandbox() -> Path:
    """This process's private scratch folder (removed at exit)."""
    global _SANDBOX
    if _SANDBOX is None:
        _SANDBOX = Path(tempfile.mkdtemp(prefix="boardct-fuzz-")).resolve()
        atexit.register(shutil.rmtree, _SANDBOX, True)
    return _SANDBOX


def fresh_name(suffix: str = "") -> Path:
    return sandbox() / f"f{next(_counter)}{suffix}"


@contextlib.contextmanager
def scratch_file(data: bytes | str, suffix: str = "") -> Iterator[Path]:
    """A new file holding `data` (text is written as UTF-8, surrogates escaped back to the
    bytes they stand for), removed afterwards."""
    path = fresh_name(suffix)
    path.write_bytes(to_bytes(data))
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def scratch_dir() -> Iterator[Path]:
    path = fresh_name()
    path.mkdir()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def in_sandbox() -> Iterator[Path]:
    """Run with a fresh scratch folder as the working folder, so that a file name typed at a
    prompt (a save, a resume) lands there."""
    with scratch_dir() as folder, contextlib.chdir(folder):
        yield folder


def to_bytes(data: bytes | str) -> bytes:
    if isinstance(data, bytes):
        return data
    try:
        return data.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that stands for no byte: write it as is
        return data.encode("utf-8", "surrogatepass")


def safe_answer(text: str) -> str:
    """A typed line made harmless as a file name: relative, never climbing out of the
    working folder (the terminal may save to or read from any name it is given)."""
    text = text.replace("..", "._")
    stripped = text.lstrip()
    if stripped.startswith(("/", "\\", "~")) or re.match(r"\s*[A-Za-z]:", text):
        text = "x" + stripped
    return text


# -- text strategies --------------------------------------------------------------------------
# Characters `str.isdigit()` accepts: some `int()` refuses (superscripts, circled), some it
# reads as other digits (Arabic-Indic, Devanagari, fullwidth, mathematical).
DIGIT_LIKE = "²³¹⁰₂①⑳٣٠۳०३੩௩๓໓０９𝟘𝟡᠓߃"
NUMERIC_LIKE = "ⅢⅫ½¼〇"
HOMOGLYPHS = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у",
              "B": "В", "M": "М", "T": "Т", "P": "Р", "E": "Е", "O": "О", "1": "l", "0": "O"}
SPACES = [" ", "  ", "\t", "\u00a0", "\u3000", "\u2009", "\u200b", "\n", "\r\n", "\r", "\x0b",
          "\x0c", "\x1c", "\u2028", ";", ",", ""]
SPECIAL_TEXTS = [
    "", " ", "\x00", "\ufeff", "\u200b", "\u00a0", "\t", "\n", "\r\n", "\x1b[2J\x1b[3J",
    "\x1b", "\x7f", "\x08", "\u202e", "\ufffd", "\ufffe", "\uffff", "\U0010ffff", "🂡", "ß",
    "ﬀ", "İ", "ı", "ǅ", "-", "--", "+", "-0", "+1", "-1", "0", "00", "000", "1e9", "1E3",
    "0x1f", "0b1", "0o7", "1_000", "1.5", "inf", "nan", "NaN", "None", "null", "true",
    "[]", "{}", '"', "'", "\\", "#", "# comment", ";", ";;", ":", "%s", "{0}", "$(ls)",
    "..", ".", "/", "*", "?", "help", "?", "quit", "exit", "undo", "end", "pass", "default",
    *DIGIT_LIKE, *NUMERIC_LIKE, "٣٣", "²4", "1²", "١٢", "０１",
]
INSERTS = st.one_of(st.characters(), st.sampled_from(SPECIAL_TEXTS))
BIG_NUMBERS = ["2147483648", "4294967296", "9223372036854775808", "18446744073709551616",
               "1" + "0" * 40, "9" * 100, "9" * 4301, "1" + "0" * 5000, "-" + "9" * 4400,
               "0" * 5000 + "1"]


@functools.cache
def long_texts() -> st.SearchStrategy[str]:
    """Very long lines: one character repeated, a token repeated, digits by the thousand."""
    return st.tuples(
        st.sampled_from(["7", "a", " ", "\x00", "٣", "²", "-", "P1 ", "BOT 1 ", "24 ",
                         "shift ", "d4 ", "#", ";", "{", "[", "é", "\ufeff"]),
        st.sampled_from([300, 4301, 20_000, 120_000]),
    ).map(lambda t: t[0] * t[1])


@functools.cache
def random_text(max_size: int = 40) -> st.SearchStrategy[str]:
    """Random Unicode (no lone surrogates), random bytes read leniently, special strings,
    very long strings."""
    return st.one_of(
        st.text(max_size=max_size),
        st.text(alphabet=st.characters(codec="ascii"), max_size=max_size),
        st.text(alphabet=st.sampled_from("0123456789 -;#\t" + DIGIT_LIKE), max_size=12),
        st.binary(max_size=max_size).map(lambda b: b.decode("utf-8", "replace")),
        st.binary(max_size=max_size).map(lambda b: b.decode("latin-1")),
        st.sampled_from(SPECIAL_TEXTS),
        st.sampled_from(BIG_NUMBERS),
        long_texts(),
    )


@functools.cache
def with_surrogates(text: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Text that may hold lone surrogates: what Python makes of bytes that are not UTF-8
    (file names, command-line arguments, standard input read with surrogateescape)."""
    return st.one_of(
        text,
        st.binary(min_size=1, max_size=20).map(lambda b: b.decode("utf-8", "surrogateescape")),
        st.sampled_from(["\ud800", "A\udcff", "\udcc3\udca9", "\udfff\ud800"]),
    )


# -- mutations of valid tokens ----------------------------------------------------------------
@functools.cache
def one_of_these(values: tuple) -> st.SearchStrategy:
    """`sampled_from` of a constant tuple, built once: Hypothesis checks a strategy the first
    time it is drawn from, which for the hot paths here costs more than the input itself."""
    return st.sampled_from(values)


def pick(draw: Draw, *values: Any) -> Any:
    """One of the constant `values` (kept once per distinct tuple: constants only)."""
    return draw(one_of_these(values))

NUMBER_EDITS = st.sampled_from(["0", "00", "-1", "-0", "+1", "99", "255", "256", "1000",
                                "65536", *BIG_NUMBERS[:6], "9" * 50, "1" + "0" * 4400])
_NUM = re.compile(r"\d+")
MAX_INPUT = 150_000  # characters: longer than any line a person or a file would hand in
_WORD = re.compile(r"\S+")


def _positions(draw: Draw, text: str) -> int:
    return draw(st.integers(0, len(text)))


def mutate(draw: Draw, text: str, vocab: Sequence[str], others: Sequence[str]) -> str:
    """One to three random edits of a valid token: digits swapped or made Unicode, words
    swapped, replaced from the game's vocabulary or from another token, characters inserted,
    deleted or doubled, case and spacing changed, numbers made huge or negative, BOM or NUL
    added, the token cut or joined to another."""
    for _ in range(draw(st.integers(1, 3))):
        op = pick(draw, *MUTATIONS)
        text = op(draw, text, vocab, others)[:MAX_INPUT]
    return text


def _m_digit(draw, text, vocab, others):
    spots = [i for i, ch in enumerate(text) if ch.isdigit()]
    if not spots:
        return text + pick(draw, *"0123456789")
    i = draw(st.sampled_from(spots))
    return text[:i] + pick(draw, *"0123456789") + text[i + 1:]


def _m_unicode_digit(draw, text, vocab, others):
    spots = [i for i, ch in enumerate(text) if ch.isdigit()]
    new = pick(draw, *(DIGIT_LIKE + NUMERIC_LIKE))
    if not spots:
        i = _positions(draw, text)
        return text[:i] + new + text[i:]
    i = draw(st.sampled_from(spots))
    return text[:i] + new + text[i + 1:]


def _m_number(draw, text, vocab, others):
    nums = list(_NUM.finditer(text))
    new = draw(NUMBER_EDITS)
    if not nums:
        return f"{text} {new}"
    m = draw(st.sampled_from(nums))
    return text[:m.start()] + new + text[m.end():]


def _m_insert(draw, text, vocab, others):
    i = _positions(draw, text)
    new = draw(INSERTS)
    return text[:i] + new + text[i:]


def _m_delete(draw, text, vocab, others):
    if not text:
        return text
    i = draw(st.integers(0, len(text) - 1))
    j = draw(st.integers(i + 1, min(len(text), i + 4)))
    return text[:i] + text[j:]


def _m_double(draw, text, vocab, others):
    if not text:
        return text
    i = draw(st.integers(0, len(text) - 1))
    j = draw(st.integers(i + 1, len(text)))
    return text[:j] + text[i:j] + text[j:]


def _m_swap_words(draw, text, vocab, others):
    words = text.split(" ")
    if len(words) < 2:
        return text[::-1] if draw(st.booleans()) else text
    i = draw(st.integers(0, len(words) - 1))
    j = draw(st.integers(0, len(words) - 1))
    words[i], words[j] = words[j], words[i]
    return " ".join(words)


def _m_replace_word(draw, text, vocab, others):
    words = list(_WORD.finditer(text))
    source = [w for t in others[:50] for w in t.split()] + list(vocab)
    new = draw(st.sampled_from(source)) if source else "x"
    if not words:
        return new
    m = draw(st.sampled_from(words))
    return text[:m.start()] + new + text[m.end():]


def _m_drop_word(draw, text, vocab, others):
    words = text.split(" ")
    if len(words) < 2:
        return ""
    del words[draw(st.integers(0, len(words) - 1))]
    return " ".join(words)


def _m_case(draw, text, vocab, others):
    return pick(draw, str.upper, str.lower, str.swapcase, str.title, str.casefold)(text)


def _m_space(draw, text, vocab, others):
    new = pick(draw, *SPACES)
    if " " in text and draw(st.booleans()):
        return text.replace(" ", new, 1 if draw(st.booleans()) else -1)
    where = pick(draw, 0, 1, 2)
    return (new + text, text + new, new + text + new)[where]


def _m_homoglyph(draw, text, vocab, others):
    spots = [i for i, ch in enumerate(text) if ch in HOMOGLYPHS]
    if not spots:
        return text + "\u0301"  # a combining accent on the last character
    i = draw(st.sampled_from(spots))
    return text[:i] + HOMOGLYPHS[text[i]] + text[i + 1:]


def _m_truncate(draw, text, vocab, others):
    return text[:_positions(draw, text)]


def _m_join(draw, text, vocab, others):
    other = draw(st.sampled_from(list(others))) if others else text
    sep = pick(draw, " ", "", ";", "; ", "\n", ",", "  ")
    return f"{text}{sep}{other}" if draw(st.booleans()) else f"{other}{sep}{text}"


def _m_wrap(draw, text, vocab, others):
    before, after = pick(draw, ("\ufeff", ""), ("", "\x00"), ("\x00", ""), ("", " #"),
                         ("#", ""), ('"', '"'), ("(", ")"), ("", "\ufeff"), ("\u202e", ""),
                         ("", "\r"))
    return before + text + after


def _m_repeat(draw, text, vocab, others):
    return (text + " ") * pick(draw, 2, 3, 50, 2000)


# numbers are where most readers go wrong: their edits come twice as often
MUTATIONS = [_m_digit, _m_unicode_digit, _m_number, _m_number, _m_unicode_digit, _m_insert,
             _m_delete, _m_double, _m_swap_words, _m_replace_word, _m_drop_word, _m_case, _m_space,
             _m_homoglyph, _m_truncate, _m_join, _m_wrap, _m_repeat]


def mutate_lines(draw: Draw, text: str, vocab: Sequence[str]) -> str:
    """Edits of a line-oriented file: lines dropped, doubled, swapped, edited as tokens, or
    random lines inserted; a BOM, CRLF line ends, a missing last newline."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        op = pick(draw, "drop", "double", "swap", "edit", "edit", "edit", "insert", "bom",
                  "crlf", "cut")
        if op == "bom":
            return "\ufeff" + "\n".join(lines) + "\n"
        if op == "crlf":
            return "\r\n".join(lines) + "\r\n"
        if op == "cut":
            joined = "\n".join(lines)
            return joined[:draw(st.integers(0, len(joined)))]
        if not lines:
            lines = [draw(random_text())]
            continue
        i = draw(st.integers(0, len(lines) - 1))
        if op == "drop":
            del lines[i]
        elif op == "double":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "edit":
            lines[i] = mutate(draw, lines[i], vocab, lines)
        else:
            lines.insert(i, draw(random_text()))
    return "\n".join(lines) + ("\n" if draw(st.booleans()) else "")


def mutate_bytes(draw: Draw, data: bytes) -> bytes:
    """Byte-level damage: a byte flipped, bytes that are not UTF-8, a cut, a BOM, NULs."""
    op = pick(draw, "flip", "invalid", "cut", "bom", "nul", "double_bom")
    if op == "bom":
        return b"\xef\xbb\xbf" + data
    if op == "double_bom":
        return b"\xef\xbb\xbf\xef\xbb\xbf" + data
    i = draw(st.integers(0, len(data)))
    if op == "flip" and data:
        i = min(i, len(data) - 1)
        return data[:i] + bytes([data[i] ^ (1 << draw(st.integers(0, 7)))]) + data[i + 1:]
    if op == "invalid":
        bad = pick(draw, b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80", b"\xf4\x90\x80\x80",
                   b"\xc0\xaf")
        return data[:i] + bad + data[i:]
    if op == "nul":
        return data[:i] + b"\x00" + data[i:]
    return data[:i]


# -- TOML values for table and card files -----------------------------------------------------
TOML_VALUES = [
    "inf", "-inf", "nan", "+nan", "1e999", "-1e999", "0", "-0", "-1", "1", "2", "9", "10",
    "100", "255", "99999999999999999999", "9" * 5000, "1.5", "-0.0", "1e-320", "0x7fffffff",
    "true", "false", '""', '" "', '"\\u0000"', '"\\uFEFF"', '"²"', '"٣"', '"x"',
    '"' + "a" * 200_000 + '"', "[]", "[1]", "[-1, -1]", '["a"]', "{}", "{ a = 1 }",
    "[" * 300 + "]" * 300, "[" * 3000 + "]" * 3000, "{a=" * 200 + "1" + "}" * 200,
    "1979-05-27T07:32:00Z", "1979-05-27", "07:32:00",
]


def mutate_toml(draw: Draw, text: str) -> str:
    """Edits of a TOML file: a value replaced by an odd one (inf, nan, huge or deep), a key
    renamed or doubled, a table header broken, or line edits."""
    lines = text.splitlines()
    assigns = [i for i, ln in enumerate(lines) if "=" in ln and not ln.lstrip().startswith("#")]
    for _ in range(draw(st.integers(1, 3))):
        op = pick(draw, "value", "value", "value", "key", "dupkey", "header", "lines")
        if op == "lines" or not assigns:
            return mutate_lines(draw, "\n".join(lines), ["=", "[", "]", "[[", "]]", '"'])
        i = draw(st.sampled_from(assigns))
        key, _, value = lines[i].partition("=")
        if op == "value":
            if draw(st.booleans()):
                value = pick(draw, *TOML_VALUES)
            else:
                value = mutate(draw, value.strip(), [], TOML_VALUES)
            lines[i] = f"{key}= {value}"
        elif op == "key":
            lines[i] = f"{mutate(draw, key.strip(), [], [])} = {value.strip()}"
        elif op == "dupkey":
            lines.insert(i, lines[i])
        else:
            headers = [j for j, ln in enumerate(lines) if ln.lstrip().startswith("[")]
            if headers:
                j = draw(st.sampled_from(headers))
                lines[j] = mutate(draw, lines[j], ["[", "[[", "]]", "]"], [])
    return "\n".join(lines) + "\n"


# -- games: positions, tokens, vocabulary -----------------------------------------------------
GAME_IDS = tuple(g.id for g in registry.all_games())  # every registered game

# Option sets the positions are drawn from (seeds and plies are added by `pool`); a game not
# named here is drawn at its defaults and at its short game (`Game.small_options`).
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "fieldshift": [{"ruleset": r, "violations": v} for r in ("lstd", "stdex", "type-a")
                   for v in ("dispute", "reject")],
    "fff": [{}, {"turn_limit": 5}],
    "hills": [{}, {"first": "0", "stars": 0}, {"first": "1", "stars": 35, "deck": "ammo:9"}],
    "shift": [{"card1": a, "card2": b} for a, b in (
        ("ember-duelist", "tide-warden"), ("glass-cartographer", "iron-lantern"),
        ("moth-regent", "quill-of-ash"), ("quill-of-ash", "ember-duelist"))],
    "ctf2187": [{}, {"bots_per_team": 2}, {"teams": 3}, {"teams": 4, "bots_per_team": 1},
                {"turn_limit": 2}],
}
PLAYERS = {"ctf2187": [2, 2, 3, 4, 2]}


@dataclass
class Pool:
    """Positions reached by random legal play, the notation of every action seen there (all
    players, all phases), those actions themselves, and words of the game's language."""

    game_id: str
    positions: list[State] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    actions: list[Any] = field(default_factory=list)
    vocab: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.freeze()

    def freeze(self) -> None:
        """The strategies that draw from the pool, built once (see `one_of_these`)."""
        self.any_position = st.sampled_from(self.positions or [None])
        self.any_token = st.sampled_from(self.tokens or [""])
        self.any_action = st.sampled_from(self.actions or [None])
        self.some_words = st.lists(st.sampled_from(self.vocab or [""]), min_size=1, max_size=7)


_POOLS: dict[str, Pool] = {}
PLIES = (0, 1, 2, 3, 6, 12, 25, 60, 150, 10_000)


def pool(game_id: str) -> Pool:
    """The (cached, deterministic) pool of a game."""
    if game_id in _POOLS:
        return _POOLS[game_id]
    import random

    game = registry.get(game_id)
    out = Pool(game_id)
    tokens: dict[str, None] = {}
    actions: dict[Any, None] = {}
    rng = random.Random(15)
    sets = OPTION_SETS.get(game_id) or [{}, dict(game.small_options)]
    for k, options in enumerate(sets):
        n = PLAYERS[game_id][k] if game_id in PLAYERS else game.min_players
        for seed in (k + 1, 100 + k):
            state = game.new(seed=seed, names=[f"P{i + 1}" for i in range(n)], **options)
            done = 0
            for plies in PLIES:
                while done < plies and not state.is_over:
                    cur = state.current_players()
                    p = cur[rng.randrange(len(cur))]
                    legal = state.legal_actions(p)
                    for a in rng.sample(legal, min(4, len(legal))):
                        tokens[state.notation(a)] = None
                        actions[a] = None
                    state.apply(rng.choice(legal), p)
                    done += 1
                out.positions.append(state.clone())
                if state.is_over:
                    break
    out.tokens = list(tokens)
    out.actions = list(actions)
    words = set(re.findall(r"[A-Za-z0-9~+\-/]+", game.help_text or ""))
    for t in out.tokens[:400]:
        words.update(t.replace(";", " ").split())
    out.vocab = sorted(words)
    out.freeze()
    _POOLS[game_id] = out
    return out


def command_text(draw: Draw, p: Pool, state: State | None = None) -> str:
    """A line of input: a legal token here, a token from elsewhere (another position, player
    or phase), a mutated token, a recombination of vocabulary, or random text."""
    kind = pick(draw, "legal", "other", "mutated", "mutated", "mutated", "vocab", "random",
                "random")
    if kind == "legal" and state is not None and not state.is_over:
        cur = state.current_players()
        player = draw(st.sampled_from(cur))
        legal = state.legal_actions(player)
        if legal:
            return state.notation(draw(st.sampled_from(legal)))
    if kind in ("legal", "other"):
        return draw(p.any_token)
    if kind == "mutated":
        return mutate(draw, draw(p.any_token), p.vocab, p.tokens)
    if kind == "vocab":
        words = draw(p.some_words)
        return pick(draw, " ", "  ", "; ", "").join(words)
    return draw(random_text())


def command_sequence(draw: Draw, game_id: str, max_steps: int = 6) -> None:
    """The parse/apply target of one game: a position from the pool, then a few inputs, each
    parsed for the player to move, another player or nobody, and applied; a stale action
    object from another position now and then. Only `BoardctError` may escape, and a refused
    input leaves the state as it was."""
    p = pool(game_id)
    state = draw(p.any_position).clone()
    deep_done = draw(st.integers(0, 7)) != 0  # the record replays the game: now and then
    for _ in range(draw(st.integers(1, max_steps))):
        cur = state.current_players()
        everyone = list(state.iter_players())
        player = draw(st.sampled_from([*(cur or everyone), None, *everyone]))
        before = Snapshot(state, deep=not deep_done)
        deep_done = True
        if draw(st.integers(0, 9)) == 0:
            action = draw(p.any_action)
            what = f"apply({action!r}, {player})"
        else:
            text = command_text(draw, p, state)
            ok, action = attempt(state.parse, text, player)
            what = f"parse({text[:200]!r}, {player})"
            if not ok:
                before.check(state, what)
                continue
            assert_ascii_numbers(text, what)
            what += f" -> {action!r}"
        ok, events = attempt(state.apply, action, player)
        if not ok:
            before.check(state, what)
            continue
        with time_limit():
            for ev in events:
                state.describe(ev)


def play_randomly(state: State, plies: int, seed: int) -> None:
    """Random legal play for a few plies (to exercise a state made from odd input); a legal
    action refused with a `BoardctError` stops it (that is the rules' business, not a crash)."""
    import random

    rng = random.Random(seed)
    with time_limit():
        for _ in range(plies):
            cur = state.current_players()
            if not cur:
                return
            player = cur[rng.randrange(len(cur))]
            legal = state.legal_actions(player)
            if not legal:
                return
            try:
                events = state.apply(rng.choice(legal), player)
            except BoardctError:
                return
            for ev in events:
                state.describe(ev)
            state.render(player)


# -- options and names ------------------------------------------------------------------------
INT_TEXTS = ["5", " 5 ", "+5", "-5", "05", "5.0", "1e3", "0x10", "1_0", "٣", "²", "①", "5²",
             "٣٠", "０", "-", "", "9" * 39, "9" * 41, "9" * 5000, "-0", "2147483648"]


def option_value(draw: Draw, default: Any, choices: Sequence[Any] | None) -> Any:
    """A value for an option: its default or a choice edited, text, numbers of every size
    (as numbers and as text), booleans, None, floats, lists."""
    kind = draw(st.sampled_from(["choice", "edit", "text", "int", "int_text", "other"]))
    if kind == "choice" and choices:
        return draw(st.sampled_from(list(choices)))
    if kind == "edit":
        base = str(draw(st.sampled_from(list(choices)))) if choices else str(default)
        return mutate(draw, base, [], [str(c) for c in choices or ()])
    if kind == "int":
        return draw(st.one_of(st.integers(-5, 400),
                              st.sampled_from([2**31, 2**63, 10**39, 10**45, -(10**45)])))
    if kind == "int_text":
        return draw(st.sampled_from(INT_TEXTS))
    if kind == "other":
        return draw(st.sampled_from([None, True, False, 1.5, float("nan"), float("inf"), [],
                                     [1], {}, {"a": 1}, b"5"]))
    return draw(random_text())


def options_for(draw: Draw, game_id: str,
                safe: dict[str, Callable[[Draw], Any]] | None = None) -> dict[str, Any]:
    """Random options of a game (most left at their default). `safe` gives the drawing
    function of an option whose large values would exhaust the machine rather than fail
    (they are bounded here; the dedicated tests of issue 15 item 2 cover the limits)."""
    game = registry.get(game_id)
    safe = safe or {}
    out: dict[str, Any] = {}
    for opt in game.options:
        if draw(st.integers(0, 2)):
            continue
        if opt.name in safe:
            out[opt.name] = safe[opt.name](draw)
        else:
            out[opt.name] = option_value(draw, opt.default, opt.choices)
    if draw(st.integers(0, 14)) == 0:
        out[draw(st.sampled_from(["Ruleset", "x", "turn-limit", "", "\x00", "seeds"]))] = 1
    return out


def names_for(draw: Draw, game_id: str) -> list[str]:
    """Player names, mostly the right number of them, of any text (lone surrogates too: a
    name read from a command line that is not UTF-8)."""
    game = registry.get(game_id)
    n = draw(st.one_of(st.integers(game.min_players, min(game.max_players, 4)),
                       st.sampled_from([0, 1, game.max_players + 1])))
    name = with_surrogates(st.one_of(st.sampled_from(["A", "B", "Ann", ""]), random_text(20)))
    return [draw(name) for _ in range(n)]


def new_game(draw: Draw, game_id: str, safe: dict[str, Callable[[Draw], Any]] | None = None,
             names: bool = True) -> State | None:
    """A game set up from random options (and names): None if boardct refused them."""
    game = registry.get(game_id)
    opts = options_for(draw, game_id, safe)
    who = names_for(draw, game_id) if names and draw(st.booleans()) else None
    seed = draw(st.one_of(st.integers(0, 2**32), st.sampled_from([-1, 2**64, 10**30])))
    ok, state = attempt(game.new, seed=seed, names=who, **opts)
    return state if ok else None


# -- reporting --------------------------------------------------------------------------------
def count_table(targets: Sequence[Target]) -> list[str]:
    """Lines of a table: inputs, seconds and inputs per second per target, then per game."""
    width = max(len(t.name) for t in targets)
    lines = [f"{'target':<{width}}  {'inputs':>9}  {'seconds':>8}  {'inputs/s':>9}"]
    games: dict[str, list[float]] = {}
    for t in targets:
        rate = t.tried / t.seconds if t.seconds else 0.0
        lines.append(f"{t.name:<{width}}  {t.tried:>9,}  {t.seconds:>8.1f}  {rate:>9,.0f}")
        g = games.setdefault(t.game, [0, 0.0])
        g[0] += t.tried
        g[1] += t.seconds
    lines.append("")
    lines.append(f"{'game':<{width}}  {'inputs':>9}  {'seconds':>8}  {'inputs/s':>9}")
    for game, (n, secs) in sorted(games.items()):
        rate = n / secs if secs else 0.0
        lines.append(f"{game:<{width}}  {int(n):>9,}  {secs:>8.1f}  {rate:>9,.0f}")
    return lines


# -- the command line -------------------------------------------------------------------------
def cli_run(args: Sequence[str], stdin: bytes | str | None = None) -> Any:
    """`boardct ARGS` in this process (click's runner), standard input `stdin`. Anything but a
    clean exit (an exit status, after a message) is raised again with its own traceback, so
    that it counts as the crash it is."""
    from click.testing import CliRunner

    from boardct.cli.main import cli

    LAST_CALL[0] = (cli_run, (list(args),), {"stdin": stdin})
    with time_limit():
        result = CliRunner().invoke(cli, list(args), input=stdin)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        raise exc.with_traceback(result.exc_info[2] if result.exc_info else None)
    return result
