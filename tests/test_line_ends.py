"""A log whose lines end in a bare carriage return reads as the same log with newlines.

A file with no newline (a classic Mac file, a log passed through `tr '\\n' '\\r'`) was one physical line: every
record on line 1, so the report joined each step row with every other (4.3 MB of log took 5.9 GB) and a restart
could not be placed (an internal error). Its lines are now numbered as newlines would number them. A progress bar
redrawn with \\r inside a file of newlines stays one physical line (its redraws are records of it), and the report
joins its thousands of rows in linear memory.
"""

from __future__ import annotations

import io
import json
import tracemalloc
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from logparse import api
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets
from logparse.read.reader import ReadStats, read_records
from logparse.report import gather

from .conftest import SAMPLES

RESUMED = SAMPLES / "megatron_resumed_8xh100.log"
TRUTH = json.loads((SAMPLES / "megatron_resumed_8xh100.truth.json").read_text())


def _bare_cr(tmp_path, text: bytes, name: str = "cr.log"):
    path = tmp_path / name
    path.write_bytes(text.replace(b"\n", b"\r"))
    return path


def test_bare_cr_lines_are_numbered_as_newline_lines(tmp_path):
    data = RESUMED.read_bytes()
    path = _bare_cr(tmp_path, data)
    stats = ReadStats()
    got = [(r.line, r.text) for r in read_records(str(path), stats)]
    want = [(r.line, r.text) for r in read_records(str(RESUMED))]
    assert got == want
    assert stats.physical_lines == data.count(b"\n")  # one line per line end, as `wc -l` counts the original
    assert stats.unterminated is None  # (its last \r ends its last line: nothing was cut)


def test_a_resumed_megatron_log_with_bare_cr_keeps_its_steps_and_its_restart(tmp_path):
    path = _bare_cr(tmp_path, RESUMED.read_bytes())
    run = api.resolve(str(path))
    assert [(r.at_step, r.resumed_from) for r in run.restarts] == [
        (TRUTH["restart"]["at_step"], TRUTH["restart"]["resumed_from"])
    ]
    plain = api.resolve(str(RESUMED))
    cols = ["step", "line", "loss", "step_time_s", "segment"]
    pd.testing.assert_frame_equal(run.steps[cols], plain.steps[cols])


def test_ranges_read_a_bare_cr_log_as_one_pass_does(tmp_path):
    path = _bare_cr(tmp_path, RESUMED.read_bytes())
    sets = load_sets()
    one = parse_log(str(path), sets)
    ranges = parse_log(str(path), sets, jobs=1, chunk_bytes=20_000)
    plain = parse_log(str(RESUMED), sets)
    pd.testing.assert_frame_equal(ranges.rows, one.rows)
    pd.testing.assert_frame_equal(one.rows, plain.rows)
    assert one.lines == ranges.lines == plain.lines


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_a_cr_lf_pair_cut_between_two_reads_is_one_line_end(size):
    # "a\r\nb\rc\r\n\rd": a, b, c, an empty line, d; whatever bytes each read of the file returns
    from logparse.read.reader import _BareCR

    source = io.BufferedReader(io.BytesIO(b"a\r\nb\rc\r\n\rd"), buffer_size=size)

    class Small(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            return source.read(size)

    cr = _BareCR(Small())
    out = b"".join(iter(lambda: cr.read(size), b""))
    assert out == b"a\nb\nc\n\nd"


def test_a_bar_redrawn_on_one_line_is_joined_to_its_steps_in_linear_memory():
    # 3,000 redraws of a bar on one physical line (NeMo keeps its bar on one line): the report's join of the
    # step rows with the matched lines by line made 3,000 x 3,000 pairs (216 MB); each line's steps compared
    # once, it holds a few hundred KB
    n = 3000
    steps = pd.DataFrame({"line": np.full(n, 7), "step": np.arange(1, n + 1)})
    raw = pd.DataFrame({"kind": "step", "line": np.full(n, 7), "step": np.arange(1, n + 1)})
    run = SimpleNamespace(steps=steps, parsed=SimpleNamespace(rows=raw))
    tracemalloc.start()
    try:
        by_line = gather._step_lines(run)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(by_line) == n
    assert peak < 20 << 20, f"{peak / 2**20:.0f} MiB"
