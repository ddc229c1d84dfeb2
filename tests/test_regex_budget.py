"""A user regex has a time budget over the whole log, not only per line, and a regex that
is costly to compile is refused before it is compiled.

The costly pattern is the classic one: `(?:a|aa)+$` backtracks exponentially on a run of a's that ends in
another character (~10 ms a line for 22 a's, under the 0.25 s per-line limit, so no line alone trips it). The
budget is lowered through monkeypatch so that each test takes well under 3 s; before the budget existed these
logs were read to the end (6 s and more) and exited 0.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from logparse.core.errors import PatternError
from logparse.frame.assemble import parse_log
from logparse.patterns import sets as patterns
from tests.conftest import run_apart

LINES = 600  # at ~10 ms a line, 6 s of regex work without a budget
AS = "a" * 22 + "b"  # (?:a|aa)+$ fails on it after ~2**16 tries


def _set(
    folder: Path,
    regex: str = r"^step (?P<step>\d+) loss (?P<loss>[\d.]+) (?:a|aa)+$",
    detect: str = r"^step \d+ loss ",
) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "slow.toml").write_text(
        textwrap.dedent(
            f"""\
            [format]
            name = "slow"
            detect = ['{detect}']
            [[line]]
            name = "steps"
            kind = "step"
            regex = '{regex}'
            [[sample]]
            line = "step 1 loss 2.5 aa"
            expect = {{ step = 1, loss = 2.5 }}
            """
        )
    )
    return folder


def _log(path: Path, lines: int = LINES, tagged: bool = False, varied: bool = False) -> Path:
    """`lines` step lines that end in AS; `tagged`: each with a word of its own after the loss, so that no two
    lines have one layout (detection reads lines that differ only digit for digit once: PatternSet._hits);
    `varied`: the same word after AS instead, where the costly line pattern still backtracks over the a's (a
    line pattern without a literal digit reads lines that differ only digit for digit once too:
    LineSpec._by_layout; a log of one layout costs it one line's time)."""
    word = lambda i: "".join(chr(ord("c") + int(d)) for d in str(i))  # noqa: E731
    tag = (lambda i: " " + word(i)) if tagged else (lambda i: "")
    after = word if varied else (lambda i: "")
    path.write_text("".join(f"step {i} loss 2.5{tag(i)} {AS}{after(i)}\n" for i in range(1, lines + 1)))
    return path


@pytest.fixture
def small_budget(monkeypatch):
    """0.3 s per pattern per log and no per-line allowance: the slow pattern trips after ~30 lines."""
    monkeypatch.setattr(patterns, "REGEX_BUDGET_S", 0.3)
    monkeypatch.setattr(patterns, "REGEX_ALLOWANCE_S", 0.0)


def _check_message(text: str, folder: Path, what: str = "pattern slow.steps") -> None:
    assert str(folder / "slow.toml") in text and what in text, text
    assert "s in its regex" in text and " lines" in text, text  # the time spent and the lines it ran on
    assert "anchor it, add a hint, avoid nested quantifiers" in text, text


def test_a_costly_user_pattern_stops_the_analysis_within_its_budget(tmp_path, small_budget):
    folder = _set(tmp_path / "sets")
    log = _log(tmp_path / "slow.log", varied=True)
    sets = patterns.load_sets([str(folder)])
    started = time.perf_counter()
    with pytest.raises(PatternError) as exc:
        parse_log(str(log), sets)
    assert time.perf_counter() - started < 3.0
    _check_message(str(exc.value), folder)


def test_the_budget_holds_in_the_parallel_range_reader(tmp_path, small_budget):
    """Each forked worker has its own copies of the patterns, so its own budget: the error comes back
    through the pool as the same one line."""
    folder = _set(tmp_path / "sets")
    log = _log(tmp_path / "slow.log", lines=1200, varied=True)
    sets = patterns.load_sets([str(folder)])
    started = time.perf_counter()
    with pytest.raises(PatternError) as exc:
        parse_log(str(log), sets, jobs=2, chunk_bytes=4096)
    assert time.perf_counter() - started < 3.0
    _check_message(str(exc.value), folder)


def test_the_budget_holds_in_detection(tmp_path, small_budget):
    """A costly detect regex: detection scores every line of the head (and the whole file when the head
    shows nothing), so it has a budget of its own."""
    folder = _set(tmp_path / "sets", detect=r"^step \d+ loss [\d.]+ [c-l]+ (?:a|aa)+$")
    log = _log(tmp_path / "slow.log", tagged=True)
    sets = patterns.load_sets([str(folder)])
    started = time.perf_counter()
    with pytest.raises(PatternError) as exc:
        parse_log(str(log), sets)
    assert time.perf_counter() - started < 3.0
    _check_message(str(exc.value), folder, what="the detect regexes of slow")


def test_analyze_with_a_costly_user_set_is_one_error_line_exit_1(tmp_path, small_budget):
    folder = _set(tmp_path / "sets")
    log = _log(tmp_path / "slow.log", varied=True)
    started = time.perf_counter()
    res = run_apart(["analyze", str(log), "--patterns", str(folder), "--out", str(tmp_path / "out")])
    assert time.perf_counter() - started < 3.0
    assert res.exit_code == 1, res.stderr
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "Traceback" not in res.stderr, res.stderr
    _check_message(err[0], folder)


def test_the_budget_is_per_log(tmp_path, monkeypatch):
    """Spending on one log does not count against the next (the sets are loaded once per process)."""
    monkeypatch.setattr(patterns, "REGEX_BUDGET_S", 0.3)
    monkeypatch.setattr(patterns, "REGEX_ALLOWANCE_S", 0.0)
    folder = _set(tmp_path / "sets")
    sets = patterns.load_sets([str(folder)])
    # each log costs ~0.03 s, a tenth of the budget (a margin for a busy machine); fifteen of them would
    # exceed one 0.3 s budget
    for n in range(15):
        parsed = parse_log(str(_log(tmp_path / f"ok{n}.log", lines=3, varied=True)), sets)
        assert parsed.formats[0] == "slow"


def test_a_cheap_user_pattern_runs_to_the_end_of_a_long_log(tmp_path, monkeypatch):
    """The allowance per line: a pattern that costs microseconds a line is never stopped, however long the log
    (here the fixed part of the budget is 0.1 s, a margin for a busy machine's pauses, and 20,000 lines of ~10 us
    each spend more than that: only the allowance per line lets them through)."""
    monkeypatch.setattr(patterns, "REGEX_BUDGET_S", 0.1)
    folder = _set(tmp_path / "sets", regex=r"^step (?P<step>\d+) loss (?P<loss>[\d.]+) a+b?$")
    sets = patterns.load_sets([str(folder)])
    parsed = parse_log(str(_log(tmp_path / "fine.log", lines=20_000)), sets)
    assert parsed.lines["matched"] == 20_000 and len(parsed.rows) == 20_000


def test_shipped_patterns_on_ordinary_lines_are_not_timed(monkeypatch):
    """The accounting costs two clock reads a call: shipped sets on lines up to TRUSTED_CHARS never pay it."""
    sets = patterns.load_sets()
    spec = next(s for s in sets["nanogpt"].lines if s.name == "iter")

    def no_clock() -> float:
        raise AssertionError("the clock was read for a shipped pattern on a short line")

    monkeypatch.setattr(patterns, "perf_counter", no_clock)
    assert spec.match("iter 10: loss 3.1234, time 123.45ms, mfu 12.00%")["step"] == 10


# --------------------------------------------------------------------------------------------
# compile limit


NESTED = "(?:(?:(?:z{60}){60}){60}){60}"  # the regex module expands it to 12,960,000 z's: 3.8 GB, 7 s


def _toml_with(regex: str) -> str:
    return (
        "[format]\nname = 'big'\ndetect = ['^big']\n[[line]]\nname = 'steps'\nkind = 'step'\n"
        f"regex = '''^big (?P<step>\\d+) {regex}'''\n[[sample]]\nline = 'big 3 '\nexpect = {{ step = 3 }}\n"
    )


def test_a_regex_costly_to_compile_is_refused_quickly_in_little_memory(tmp_path):
    """The issue's pattern, in a child process held to 1 GB of address space and 20 s (so that a regression
    fails here instead of taking the machine's memory)."""
    path = tmp_path / "big.toml"
    path.write_text(_toml_with(NESTED))
    child = textwrap.dedent(
        f"""\
        import resource, sys, time
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        from logparse.patterns import sets as patterns
        from logparse.core.errors import PatternError
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        try:
            patterns.load_file({str(path)!r})
        except PatternError as exc:
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            print(f"{{time.perf_counter() - started:.3f}} {{grown}}")
            print(exc)
            sys.exit(0)
        sys.exit("loaded")
        """
    )
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=20)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    figures, message = proc.stdout.splitlines()[:2]
    seconds, grown_kib = figures.split()
    assert float(seconds) < 1.0 and int(grown_kib) < 50 * 1024, figures
    assert str(path) in message and '"steps"' in message and NESTED in message, message
    # why: the counts multiply (60**4 z's, and 7 for `^big (?P<step>\d+) `)
    assert "12,960,007 characters" in message and "nested counted repeats" in message, message


@pytest.mark.parametrize(
    "regex",
    [
        "(?:(?:z{60}){60}){60}",  # 216,000: loads in 0.16 s and 60 MB, but refused all the same
        "z{1000000}",  # one count alone: 280 MB
        "(?:(?:[a-z]{1,1000}){1,1000})",  # counted by their upper bounds
        "(?x: ( # a comment's ( is no group\n (?:z{60}){60} ) {60} )",  # verbose: blanks and comments
    ],
)
def test_other_large_counts_are_refused(tmp_path, regex):
    path = tmp_path / "big.toml"
    path.write_text(_toml_with(regex))
    with pytest.raises(PatternError, match="nested counted repeats"):
        patterns.load_file(path)


def test_analyze_with_a_set_costly_to_compile_is_one_error_line_exit_1(tmp_path):
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "big.toml").write_text(_toml_with(NESTED))
    log = tmp_path / "x.log"
    log.write_text("big 1 \n")
    started = time.perf_counter()
    out = str(tmp_path / "out")
    res = run_apart(["analyze", str(log), "--patterns", str(tmp_path / "sets"), "--out", out])
    assert time.perf_counter() - started < 3.0
    assert res.exit_code == 1 and "Traceback" not in res.stderr, res.stderr
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {tmp_path / 'sets' / 'big.toml'}: "), err
    assert "nested counted repeats" in err[0] and "the limit is 100,000" in err[0], err


@pytest.mark.parametrize(
    "regex",
    [
        r"(?P<_ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})",
        r"(?:[a-z]{1,3} ){0,8}",
        r"\{(?:x{2}){3}\}",  # escaped braces are no count
        r"[{]{1,3}",
        r"\p{L}{1,20}",
        r"(?:ab|cd{2,5}){1,50}",
    ],
)
def test_ordinary_counted_repeats_still_load(tmp_path, regex):
    path = tmp_path / "ok.toml"
    path.write_text(_toml_with(regex))
    ps = patterns.load_file(path)  # compiles (load_sets would also check the sample, which some do not match)
    assert ps.lines[0].regex.pattern.endswith(regex)


def test_every_shipped_regex_is_well_under_the_compile_limit():
    biggest = 0
    for path in sorted(patterns.shipped_dir().glob("*.toml")):
        ps = patterns.load_file(path)
        lines = [r for s in ps.lines for r in (s.regex, s.pairs, s.complete) if r is not None]
        for rx in [*ps.detect, *lines]:
            biggest = max(biggest, patterns.expanded_size(rx.pattern))
    assert biggest < patterns.EXPANDED_LIMIT // 10, biggest


def test_a_costly_pattern_reads_lines_of_one_layout_once(tmp_path, small_budget):
    """The other side of the layout cache: a log whose lines differ only digit for digit costs the costly
    pattern one line's time per layout, so it is read to the end (600 lines at ~10 ms would be 6 s and trip the
    0.3 s budget)."""
    folder = _set(tmp_path / "sets")
    sets = patterns.load_sets([str(folder)])
    started = time.perf_counter()
    parsed = parse_log(str(_log(tmp_path / "same.log")), sets)
    assert time.perf_counter() - started < 3.0
    assert parsed.formats[0] == "slow" and parsed.lines["total"] == LINES
