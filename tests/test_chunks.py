"""The parallel reader (chunks.py) gives what one pass gives.

A log read in byte ranges by several processes, its step rows frozen into typed pieces, must come out exactly
as the single pass reads it: the same rows (values and dtypes), events, facts, line accounting and notes. The
single pass (jobs=1) is the reference; the parallel path is run with small ranges so that boundaries fall
everywhere, and with boundaries put on purpose inside a hard-wrapped record, next to a progress bar redrawn on
one physical line, and between rank-prefixed lines, including one where two ranks' output shares a line.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logparse.core.errors import LogparseError
from logparse.frame import chunks
from logparse.frame.assemble import parse_log
from logparse.frame.chunks import worth_splitting
from logparse.frame.columns import Columns
from logparse.patterns.sets import load_sets

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


@pytest.fixture(params=[True, False], ids=["native", "regex"])
def native(request, monkeypatch):
    """The window's shape test through _native.fit (the C extension), or through the shapes' regexes alone (as
    where the extension is not built)."""
    return _lane(monkeypatch, request.param)


def _lane(monkeypatch, native: bool) -> bool:
    from logparse.frame import fastlane

    if native and fastlane._native is None:
        pytest.skip(
            "logparse.frame._native is not built (no C compiler at install): the regexes read every line"
        )
    monkeypatch.setattr(fastlane, "NATIVE", native)
    return native


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
    """Each log read in ranges as in one pass, under one of three cuts taken in turn over the logs (each cut
    meets a third of them: the suite's time stays in bounds): a fine cut with the unmatched listing, a coarser
    one at a size no power of two divides without it, or every run of step rows sent in bulk however short
    (attached lines then wait for bulk rows too)."""
    size = path.stat().st_size
    cut = LOGS.index(path) % 3
    if cut == 0:
        _same(_parse(path), _parse(path, jobs=2, chunk_bytes=max(64, size // 13)))
    elif cut == 1:
        chunk = max(97, size // 5 + 1)
        _same(_parse(path, listing=False), _parse(path, jobs=2, chunk_bytes=chunk, listing=False))
    else:
        one = _parse(path)
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
    assert parsed.lines["records"] > parsed.lines["physical"]  # the redraws are records of their own


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


def test_memory_is_given_back_while_a_large_log_is_read_and_reused_after(tmp_path, monkeypatch):
    # glibc's mallopt: M_MMAP_THRESHOLD -3, M_TRIM_THRESHOLD -1 (malloc.h); the values are glibc's 128 KiB
    # default trim threshold, 256 KiB while reading (blocks mapped apart, given back when freed), and 32 MiB (its
    # largest automatic mmap threshold) / 64 MiB afterwards
    calls = []
    monkeypatch.setattr(chunks, "_mallopt", lambda param, value: calls.append((param, value)))
    monkeypatch.setattr(chunks, "_reusing", False)
    log = tmp_path / "m.log"
    log.write_text(synth.megatron_log(synth.Spec(steps=40, seed=2))[0])
    read_at = []
    real_read = chunks.read_parallel

    def read(*args, **kwargs):
        read_at.append(len(calls))
        yield from real_read(*args, **kwargs)

    monkeypatch.setattr(chunks, "read_parallel", read)
    _parse(log, jobs=1, chunk_bytes=2_000)
    _parse(log, jobs=1, chunk_bytes=2_000)  # a second large log in the same process: given back again
    reuse = [(-3, 32 << 20), (-1, 64 << 20)]
    assert calls == [(-3, 256 * 1024), *reuse, (-3, 256 * 1024), (-1, 128 * 1024), *reuse]
    assert read_at == [1, 5]  # each read under the give-back setting
    calls.clear()
    _parse(log)  # a small log read in one pass: glibc left as it is
    assert calls == []


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
    st.sampled_from(["a", "megatron.iteration", "3,5", "", "\u00e9t\u00e9 \u2713"]),
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
    # (eight ranks' lines over the widths up to 100: the widths' growth is the one rank's log's to show)
    steps = 1200 if ranks == 1 else 300
    text, _ = synth.megatron_log(synth.Spec(steps=steps, seed=11, all_ranks=ranks > 1, gpus=8))
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
def test_the_fast_lane_reads_what_the_patterns_read(tmp_path, monkeypatch, native, ranks):
    bulk_rows = _lane_rows(monkeypatch)
    log = _megatron_variety(tmp_path, ranks)
    one = _parse(log, listing=False)
    for chunk in (60_000, 250_000):
        bulk_rows.clear()
        _same(one, _parse(log, jobs=1, chunk_bytes=chunk, listing=False))
        assert sum(bulk_rows) > 0.8 * len(one[0].rows)  # most rows came through the lane
    assert one[0].lines["malformed"] > 0 and one[0].rows["nonfinite"].notna().any()
    monkeypatch.setattr(chunks, "LANE", False)
    _same(one, _parse(log, jobs=2, chunk_bytes=60_000, listing=False))


@pytest.mark.parametrize("ranks", [1, 8])
def test_checkpoint_lines_every_few_steps_go_through_the_lane(tmp_path, monkeypatch, native, ranks):
    """A checkpoint saved every 3 iterations. The two lines Megatron-LM prints for each save
    (megatron/training/checkpointing.py save_checkpoint: 'saving checkpoint at iteration {:7d} to {} in {}
    format', '  successfully saved checkpoint from iteration {:7d} to {} [ t {}/{}, p {}/{} ]', by rank 0) are
    read through the lane's event shapes, their rows built a column at a time, and the log reads in ranges as in
    one pass: events, their order, line numbers and steps. The save line's text also holds the needle of the
    iteration pattern, tried before the checkpoint pattern: the lane checks that one on every line it reads."""
    text, _ = synth.megatron_log(synth.Spec(steps=1500, seed=5, all_ranks=ranks > 1, gpus=8))
    out = []
    for line in text.splitlines():
        out.append(line)
        found = re.search(r"iteration\s+(\d+)/", line)
        if (
            found
            and int(found.group(1)) % 3 == 0
            and not line.startswith("[default")
            or (found and int(found.group(1)) % 3 == 0 and line.startswith("[default0]:"))
        ):
            step, prefix = int(found.group(1)), "[default0]:" if ranks > 1 else ""
            out.append(f"{prefix}saving checkpoint at iteration {step:7d} to /ckpt/run in torch_dist format")
            out.append(
                f"{prefix}  successfully saved checkpoint from iteration {step:7d} to /ckpt/run [ t 1/2, p 1/1 ]"
            )
    log = tmp_path / "saves.log"
    log.write_text("\n".join(out) + "\n")
    fast_rows: list[int] = []
    real = chunks._Run._send_fast_events

    def counting(self, items):
        sent = real(self, items)
        fast_rows.append(len(items) if sent else 0)
        return sent

    monkeypatch.setattr(chunks._Run, "_send_fast_events", counting)
    one = _parse(log, listing=False)
    saves = one[0].events[one[0].events["event"] == "checkpoint_save"]
    assert len(saves) == 2 * (1500 // 3) and saves["step"].tolist()[:4] == [3, 3, 6, 6]
    for jobs, chunk in ((1, 60_000), (1, 250_000), (2, 60_000)):
        fast_rows.clear()
        _same(one, _parse(log, jobs=jobs, chunk_bytes=chunk, listing=False))
        if chunk == 250_000:  # (a range's first lines of each shape are read both ways, in small ranges most)
            assert sum(fast_rows) > 0.8 * len(saves)  # most save lines came through the lane


# the generic reading's key map lines through the lane: real logs of custom loops, blown up past
# the range size, read in ranges exactly as in one pass, most of their step rows through the lane
GENERIC_LOGS = sorted(
    [
        *(ROOT / "tests" / "data" / "captures" / "custom").glob("*.log"),
        *(ROOT / "sample_logs").glob("generic_*_cpu.log"),
    ]
)
# a log whose step lines the lane does not read: a tqdm bar redrawn on one line (carriage returns)
NOT_LANE = {"tqdm.log", "tqdm_after.log", "tqdm_iter.log", "tqdm_epochs.log"}


def _lane_rows(monkeypatch) -> list[int]:
    """The rows each run of lane lines made (0 for a run that went back to the ordinary reading)."""
    from logparse.frame import fastlane

    made_rows: list[int] = []
    real, real_block = fastlane.piece, fastlane.block

    def counting(shape, lines, groups):
        made = real(shape, lines, groups)
        made_rows.append(0 if made is None else made.n)
        return made

    def counting_block(shape, lines, cols, ranks):  # (the rows _native.fit read and converted)
        made = real_block(shape, lines, cols, ranks)
        made_rows.append(made.n)
        return made

    monkeypatch.setattr(chunks, "shape_piece", counting)
    monkeypatch.setattr(chunks, "shape_block", counting_block)
    return made_rows


@pytest.mark.parametrize("path", GENERIC_LOGS, ids=lambda p: p.name)
def test_generic_logs_read_through_the_lane_as_in_one_pass(path, tmp_path, monkeypatch):
    text = path.read_text()
    log = tmp_path / path.name
    log.write_text(text * max(2, 100_000 // len(text)))  # ~100 kB: ten ranges of 10 kB
    made_rows = _lane_rows(monkeypatch)
    one = _parse(log, listing=False)
    assert one[0].format == "generic" or path.name in NOT_LANE
    for jobs, chunk in ((1, 10_000), (2, 10_000), (1, 32_768)):
        made_rows.clear()
        _same(one, _parse(log, jobs=jobs, chunk_bytes=chunk, listing=False))
        if path.name not in NOT_LANE and jobs == 1:
            assert sum(made_rows) > 0.8 * len(one[0].rows)  # most rows came through the lane
    _same(_parse(log), _parse(log, jobs=1, chunk_bytes=10_000))  # listing the unmatched records too


# the lane's shape of a key map line admits each number printed the same way (sign, fraction, exponent,
# thousands separators in threes); every line a shape reads must read the same the ordinary way
_GENERIC_LINES = [
    "step 10/40 | loss 4.969 | 6.0 ms/step | 84,752 tok/s",
    "2026-12-01 19:46:46,692 - INFO - __main__ - global_step=20 loss=2.3778 lr=1.00e-03",
    "step     3 | loss 5.481739 | lr 1.2000e-03 | norm 1.0668 | dt 14.93ms | tok/sec 34286.92",
    "Step 1/100 loss=5.6740 grad_norm=1.016 lr=3.000e-04 time=0.0723s samples/s=221.2 mem=0.33GB",
    "[step 1] loss: 5.6740, lr: 3.00e-04, grad_norm: 1.02, dt_ms: 31.38, tokens/sec: 16314, mfu: 19.95%",
    "step:2/200 train_loss:18.7847 train_time:730ms step_avg:365.11ms tok_s:18029",
    "iter_dt 7797.46ms; iter 2: train loss 2.60938",
    "step 100 | elapsed 0.90m | loss: 3.16 | val: 2.97 | mfu 41 | widgets 1,234 widgets/s",
    "step 5 | loss 2.5 | mem: 61% | lr 1e-3",  # a unit the column cannot hold: kept as x_mem_pct
    # the key model's line rules: the total is the loss (its parts kept), data_time a known quantity, eta
    # skipped, M binary (facebookresearch/detectron2#3363); the only loss-like key is the loss
    # (modelscope/ClearerVoice-Studio#4); a bare whole memory figure is MiB, the first parameter group the lr
    "[08/14 10:26:13 d2.utils.events]:  eta: 0:43:51  iter: 6319  total_loss: 0.4072  loss_cls: 0.06762  "
    "loss_box_reg: 0.05153  time: 0.4464  data_time: 0.0375  lr: 0.0003  max_mem: 1962M",
    "Train Epoch: 0/100 Step: 10/965 | 2.057s/batch | lr 5.0000e-04 || Mask_Loss 1.6780",
    "step 7 | lr/pg1 0.001 | lr/pg2 0.0001 | memory 3086 | loss 2.5",
]
_DIGIT_RUN = re.compile(r"\d+")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_GENERIC_LINES), st.data())
def test_a_key_map_shape_reads_only_what_the_pattern_reads(line, data):
    from logparse.frame import fastlane
    from logparse.frame.matcher import Matcher

    generic = SETS["generic"]
    spec = next(s for s in generic.lines if s.name == "step")
    matcher = Matcher([generic])
    shape = fastlane.LaneShape.learn(spec, matcher.index[id(spec)], matcher, line, None, None, line)
    assert shape is not None, line
    runs = list(_DIGIT_RUN.finditer(line))
    # other digits, widths, signs, separators and exponents put into the line's number texts
    pieces = st.sampled_from(["0", "7", "999", "1000", "1,000", "12,345,678", "1.5", "-3", "+4", "e5", ","])
    text, at = [], 0
    for m in runs:
        text.append(line[at : m.start()])
        text.append(data.draw(st.one_of(st.just(m.group()), st.from_regex(r"\A[0-9]{1,7}\Z"), pieces)))
        at = m.end()
    text.append(line[at:])
    mutated = "".join(text)
    read = shape.values_of(mutated)
    if read is not None:
        want = spec.match(mutated)
        assert want is not None and not spec.is_partial(mutated), mutated
        assert read == want, mutated
        assert not any(i < matcher.index[id(spec)] for i in matcher.candidates(mutated))


def test_generic_values_the_lane_must_leave_to_the_ordinary_reading(tmp_path, monkeypatch):
    """A custom loop's lines (tests/data/captures/custom/pipe.log, logging.log) renumbered, with what the lane
    must read exactly or hand back: nan/inf, a unit that changes (ms, s, us), separators that change (999 ->
    1,000 -> 1,000,000), a value not a number, a sign, trailing blanks, a carriage return, noise."""
    pipe = "step {n}/5000 | loss {loss} | {dt} ms/step | {tok} tok/s"
    logging = "2026-12-01 19:46:{s:02d},{ms:03d} - INFO - __main__ - global_step={n} loss={loss} lr=1.00e-03"
    out = []
    for n in range(1, 5001):
        loss, dt, tok = f"{5 - n / 2000:.3f}", f"{6 + n % 7}.0", f"{(n * 997) % 2_000_000:,}"
        if n % 97 == 0:
            loss = "nan"
        elif n % 89 == 0:
            loss = "-inf"
        elif n % 83 == 0:
            loss = "abc"
        elif n % 79 == 0:
            loss = "-0.5"
        line = pipe.format(n=n, loss=loss, dt=dt, tok=tok)
        if n % 71 == 0:
            line = line.replace(" ms/step", " s/step")
        elif n % 67 == 0:
            line = line.replace(" ms/step", "us/step")
        elif n % 61 == 0:
            line += "  "
        elif n % 59 == 0:
            line = "\r" + line
        if n % 2 == 0:
            line = logging.format(s=n % 60, ms=n % 1000, n=n, loss=loss)
        out.append(line)
        if n % 5 == 0:
            out.append(f"some library warning {n}")
    log = tmp_path / "generic_variety.log"
    log.write_text("\n".join(out) + "\n")
    made_rows = _lane_rows(monkeypatch)
    one = _parse(log, listing=False)
    assert one[0].format == "generic" and len(one[0].rows) == 5000
    for jobs, chunk in ((1, 30_000), (1, 120_000), (2, 30_000)):
        made_rows.clear()
        _same(one, _parse(log, jobs=jobs, chunk_bytes=chunk, listing=False))
        if jobs == 1:
            assert sum(made_rows) > 0.8 * len(one[0].rows)
    rows = one[0].rows.set_index("step")
    # values read off the lines above by hand: a sign, a unit changed, a separator, nan
    assert rows.loc[79, "loss"] == -0.5 and rows.loc[71, "step_time_s"] == 7.0
    assert rows.loc[67, "step_time_s"] == pytest.approx(1e-05)
    assert rows.loc[1003, "tokens_per_s"] == 999_991.0 and rows.loc[1005, "tokens_per_s"] == 1_001_985.0
    assert np.isnan(rows.loc[97, "loss"]) and rows.loc[97, "nonfinite"] == "loss"
    assert rows.loc[89, "loss"] == -np.inf
    monkeypatch.setattr(chunks, "LANE", False)
    _same(one, _parse(log, jobs=2, chunk_bytes=30_000, listing=False))


def test_rank_prefixed_generic_lines_through_the_lane(tmp_path, monkeypatch):
    """pipe.log's step line printed by 4 ranks behind torchrun's `[defaultR]:`, each rank's values apart."""
    out = []
    for n in range(1, 1501):
        for r in range(4):
            loss = f"{5 - n / 1000 + r / 100:.3f}"
            out.append(f"[default{r}]:step {n}/1500 | loss {loss} | {6 + r}.0 ms/step | {84752 + n:,} tok/s")
    log = tmp_path / "ranks.log"
    log.write_text("\n".join(out) + "\n")
    made_rows = _lane_rows(monkeypatch)
    one = _parse(log, listing=False)
    _same(one, _parse(log, jobs=1, chunk_bytes=40_000, listing=False))
    assert len(one[0].rows) == 6000 and sum(made_rows) > 0.8 * 6000
    _same(one, _parse(log, jobs=2, chunk_bytes=40_000, listing=False))
    row = one[0].rows.query("step == 1000 and rank == 3").iloc[0]  # read off the line by hand
    assert (row["loss"], row["tokens_per_s"]) == (4.03, 85752.0)
    assert row["step_time_s"] == pytest.approx(0.009)


def test_event_lines_do_not_cut_a_run_of_step_rows(tmp_path, monkeypatch):
    """A checkpoint save every third iteration (two event lines each, and the save-checkpoint
    timer block) cut every run of lane rows in three-row pieces; an event or config line touches no row, so
    it now waits beside the run. The frame is the same as in one pass, and the rows come in a few long runs."""
    text, _ = synth.megatron_log(synth.Spec(steps=1500, seed=4, save_interval=3))
    out = []
    for line in text.splitlines():
        out.append(line)
        if line.startswith("  successfully saved checkpoint"):
            out += [
                "(min, max) time across ranks (ms):",
                "    save-checkpoint ................................: (812.50, 815.25)",
            ]
    log = tmp_path / "saves.log"
    log.write_text("\n".join(out) + "\n")
    one = _parse(log, listing=False)
    runs = _lane_rows(monkeypatch)
    _same(one, _parse(log, jobs=1, chunk_bytes=100_000, listing=False))
    ranges = -(-log.stat().st_size // 100_000)
    assert sum(runs) > 0.9 * len(one[0].rows) and len(runs) <= 3 * ranges, (len(runs), ranges)
    assert len(one[0].events) == 3 * (1500 // 3) + 2  # every save's three lines, the start and end markers
    _same(_parse(log), _parse(log, jobs=2, chunk_bytes=100_000))


def test_repeated_noise_is_counted_as_read_and_listed_and_joined_where_it_must_be(tmp_path, monkeypatch):
    """A range counts a noise line it read before with one lookup (chunks._Worker.noise). The same
    frame as in one pass, with and without the unmatched listing, also where a repeated noise line follows a
    hard-wrapped iteration line (the join takes it: it is no noise there) and where a noise line reads the
    same as a line a pattern matches in part (`NCCL WARN` on a common set's pattern)."""
    text, _ = synth.megatron_log(synth.Spec(steps=800, seed=5))
    noise = [
        "gpu-node-017:12345:12389 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC/read",
        "/usr/lib/python3/dist-packages/torch/utils/checkpoint.py:31: UserWarning: None of the inputs have requires_grad",
        "",
        "gpu-node-017:12345:12389 [3] NCCL WARN Cuda failure 'out of memory'",
    ]
    out = []
    for i, line in enumerate(text.splitlines()):
        if " iteration " in line and i % 97 == 0:
            head, tail = line[:90], line[90:]  # a hard wrap: the rest of the line comes next, then noise
            out += [head, tail, noise[0], noise[1]]
            continue
        out.append(line)
        out.append(noise[i % len(noise)])
    log = tmp_path / "noisy.log"
    log.write_text("\n".join(out) + "\n")
    calls = []
    real = chunks._Worker._remember_noise

    def remember(self, line, rec):
        calls.append(line)
        return real(self, line, rec)

    monkeypatch.setattr(chunks._Worker, "_remember_noise", remember)
    one = _parse(log)
    for listing in (True, False):
        _same(_parse(log, listing=listing), _parse(log, jobs=1, chunk_bytes=60_000, listing=listing))
    assert 0 < len(set(calls)) <= 2 * len(noise) * -(-log.stat().st_size // 60_000)  # each text once a range
    assert one[0].rows["step"].nunique() == 800


@pytest.mark.parametrize(
    "lead, plain",
    [
        (" [", True),  # Megatron's " [2024-09-03 15:52:49] iteration": no prefix starts with a blank then "["
        ("step ", True),
        ("{'loss': ", True),
        ("[", False),  # "[default3]:", "[1,0]<stdout>:" start so
        ("[2024", False),  # "[2024]:" would be a torchrun prefix
        ("iteration", False),  # "iteration5: " would be a pdsh host
        (" 1", False),  # srun --label's right-aligned " 1: "
        ("12", False),
        ("", False),
    ],
)
def test_a_shape_skips_the_prefix_check_only_where_no_prefix_can_start_its_lines(lead, plain):
    """A line of a shape whose literal head rules out every launcher prefix is its own record text,
    so the lane does not look for a prefix on it (fastlane._plain_lead, a partial match of each prefix regex)."""
    from logparse.frame.fastlane import _plain_lead

    assert _plain_lead(lead) is plain


def test_matched_before_is_the_first_matching_candidate_before_the_pattern():
    """Matcher.matched_before weighs only the needles of earlier patterns; its answer is the definition's (some
    pattern among `candidates` tried before `index` matches the text) on every line of the sample logs, for
    every pattern of the sets each log is read with. Each line is asked again with its digits changed (7 for
    every other digit, 0 for a 7): an answer looked up by the text's layout (the patterns before `index` read by
    layout) must still be the definition's for the new text."""
    from logparse.frame.assemble import _detect
    from logparse.frame.matcher import Matcher
    from logparse.read.reader import ReadStats

    other_digits = str.maketrans("01234567897", "77777777770")
    checked = 0
    for path in sorted((ROOT / "sample_logs").glob("*.log"))[:12]:
        chosen, _, _ = _detect(str(path), SETS, None, ReadStats())
        matcher = Matcher(chosen)
        texts = list(dict.fromkeys(path.read_text(errors="replace").splitlines()))[:400]
        texts += [t.translate(other_digits) for t in texts if any(c.isdigit() for c in t)]
        wants = {index: [] for index in range(len(matcher.specs) + 1)}
        for text in texts:
            cands = matcher.candidates(text)
            # (the first candidate that matches: some candidate before `index` matches when it is before `index`)
            first = min(
                (i for i in cands if matcher.specs[i].match(text) is not None), default=len(matcher.specs)
            )
            for index in range(len(matcher.specs) + 1):
                want = first < index
                assert matcher.matched_before(text, index) == want, (path.name, text, index)
                checked += want
                wants[index].append(want)
        # and asked of all texts at once (a window's event lines: Matcher.matched_before_all), in a fresh matcher
        matcher = Matcher(chosen)
        for index, want in wants.items():
            assert matcher.matched_before_all(texts, index) == want, (path.name, index)
    assert checked > 100  # lines that an earlier pattern matches were among them


def _window_lines(monkeypatch) -> list[int]:
    """The step lines each window's stretches handed to the run at once (_Run.add_fast_many, or add_native when
    _native.fit read them)."""
    added: list[int] = []
    real, real_native = chunks._Run.add_fast_many, chunks._Run.add_native

    def counting(self, shape, line_nos, groups, lines):
        added.append(len(line_nos))
        return real(self, shape, line_nos, groups, lines)

    def counting_native(self, shape, line_nos, cols, ranks):
        added.append(len(line_nos))
        return real_native(self, shape, line_nos, cols, ranks)

    monkeypatch.setattr(chunks._Run, "add_fast_many", counting)
    monkeypatch.setattr(chunks._Run, "add_native", counting_native)
    return added


def _small_windows(monkeypatch, window: int, probe: int) -> None:
    monkeypatch.setattr(chunks, "WINDOW_LINES", window)
    monkeypatch.setattr(chunks, "PROBE_LINES", probe)


# each log through one lane, the two lanes in turn over the logs
WINDOWED = [(path, k % 2 == 1) for k, path in enumerate([*LOGS, *GENERIC_LOGS])]


@pytest.mark.parametrize(
    "path,lane", WINDOWED, ids=[f"{p.name}-{'native' if lane else 'regex'}" for p, lane in WINDOWED]
)
def test_windows_read_what_lines_read_one_at_a_time(path, lane, monkeypatch):
    """A range read a window at a time (chunks._Worker.window) gives what reading it a line at a time gives, on
    every shipped, fixture, peer and custom-loop log, with windows cut at many places (a few lines long, after
    a probe of a few lines)."""
    _lane(monkeypatch, lane)
    logs = [*LOGS, *GENERIC_LOGS]
    size = path.stat().st_size
    chunk = max(2_000, size // 3)
    monkeypatch.setattr(chunks, "BATCH", False)
    one = _parse(path, jobs=1, chunk_bytes=chunk, listing=False)
    monkeypatch.setattr(chunks, "BATCH", True)
    # windows of a few lines after a probe of a few, or of 64 after 16, in turn over the logs of each lane
    window, probe = ((7, 3), (64, 16))[(logs.index(path) // 2) % 2]
    _small_windows(monkeypatch, window, probe)
    _same(one, _parse(path, jobs=1, chunk_bytes=chunk, listing=False))


@pytest.mark.parametrize("ranks", [1, 8])
def test_most_megatron_lines_are_read_a_window_at_a_time(tmp_path, monkeypatch, native, ranks):
    """The hard cases of the lane's own test (noise, a progress bar glued to a line, non-finite and malformed
    values, a second rank's prefix inside a line) read a window at a time as a line at a time, most step lines
    handed to the run by windows."""
    log = _megatron_variety(tmp_path, ranks)
    monkeypatch.setattr(chunks, "BATCH", False)
    one = _parse(log, jobs=1, chunk_bytes=250_000, listing=False)
    monkeypatch.setattr(chunks, "BATCH", True)
    added = _window_lines(monkeypatch)
    for window, probe in ((5, 2), (50, 8), (4096, 64)):
        _small_windows(monkeypatch, window, probe)
        added.clear()
        _same(one, _parse(log, jobs=1, chunk_bytes=250_000, listing=False))
        if (
            window < 4096
        ):  # (in a window as long as the log, most lines have a shape not learned yet: `line`'s)
            assert sum(added) > 0.5 * len(one[0].rows), (window, sum(added), len(one[0].rows))
    assert _same(one, _parse(log, listing=False)) is None  # and as in one pass


@pytest.mark.parametrize("ranks", [1, 8])
def test_a_shapes_literal_texts_and_groups_make_up_each_line_it_fits(tmp_path, ranks):
    """LaneShape.literals (what windows decide by without looking at a line: a head that rules out another
    shape, a needle, the last character) are the text between the groups of every line the shape fits."""
    from logparse.frame.fastlane import Lane
    from logparse.frame.matcher import Matcher
    from logparse.read.reader import ReadStats

    log = _megatron_variety(tmp_path, ranks)
    lines = log.read_text().splitlines()
    matcher = Matcher([SETS["megatron"], *(s for s in SETS.values() if s.role == "common")])
    worker = chunks._Worker(matcher, False, Lane(matcher))
    for line in lines:
        worker.line(line, ReadStats())
    shapes = [shape for group in worker.lane.shapes.values() for shape in group]
    fitted = 0
    for shape in shapes:
        for line in lines:
            m = shape.regex.fullmatch(line)
            if m is None:
                continue
            fitted += 1
            groups = m.groups()[1:] if shape.prefixed else m.groups()
            made = shape.literals[0] + "".join(
                g + lit for g, lit in zip(groups, shape.literals[1:], strict=True)
            )
            assert made == shape.text_of(line)
    assert fitted > 500 and len(shapes) >= 3
    heads = {shape.literals[0] for shape in shapes}
    assert len(heads) >= 2  # (iteration lines and checkpoint lines: shapes that no line fits both of)
    assert any(a.disjoint(b) for a in shapes for b in shapes)


def test_another_ranks_output_inside_a_prefixed_line_is_read_line_by_line_in_a_window(tmp_path, monkeypatch):
    """Eight ranks printing every line, one iteration line with another rank's output run into one of its values
    (`[default0]: ... consumed samples: [default5]: 640 | ...`): the prefixed shape fits it, but the reader
    makes two records of it, so a window reads it with `line`; the rest of the clean range through the shape
    without a look at each line (LaneShape.reads_alone_but_tag)."""
    text, _ = synth.megatron_log(synth.Spec(steps=300, all_ranks=True, seed=7))
    lines = text.splitlines()
    hits = [
        i for i, line in enumerate(lines) if line.startswith("[default0]:") and "consumed samples:" in line
    ]
    for i in hits[150:153]:
        lines[i] = lines[i].replace("consumed samples: ", "consumed samples: [default5]: ", 1)
    log = tmp_path / "ranks8_mixed.log"
    log.write_text("\n".join(lines) + "\n")
    assert "<" not in text and "\r" not in text
    monkeypatch.setattr(chunks, "BATCH", False)
    one = _parse(log, jobs=1, chunk_bytes=400_000, listing=False)
    monkeypatch.setattr(chunks, "BATCH", True)
    added = _window_lines(monkeypatch)
    for window, probe in ((9, 3), (500, 64)):
        _small_windows(monkeypatch, window, probe)
        added.clear()
        _same(one, _parse(log, jobs=1, chunk_bytes=400_000, listing=False))
        assert sum(added) > 0.3 * len(one[0].rows)  # (the step's width grows at 10 and 100: new shapes)
    assert _same(one, _parse(log, listing=False)) is None


def test_another_ranks_output_inside_a_prefixed_checkpoint_line_is_read_as_in_one_pass(tmp_path, monkeypatch):
    """Eight ranks printing every line and a checkpoint every 3 iterations (benchmarks/bench_speed.py's log),
    with another rank's output run into a few of rank 0's save lines where the shape's step group takes it
    (`[default0]:saving checkpoint at iteration     [default5]:150 to ...`): the reader makes two records
    of such a line, so the lane's look at each prefixed event line (LaneShape.own_record) hands it to the
    ordinary reading; in windows of every size the log reads as in one pass."""
    prefixes = [f"[default{r}]:" for r in range(8)]
    out = [p + "using world size: 8, data-parallel size: 8, tensor-model-parallel size: 1" for p in prefixes]
    for step in range(1, 601):
        line = (
            f" [2024-09-03 15:{step // 60 % 60:02d}:{step % 60:02d}] iteration {step:8d}/{600:8d} | consumed samples:"
            f" {step * 128:12d} | elapsed time per iteration (ms): {6800 + step % 7:.1f} | learning rate:"
            f" {3e-4:.6E} | global batch size: {128:5d} | lm loss: {2 + 1 / step:.6E} | loss scale: 1.0 |"
            f" grad norm: {1.2:.3f} | number of skipped iterations: {0:3d} | number of nan iterations: {0:3d} |"
        )
        for p in prefixes:
            out += [
                p + line,
                f"{p}gpu-node-017:12345:12389 [{step % 8}] NCCL INFO Channel 00/0 : 0[0] -> 1[1]",
            ]
        if step % 3 == 0:
            for p in prefixes:
                glued = p == "[default0]:" and step in (150, 300, 453)  # (3 digits: the padding of its shape)
                at = f"    [default5]:{step}" if glued else f"{step:7d}"
                out.append(f"{p}saving checkpoint at iteration {at} to /ckpt/llama in torch_dist format")
                out.append(f"{p}  successfully saved checkpoint from iteration {step:7d} to /ckpt/llama")
    log = tmp_path / "saves_glued.log"
    log.write_text("\n".join(out) + "\n")
    monkeypatch.setattr(chunks, "BATCH", False)
    one = _parse(log, jobs=1, chunk_bytes=250_000, listing=False)
    monkeypatch.setattr(chunks, "BATCH", True)
    for window, probe in ((9, 3), (500, 64), (4096, 256)):
        _small_windows(monkeypatch, window, probe)
        _same(one, _parse(log, jobs=1, chunk_bytes=250_000, listing=False))
    events = one[0].events
    saving = events[(events["event"] == "checkpoint_save") & events["text"].str.startswith("saving")]
    assert len(saving) == 8 * 200 - 3  # (a glued line is two records, neither a save)
