"""The parallel reader (chunks.py) gives what one pass gives (issue 12).

A log read in byte ranges by several processes, its step rows frozen into typed pieces, must come out exactly
as the single pass reads it: the same rows (values and dtypes), events, facts, line accounting and notes. The
single pass (jobs=1) is the reference; the parallel path is run with small ranges so that boundaries fall
everywhere, and with boundaries put on purpose inside a hard-wrapped record, next to a progress bar redrawn on
one physical line, and between rank-prefixed lines, including one where two ranks' output shares a line.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logparse import chunks
from logparse.chunks import worth_splitting
from logparse.columns import Columns
from logparse.errors import LogparseError
from logparse.frame import parse_log
from logparse.patterns import load_sets

from . import synth
from .test_variants import SUPERBENCH_ITER1, _wrap

ROOT = Path(__file__).resolve().parent.parent
SETS = load_sets()
LOGS = sorted(
    [
        *(ROOT / "sample_logs").glob("*.log"),
        *(ROOT / "tests" / "data" / "public").glob("*.log"),
        *(ROOT / "tests" / "data" / "peers").rglob("*.log"),
    ]
)


def _parse(path, jobs=1, chunk_bytes=None, forced=None, listing=True):
    """The parsed log and the unmatched records it listed (None when not listing: the workers then keep only
    the unmatched records a join may need)."""
    unmatched = [] if listing else None
    try:
        parsed = parse_log(
            path if isinstance(path, list) else str(path),
            SETS,
            forced,
            on_unmatched=unmatched.append if listing else None,
            jobs=jobs,
            chunk_bytes=chunk_bytes,
        )
    except LogparseError as exc:
        return type(exc).__name__ + ": " + str(exc)
    return parsed, unmatched


def _same(one, many):
    """Everything the frame stage hands on is equal."""
    if isinstance(one, str) or isinstance(many, str):
        assert one == many
        return
    (a, a_unmatched), (b, b_unmatched) = one, many
    pd.testing.assert_frame_equal(a.rows, b.rows)
    pd.testing.assert_frame_equal(a.events, b.events)
    assert a.lines == b.lines
    assert repr(a.facts) == repr(b.facts)  # repr: a NaN fact equals itself
    assert (a.formats, a.notes, a.aggregates, a.windows, a.keymap, a.interval_patterns) == (
        b.formats,
        b.notes,
        b.aggregates,
        b.windows,
        b.keymap,
        b.interval_patterns,
    )
    assert a_unmatched == b_unmatched


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_shipped_and_fixture_log_reads_the_same_in_ranges(path, monkeypatch):
    size = path.stat().st_size
    one = _parse(path)
    for chunk in (max(64, size // 13), max(97, size // 5 + 1)):
        _same(one, _parse(path, jobs=2, chunk_bytes=chunk))
        _same(_parse(path, listing=False), _parse(path, jobs=2, chunk_bytes=chunk, listing=False))
    # every run of step rows sent in bulk, however short: attached lines then wait for bulk rows too
    monkeypatch.setattr(chunks, "BULK_MIN", 1)
    _same(one, _parse(path, jobs=2, chunk_bytes=max(64, size // 3)))


def test_ranges_without_listing_unmatched_send_tallies_and_bulk_runs(tmp_path):
    """Without an unmatched listing, a worker sends most unmatched records as a count and long runs of step
    rows as typed pieces; the frame is still the same."""
    text, _ = synth.megatron_log(synth.Spec(steps=600, seed=3, save_interval=100))
    noisy = "\n".join(
        f"{line}\nNCCL INFO noise {i}\nsome library warning {i}" for i, line in enumerate(text.splitlines())
    )
    log = tmp_path / "noisy.log"
    log.write_text(noisy + "\n")
    one = parse_log(str(log), SETS)
    many = parse_log(str(log), SETS, jobs=2, chunk_bytes=20_000)
    pd.testing.assert_frame_equal(one.rows, many.rows)
    assert one.lines == many.lines and one.lines["unmatched"] > 1200
    assert one.rows["step"].dtype == np.int64 and one.rows["loss"].dtype == np.float64


def _line_starts(data: bytes) -> list[int]:
    return [0] + [i + 1 for i, b in enumerate(data) if b == 10 and i + 1 < len(data)]


def _boundaries_everywhere(tmp_path, lines: list[str], name: str, forced=None):
    """The log cut with a range starting at each of its lines (and one byte after), each compared."""
    log = tmp_path / name
    log.write_text("\n".join(lines) + "\n")
    data = log.read_bytes()
    one = _parse(log, forced=forced)
    quiet = _parse(log, forced=forced, listing=False)
    for start in _line_starts(data)[1:]:
        for chunk in (start, start + 1):
            _same(one, _parse(log, jobs=2, chunk_bytes=chunk, forced=forced))
            _same(quiet, _parse(log, jobs=2, chunk_bytes=chunk, forced=forced, listing=False))
    return one


def test_a_hard_wrapped_record_across_a_range_boundary(tmp_path):
    parts = _wrap(SUPERBENCH_ITER1, 80)
    lines = ["setting up", *parts, "after the record", *parts, "the end"]
    one = _boundaries_everywhere(tmp_path, lines, "wrapped.log", forced="megatron")
    parsed, _ = one
    assert parsed.lines["rejoined"] == 2 * (len(parts) - 1)  # both records put back together every time


def test_a_progress_bar_redrawn_on_one_line_across_a_range_boundary(tmp_path):
    bar = "\r".join(
        f" {p:3d}%|{'#' * (p // 10):10s}| {p * 40 // 100}/40 [00:0{p // 50}<00:01, 23.01it/s]"
        for p in range(0, 101, 5)
    )
    lines = [
        "***** Running training *****",
        "  Num examples = 640",
        "  Total optimization steps = 40",
        bar,
        "{'loss': 5.292, 'grad_norm': 1.925, 'learning_rate': 0.0018, 'epoch': 0.03}",
        bar,
        "{'train_runtime': 12.5, 'train_samples_per_second': 51.2, 'train_steps_per_second': 3.2, 'train_loss': 4.9, 'epoch': 1.0}",
    ]
    parsed, _ = _boundaries_everywhere(tmp_path, lines, "bar.log", forced="hf_trainer")
    assert parsed.lines["total"] > parsed.lines["physical"]  # the redraws are records of their own


def test_rank_prefixed_lines_and_two_ranks_on_one_line_across_a_range_boundary(tmp_path):
    source = (ROOT / "sample_logs" / "hf_trainer_ddp2_cpu.log").read_text().splitlines()
    at = next(i for i, line in enumerate(source) if "it/s][default0]:{" in line)
    lines = source[max(0, at - 6) : at + 6]
    assert all(line.startswith("[default") for line in lines)
    _boundaries_everywhere(tmp_path, lines, "ranks.log", forced="hf_trainer")


def test_eight_ranks_printing_every_line(tmp_path):
    text, _ = synth.megatron_log(synth.Spec(steps=120, all_ranks=True, seed=5))
    log = tmp_path / "ranks8.log"
    log.write_text(text)
    one = _parse(log)
    _same(one, _parse(log, jobs=2, chunk_bytes=9_000))
    assert one[0].rows["rank"].nunique() == 8


def test_a_compressed_log_read_in_blocks(tmp_path):
    text, _ = synth.megatron_log(synth.Spec(steps=300, seed=7))
    plain = tmp_path / "run.log"
    plain.write_text(text)
    packed = tmp_path / "run.log.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    one = _parse(plain)
    _same(one, _parse(packed, jobs=2, chunk_bytes=10_000))
    _same(one, _parse(packed))


def test_a_compressed_log_whose_reads_end_at_line_ends(tmp_path):
    """Lines of 256 bytes: the first read (1 MiB) and every block read end exactly at a line end, and the
    file is still read to its end."""
    text, _ = synth.megatron_log(synth.Spec(steps=5000, seed=4))
    lines = [line[:255].ljust(255) for line in text.splitlines()]
    plain = tmp_path / "even.log"
    plain.write_text("\n".join(lines) + "\n")
    assert plain.stat().st_size > 1 << 20 and (1 << 20) % 256 == 0
    packed = tmp_path / "even.log.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    one = _parse(plain, listing=False)
    many = _parse(packed, jobs=2, chunk_bytes=256 * 500, listing=False)
    assert many[0].lines["physical"] == len(lines)
    _same(one, many)


def test_attempts_of_one_job_read_in_ranges_keep_counting_lines(tmp_path):
    text, _ = synth.megatron_log(synth.Spec(steps=200, seed=9))
    lines = text.splitlines()
    first, second = tmp_path / "train-0.log", tmp_path / "train-1.log"
    first.write_text("\n".join(lines[:120]) + "\n")
    second.write_text("\n".join(lines[120:]) + "\n")
    paths = [str(first), str(second)]
    _same(_parse(paths), _parse(paths, jobs=2, chunk_bytes=4_000))


def test_small_files_are_read_in_one_pass_unless_asked(tmp_path):
    log = tmp_path / "small.log"
    log.write_text("x\n")
    assert not worth_splitting(str(log), None)
    assert worth_splitting(str(log), 1024)


# ---------------------------------------------------------------------------------------------------------
# typed pieces: the frame's columns do not depend on where the rows were cut

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**62), max_value=2**62),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["a", "megatron.iteration", "3,5"]),
)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.dictionaries(st.sampled_from(["a", "b", "c"]), VALUES, max_size=3), min_size=1, max_size=60
    ),
    cuts=st.lists(st.integers(min_value=1, max_value=60), max_size=4),
)
def test_columns_type_as_pandas_types_the_whole_list(rows, cuts):
    """pandas is the oracle: a frame built from the rows' values in one list each. However the rows are cut
    into frozen pieces, the columns hold the same values with the same dtypes."""
    keys: dict[str, None] = {}
    for row in rows:
        keys.update(dict.fromkeys(row))
    want = pd.DataFrame({k: [row.get(k) for row in rows] for k in keys})
    cols = Columns()
    at = 0
    for cut in sorted(set(cuts)) + [len(rows)]:
        part = Columns()
        for row in rows[at:cut]:
            part.append(row)
        for piece in part.pieces_all():
            cols.extend(piece)
        at = max(at, cut)
    got = cols.frame()
    if want.empty:
        assert got.empty
        return
    pd.testing.assert_frame_equal(got[list(want.columns)], want)


def test_a_value_written_into_a_frozen_row():
    cols = Columns()
    for i in range(10):
        cols.append({"step": i, "loss": float(i)})
    assert len(cols.pieces_all()) == 1  # every row frozen
    cols.set("loss", 3, None)
    cols.set("memory", 2, 5.5)
    assert cols.get("loss", 3) is None and cols.get("step", 3) == 3 and cols.get("memory", 2) == 5.5
    frame = cols.frame()
    assert frame["step"].dtype == np.int64
    assert np.isnan(frame["loss"][3]) and frame["memory"][2] == 5.5 and np.isnan(frame["memory"][0])


# ---------------------------------------------------------------------------------------------------------
# the fast lane (fastlane.py): lines of a known shape read through its regex, converted in bulk


def _megatron_variety(tmp_path, ranks: int = 1) -> Path:
    """A Megatron log whose iteration lines change shape (the step's width grows at 10, 100 and 1000) and carry
    what the lane must hand to the ordinary reading: a NaN loss, values that do not convert, a line with
    trailing blanks, a colour-code remnant, two ranks' output on one line, a hard-wrapped line."""
    text, _ = synth.megatron_log(synth.Spec(steps=1200, seed=11, all_ranks=ranks > 1, gpus=8))
    out = []
    for i, line in enumerate(text.splitlines()):
        if "iteration " in line and "|" in line:
            if i % 97 == 0:
                line = line.replace("lm loss: ", "lm loss: nan |x: ", 1)
            elif i % 89 == 0:
                line = line.replace(
                    "grad norm: ", "grad norm: 1,2", 1
                )  # float() refuses it, the pattern reads 12
            elif i % 101 == 0:
                line = line.replace("grad norm: ", "grad norm: abc", 1)  # a malformed value
            elif i % 83 == 0:
                line += "   "
            elif i % 79 == 0:
                line = line.replace("| loss scale", "[0m| loss scale", 1)
            elif i % 211 == 0:
                head, tail = line[:70], line[70:]
                out.append(head)
                line = tail
        out.append(line)
        if i % 7 == 0:
            out.append(f"NCCL INFO ring {i}")
    if ranks > 1:
        out.insert(400, "[default3]: 10%|#  | 4/40 [00:00<00:01, 23.01it/s]" + out[399])
    log = tmp_path / f"variety{ranks}.log"
    log.write_text("\n".join(out) + "\n")
    return log


@pytest.mark.parametrize("ranks", [1, 8])
def test_the_fast_lane_reads_what_the_patterns_read(tmp_path, monkeypatch, ranks):
    from logparse import fastlane

    bulk_rows = []
    real = fastlane.piece

    def counting(shape, lines, groups):
        made = real(shape, lines, groups)
        bulk_rows.append(0 if made is None else made.n)
        return made

    monkeypatch.setattr(chunks, "shape_piece", counting)
    log = _megatron_variety(tmp_path, ranks)
    one = _parse(log, listing=False)
    for chunk in (60_000, 250_000):
        bulk_rows.clear()
        _same(one, _parse(log, jobs=1, chunk_bytes=chunk, listing=False))
        assert sum(bulk_rows) > 0.8 * len(one[0].rows)  # most rows came through the lane
    assert one[0].lines["malformed"] > 0 and one[0].rows["nonfinite"].notna().any()
    monkeypatch.setattr(chunks, "LANE", False)
    _same(one, _parse(log, jobs=2, chunk_bytes=60_000, listing=False))
