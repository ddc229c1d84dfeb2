"""Memory bounded by a constant whatever the lines.

A line with no newline for hundreds of MB (a binary blob printed to the console, a progress bar that never
ends, a corrupted file) is cut at reader.MAX_RECORD_CHARS: its first MATCH_CHARS characters are the record
patterns see, the rest is skipped in bounded chunks until its newline. It still counts as one line (matched
or unmatched like any other) and as `lines.overlong`. This holds for the single pass (plain and compressed),
and for the parallel reader (chunks.py): a range held by one giant line is never read whole, and a
compressed stream's block never grows until a newline comes.

The step lines are real: Megatron-LM's iteration lines 1..6 of sample_logs/megatron_llama2-7b_8xh100.log,
their values read off the lines by hand below.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import tracemalloc
from pathlib import Path

import pytest

from logparse.frame import chunks
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets
from logparse.read import reader
from logparse.read.reader import ReadStats, read_records

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "sample_logs" / "megatron_llama2-7b_8xh100.log").read_text().splitlines(keepends=True)
HEAD = SAMPLE[:54]  # the argument dump and start-up lines before iteration 1 (line 55)
ITERS = SAMPLE[54:60]  # iterations 1..6
# lm loss and elapsed time per iteration (ms) as printed on lines 55..60 of the sample
LOSS = {1: 12.43601, 2: 12.3591, 3: 12.29193}
ELAPSED_MS = {1: 84396.9, 2: 20166.6, 3: 18000.7, 4: 17129.4, 5: 15743.7, 6: 14400.1}
SETS = load_sets()


def _log_bytes(long_line: bytes) -> bytes:
    """The head, iterations 1-3, one long line (with its newline), iterations 4-6."""
    return "".join(HEAD + ITERS[:3]).encode() + long_line + b"\n" + "".join(ITERS[3:]).encode()


def _check_steps(parsed) -> None:
    steps = parsed.rows[parsed.rows["kind"] == "step"].set_index("step")
    assert list(steps.index) == [1, 2, 3, 4, 5, 6]
    for step, ms in ELAPSED_MS.items():
        assert steps.at[step, "step_time_s"] == pytest.approx(ms / 1000, rel=1e-12)
    for step, loss in LOSS.items():
        assert steps.at[step, "loss"] == pytest.approx(loss, rel=1e-12)


@pytest.fixture
def short_cut(monkeypatch):
    """A cut length of 4 KiB (records of 1 KiB), read 1 KiB at a time: the long-line paths on small files."""
    monkeypatch.setattr(reader, "MAX_RECORD_CHARS", 4096)
    monkeypatch.setattr(reader, "MATCH_CHARS", 1024)
    monkeypatch.setattr(reader, "CHUNK_BYTES", 1024)


@pytest.mark.parametrize("suffix", ["", ".gz"])
@pytest.mark.parametrize("jobs,chunk_bytes", [(1, None), (1, 2048), (2, 2048), (1, 50_000)])
def test_a_line_longer_than_the_cut_is_cut_counted_and_the_steps_around_it_read_exactly(
    tmp_path, short_cut, suffix, jobs, chunk_bytes
):
    data = _log_bytes(b"z" * 300_000)  # 300 KB, 73 times the cut
    lines_in_file = data.count(b"\n")  # every line ends with a newline
    path = tmp_path / f"long.log{suffix}"
    path.write_bytes(gzip.compress(data, 1) if suffix else data)
    parsed = parse_log(str(path), SETS, None, jobs=jobs, chunk_bytes=chunk_bytes)
    assert "megatron" in parsed.formats[0]
    _check_steps(parsed)
    assert parsed.lines["overlong"] == 1
    assert parsed.lines["physical"] == lines_in_file  # the cut line is still one line
    # the cut line is one unmatched record, as any other line no pattern reads
    assert parsed.lines["unmatched"] == parsed.lines["records"] - parsed.lines["matched"]


def test_the_cut_record_is_the_lines_first_characters_and_the_next_line_follows(tmp_path, short_cut):
    path = tmp_path / "long.log"
    path.write_bytes(b"first\n" + b"abc" * 10_000 + b"\nnext\n")
    stats = ReadStats()
    recs = list(read_records(str(path), stats))
    assert [r.line for r in recs] == [1, 2, 3]
    assert recs[1].text == ("abc" * 10_000)[:1024]
    assert recs[2].text == "next"
    assert stats.overlong == 1 and stats.physical_lines == 3


def test_a_long_line_at_the_end_without_newline(tmp_path, short_cut):
    path = tmp_path / "long.log"
    path.write_bytes(b"first\n" + b"q" * 50_000)
    stats = ReadStats()
    assert [r.text for r in read_records(str(path), stats)] == ["first", "q" * 1024]
    assert stats.overlong == 1 and stats.physical_lines == 2


BIG = 32 << 20  # a 32 MiB line


def _peak_mib(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def big_logs(tmp_path_factory):
    """One log with a 32 MiB line between iterations, plain and in every compression the reader opens."""
    folder = tmp_path_factory.mktemp("big")
    data = _log_bytes(b"0123456789abcdef" * (BIG // 16))
    paths = {"plain": folder / "big.log"}
    paths["plain"].write_bytes(data)
    paths["gzip"] = folder / "big.log.gz"
    paths["gzip"].write_bytes(gzip.compress(data, 1))
    paths["bzip2"] = folder / "big.log.bz2"
    paths["bzip2"].write_bytes(bz2.compress(data, 1))
    paths["xz"] = folder / "big.log.xz"
    paths["xz"].write_bytes(lzma.compress(data, preset=0))
    return paths


@pytest.mark.parametrize("kind", ["plain", "gzip", "bzip2", "xz"])
def test_the_single_pass_reader_holds_a_few_mb_for_a_32_mib_line(big_logs, kind):
    stats = ReadStats()
    peak = _peak_mib(lambda: sum(1 for _ in read_records(str(big_logs[kind]), stats)))
    assert stats.overlong == 1
    assert peak < 12, f"{kind}: the reader held {peak:.1f} MiB for a 32 MiB line"


@pytest.mark.parametrize("kind", ["plain", "gzip"])
def test_the_range_reader_holds_a_few_mb_for_a_32_mib_line_in_a_range(big_logs, kind):
    """chunks.read_parallel in this process (jobs=1), 1 MiB ranges: the line spans 32 of them."""
    from logparse.frame.matcher import Matcher

    matcher = Matcher([SETS["megatron"]])
    stats = ReadStats()
    peak = _peak_mib(
        lambda: sum(
            1 for _ in chunks.read_parallel(str(big_logs[kind]), matcher, stats, jobs=1, chunk_bytes=1 << 20)
        )
    )
    assert stats.overlong == 1
    assert stats.physical_lines == _log_bytes(b"x").count(b"\n")
    assert peak < 24, f"{kind}: the range reader held {peak:.1f} MiB for a 32 MiB line"


def test_a_32_mib_line_read_in_ranges_gives_the_steps_exactly(big_logs):
    parsed = parse_log(str(big_logs["plain"]), SETS, None, jobs=2)
    _check_steps(parsed)
    assert parsed.lines["overlong"] == 1


def test_a_long_line_on_standard_input(tmp_path, short_cut):
    """`-` is spooled to a file a chunk at a time (cli.py), then read as any file: the same cut, the same steps,
    through detection, and the count in summary.json's lines."""
    import json

    from click.testing import CliRunner

    from logparse.cli import cli

    res = CliRunner().invoke(
        cli, ["analyze", "-", "--json", "--out", str(tmp_path / "o")], input=_log_bytes(b"y" * 300_000)
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["lines"]["overlong"] == 1
    assert summary["lines"]["total"] == _log_bytes(b"y").count(b"\n")
    assert (summary["steps"]["first"], summary["steps"]["last"], summary["steps"]["count"]) == (1, 6, 6)
