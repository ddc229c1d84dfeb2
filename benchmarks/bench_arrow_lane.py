"""The step lines of one range read by logparse's lane against the same lines read with pyarrow.compute.

    python benchmarks/bench_arrow_lane.py [--mib 16] [--repeat 5]

A vectorized lane was proposed: per range, newline offsets with numpy, a zero-copy Arrow string array, a
literal prefilter, each learned shape's regex extracted (`extract_regex`, RE2) and cast natively. This script
measures that plan against what logparse does, on one range of the Megatron log bench_speed.py writes (an
iteration line and a noise line in turn, a checkpoint save every 8 iterations):

- ``logparse range``: the whole work of a worker on the range (chunks._read_task: decode, split, windows, rows);
- ``python: match + groups + convert``: the part of it the Arrow plan would replace, alone: the learned shape's
  ``fullmatch`` on every line, its groups, each column converted (``float``/``int`` over the column, timestamps
  through numpy);
- ``arrow: ...``: the plan: offsets, the string array over the range's bytes (no copy), ``match_substring`` of the
  shape's literal head, ``extract_regex`` of the shape's regex (anchored, named groups), each column trimmed and
  cast (``ascii_trim_whitespace``, ``cast``), timestamps cast to ``timestamp[us]``.

The shape is the one logparse learns from the range's first lines (fastlane.LaneShape). The two readings are
checked to give the same values before they are timed.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_speed import write_log  # noqa: E402

from logparse.frame import chunks  # noqa: E402
from logparse.frame.assemble import _detect  # noqa: E402
from logparse.frame.fastlane import Lane  # noqa: E402
from logparse.frame.matcher import Matcher  # noqa: E402
from logparse.patterns.sets import load_sets  # noqa: E402
from logparse.read.reader import ReadStats  # noqa: E402


def learned_shape(path: Path, lines: list[str]):
    """The step shape logparse's lane learns in the range that reads most of its lines, and the matcher."""
    chosen, _, _ = _detect(str(path), load_sets(), None, ReadStats())
    matcher = Matcher(chosen)
    worker = chunks._Worker(matcher, False, Lane(matcher))
    worker.lines(lines, ReadStats(), chunks._Dirt(False, False, False))
    shapes = [s for group in worker.lane.shapes.values() for s in group if not s.event and not s.retired]
    return max(shapes, key=lambda s: sum(map(bool, map(s.regex.fullmatch, lines)))), matcher


def python_reading(shape, lines: list[str]) -> dict[str, np.ndarray]:
    found = [m for m in map(shape.regex.fullmatch, lines) if m is not None]
    cols = shape.convert([m.groups() for m in found])
    return {k: np.asarray(v) for k, v in cols.items()}


def re2_of(pattern: str) -> str:
    """The shape's regex for RE2: anchored, each group named (pyarrow's extract_regex asks for names), `\\ `
    as a space, the line's newline at its end."""
    n = iter(range(1, 1000))
    named = re.sub(r"(?<!\\)\((?!\?)", lambda _: f"(?P<g{next(n)}>", pattern.replace("\\ ", " "))
    return "^" + named + "\n$"


def arrow_reading(shape, block: bytes) -> dict[str, np.ndarray]:
    import pyarrow as pa
    import pyarrow.compute as pc

    buf = np.frombuffer(block, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    offsets = np.concatenate([[0], ends + 1]).astype(np.int32)  # each line with its newline
    lines = pa.StringArray.from_buffers(len(ends), pa.py_buffer(offsets), pa.py_buffer(block))
    head = shape.literals[0]
    picked = lines.filter(pc.starts_with(lines, head))
    found = pc.extract_regex(picked, re2_of(shape.regex.pattern))
    found = found.filter(found.is_valid())
    out: dict[str, np.ndarray] = {}
    for group, column, _ in shape.plan:
        texts = pc.ascii_trim_whitespace(found.field(group - 1))
        fs = next(f for f in shape.spec.fields.values() if f.column == column)
        if fs.type == "timestamp":
            out[column] = pc.cast(texts, pa.timestamp("us")).cast(pa.int64()).to_numpy() / 1e6
        elif fs.type == "int":
            out[column] = pc.cast(texts, pa.int64()).to_numpy()
        else:
            out[column] = pc.cast(texts, pa.float64()).to_numpy() * fs.scale + fs.offset
    return out


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mib", type=int, default=16, help="the range's size (logparse's ranges are 16 MiB)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mega.log"
        write_log(path, args.mib * 2**20 * 1.1, save_every=8)
        compare(path, args)


def compare(path: Path, args: argparse.Namespace) -> None:
    raw = path.read_bytes()
    start = raw.index(b"\n", len(raw) // 20) + 1  # past the argument dump
    block = raw[start : raw.rindex(b"\n", 0, start + args.mib * 2**20) + 1]
    lines = block.decode().split("\n")[:-1]
    shape, matcher = learned_shape(path, lines)
    ours, theirs = python_reading(shape, lines), arrow_reading(shape, block)
    for column, values in ours.items():
        if column in theirs and not np.array_equal(values, theirs[column]):
            raise SystemExit(f"the two readings differ in {column}")
    n = len(ours["step"])
    chunks._CONTEXT = (matcher, False)
    import pyarrow as pa
    import pyarrow.compute as pc

    steps = [line for line in lines if shape.regex.fullmatch(line)]
    as_arrow = pa.array([line + "\n" for line in steps])
    rx2 = re2_of(shape.regex.pattern)
    rows = [
        (
            "logparse range (the whole worker)",
            timed(lambda: chunks._read_task(chunks.Task(str(path), 0, 0, block, False)), args.repeat),
        ),
        ("python: match + groups + convert", timed(lambda: python_reading(shape, lines), args.repeat)),
        (
            "arrow: offsets, array, prefilter, extract_regex, casts",
            timed(lambda: arrow_reading(shape, block), args.repeat),
        ),
        (
            "  of which, on the step lines alone: python `fullmatch` + `groups`",
            timed(lambda: [shape.regex.fullmatch(x).groups() for x in steps], args.repeat),
        ),
        (
            "  of which, on the step lines alone: arrow `extract_regex` (RE2)",
            timed(lambda: pc.extract_regex(as_arrow, rx2), args.repeat),
        ),
    ]
    print(
        f"{len(block) / 2**20:.0f} MiB range, {len(lines):,} lines, {n:,} step lines of one shape "
        f"({len(shape.plan)} values each); medians of {args.repeat}"
    )
    print("| reading | ms | us per step line |\n|---|---|---|")
    for name, sec in rows:
        print(f"| {name} | {sec * 1000:.0f} | {sec / n * 1e6:.2f} |")


if __name__ == "__main__":
    main()
