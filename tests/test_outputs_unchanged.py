"""The outputs a user keeps do not change when the code is rearranged: for every sample log and
every log fixture under tests/data, summary.json, steps.csv, the index row (index.csv's line) and the text
summary are byte for byte what they were when tests/data/golden/outputs.json.gz was recorded (before the
package was laid out by stage). A change that is meant to change an output records it again, in its own
commit that says why:

    python -m tests.test_outputs_unchanged --record

The summary, index row and text are kept whole (a failure shows the first differing line); steps.csv by its
SHA-256 and row count (whole, the frames would weigh megabytes)."""

from __future__ import annotations

import enum
import gzip
import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "data" / "golden" / "outputs.json.gz"
# analyze's defaults, and the README's command (what MFU needs), on each log
OPTIONS = {"default": {}, "h100x8": {"gpus": 8, "hw": "h100"}}
_NOT_LOGS = (".json", ".csv", ".md", ".py", ".sh", ".yaml", ".toml", ".png", ".j2")


def logs() -> list[Path]:
    found = [p for p in sorted((ROOT / "sample_logs").iterdir()) if p.is_file()]
    # run folders (W&B, HF output dirs, Lightning, TensorBoard) are read as folders: tests/test_runfolders.py
    found += sorted(
        p
        for p in (ROOT / "tests" / "data").rglob("*")
        if p.is_file() and "golden" not in p.parts and "runfolders" not in p.parts
    )
    return [p for p in found if not p.name.endswith(_NOT_LOGS) and not p.name.startswith(".")]


def _shown(text: str) -> str:
    """A text with this checkout's folder as <ROOT>: the outputs name the log's path."""
    return text.replace(str(ROOT), "<ROOT>")


_MADE: dict[tuple[str, str], dict[str, Any]] = {}


def made(path: Path, how: str) -> dict[str, Any]:
    """A case's outputs with its steps.csv's text besides (`steps_csv`), made once a process: the record's
    check here and the text's (tests/test_text_agrees.py) read one analysis; conftest.py runs the two checks
    of a case one after the other, which keeps them on one xdist worker."""
    key = (str(path), how)
    if key not in _MADE:
        _MADE[key] = outputs(path, OPTIONS[how], keep_csv=True)
    return _MADE[key]


def outputs(path: Path, options: dict[str, Any], keep_csv: bool = False) -> dict[str, Any]:
    from logparse import api
    from logparse.batch import engine as batch
    from logparse.core.errors import LogparseError
    from logparse.report import outputs as report

    try:
        analysis = api.analyze(str(path), **options)
    except LogparseError as exc:
        return {"error": _shown(str(exc))}
    steps = io.StringIO()
    report.write_steps(analysis.steps, steps, kind=".csv")
    index = batch.index_frame(
        [{"run": path.stem, "source": str(path), "cached": False, **batch._summary_columns(analysis.summary)}]
    )
    out = {
        "summary": _shown(json.dumps(analysis.summary, indent=2) + "\n"),
        "steps_sha256": hashlib.sha256(steps.getvalue().encode()).hexdigest(),
        "steps_rows": len(analysis.steps),
        "index_row": _shown(index.to_csv(index=False)),
        "text": _shown(_cli_text(analysis)),
    }
    if keep_csv:
        out["steps_csv"] = steps.getvalue()
        out["warnings_made"] = list(analysis.run.warnings)
    return out


def _cli_text(analysis: Any) -> str:
    """The text summary as `logparse analyze` prints it (options named as its flags)."""
    from logparse.core.errors import cli_names
    from logparse.report import outputs as report

    with cli_names():
        return report.text_summary(analysis)


def case_id(path: Path, how: str) -> str:
    return f"{path.relative_to(ROOT)}::{how}"


def _golden() -> dict[str, Any]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as fh:
        return json.load(fh)


CASES = [(p, how) for p in logs() for how in OPTIONS]


def case_params() -> list[Any]:
    """CASES as parameters, each named by its case_id (conftest.py pairs the checks of a case by it)."""
    return [pytest.param(p, how, id=case_id(p, how)) for p, how in CASES]


def test_the_golden_record_covers_every_log():
    recorded = set(_golden())
    assert recorded == {case_id(p, how) for p, how in CASES}, "a log was added or removed: record again"


def _first_difference(got: str, want: str) -> str:
    for i, (g, w) in enumerate(zip(got.splitlines(), want.splitlines(), strict=False), 1):
        if g != w:
            return f"line {i}: got {g!r}, recorded {w!r}"
    return f"lengths differ: {len(got.splitlines())} lines, recorded {len(want.splitlines())}"


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    return _golden()


@pytest.mark.parametrize("path,how", case_params())
def test_outputs_are_byte_identical_to_the_record(path, how, golden):
    want = golden[case_id(path, how)]
    case = made(path, how)
    got = {k: v for k, v in case.items() if k not in ("steps_csv", "warnings_made")}
    assert set(got) == set(want)
    for key in want:
        if got[key] != want[key]:
            detail = _first_difference(got[key], want[key]) if isinstance(want[key], str) else ""
            raise AssertionError(f"{key} changed: {detail or f'{got[key]!r} != {want[key]!r}'}")
    if "summary" in case:
        _warnings_are_coded_records(path, case["warnings_made"], json.loads(case["summary"])["warnings"])


def _warnings_are_coded_records(path: Path, made: list[Any], written: list[str]) -> None:
    """No warning is a bare str, every code is documented, and summary.json's list is the same records, written
    as their text."""
    from logparse.core.warnings import CODES, RunWarning

    for w in made:
        assert isinstance(w, RunWarning), f"{path.name}: a bare str warning: {w!r}"
        assert w.code in CODES, f"{path.name}: {w!r}"
    assert written == [_shown(str(w)) for w in made]


def record() -> None:
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    everything = {case_id(p, how): outputs(p, OPTIONS[how]) for p, how in CASES}
    with gzip.open(GOLDEN, "wt", encoding="utf-8", compresslevel=9) as fh:
        json.dump(everything, fh, indent=0, sort_keys=True)
    print(f"{GOLDEN}: {len(everything)} cases")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(__doc__)
    record()


def test_the_outputs_do_not_depend_on_the_hash_seed():
    """A set's order changes with PYTHONHASHSEED: the NaN warnings of a log with a NaN loss and grad norm
    came out loss-first in one process and grad_norm-first in another (found by the record above)."""
    import subprocess

    log = ROOT / "tests" / "data" / "public" / "llmc_anthonix_issue2_nan.log"
    code = (
        "import json, sys; from tests.test_outputs_unchanged import outputs; from pathlib import Path; "
        f"print(json.dumps(outputs(Path({str(log)!r}), {{}})))"
    )
    seen = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        env = {**__import__("os").environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        seen.add(done.stdout)
    assert len(seen) == 1


class _Phase(str, enum.Enum):
    STABLE = "stable"
    WARMUP = "warmup"


@pytest.mark.parametrize("n", [300, 6000])
def test_the_csv_writer_writes_what_pandas_writes(tmp_path, n):
    """steps.csv is written column by column (outputs._write_csv), as DataFrame.to_csv(index=False,
    float_format="%.12g") wrote it: on a frame of every kind of column a step frame holds, with missing values,
    infinities, text that needs quoting, and a gzipped file; a long one has columns whose first rows are all
    distinct and the rest one value (not factorized first), and is written again with a text past ASCII (the
    rows then joined in Python)."""
    import numpy as np
    import pandas as pd

    from logparse.report import outputs

    rng = np.random.default_rng(7)
    floats = rng.standard_normal(n) * 10.0 ** rng.integers(-9, 15, n)
    floats[::17] = np.nan
    floats[5], floats[6], floats[7], floats[8] = np.inf, -np.inf, 0.0, -0.0
    frame = pd.DataFrame(
        {
            "step": np.arange(1, n + 1),
            "loss": floats,
            "lr6": np.round(rng.random(n), 6),
            "f32": rng.random(n).astype(np.float32).astype(float),
            "count": pd.array([None if i % 5 == 0 else i for i in range(n)], dtype="Int64"),
            "flag": rng.random(n) > 0.5,
            "note": [
                None if i % 3 == 0 else ["a,b", 'say "x"', "plain", "line\nbreak", " lead"][i % 5]
                for i in range(n)
            ],
            "kind": pd.array(["step"] * (n - 1) + [None], dtype="str"),
            "obj": [1, 2.5, "x", None] * (n // 4),
            # columns of few distinct values (written through them): 1, 1.0 and True are one key to factorize
            "few": [1, 1.0, True, "a,b"] * (n // 4),
            "zeros": [0.0, -0.0, 1.5] * (n // 3),
            "lr": np.repeat([1e-4, 3e-4, np.nan], n // 3),
            "name": pd.array(["m.iteration", None, 'q"x'] * (n // 3), dtype="str"),
            "ints": np.repeat([7, -3], n // 2),
            # distinct integers (written through Arrow's text), the extremes of int64 and uint64 among them
            "distinct": np.r_[
                rng.integers(-(2**62), 2**62, n - 2), np.iinfo(np.int64).min, np.iinfo(np.int64).max
            ],
            "unsigned": np.r_[rng.integers(0, 2**62, n - 1, dtype=np.uint64), np.iinfo(np.uint64).max],
            # text that needs no quotes, written as it is: ISO stamps with gaps, a str enum (steps' phase)
            "stamp": [
                None if i % 7 == 0 else f"2024-09-03T15:{i % 60:02d}:49.000000+00:00" for i in range(n)
            ],
            "phase": [_Phase.STABLE if i % 2 else _Phase.WARMUP for i in range(n)],
            "late_few": np.r_[rng.random(min(n, 2000)), np.full(n - min(n, 2000), 0.25)],
            "late_ints": np.r_[np.arange(min(n, 2000)), np.full(n - min(n, 2000), 9)],
        }
    )
    frames = [frame]
    if n > 1024:
        frames.append(frame.assign(note=frame["note"].where(frame.index % 11 != 0, "caf\u00e9")))
    for frame, gz in [(f, gz) for f in frames for gz in (False, True)]:
        mine = io.BytesIO()
        path = tmp_path / ("s.csv.gz" if gz else "s.csv")
        outputs._write_csv(frame, path, gzipped=gz)
        got = gzip.decompress(path.read_bytes()) if gz else path.read_bytes()
        frame.to_csv(mine, index=False, float_format=outputs.CSV_DIGITS)
        assert got == mine.getvalue()
    # columns of one value (written as one field per run of them): first, between, last, all of them, and one
    # whose one value is missing in a row (not one value then)
    one = pd.DataFrame(
        {
            "gbs": [128] * n,
            "pattern": pd.array(["megatron.iteration"] * n, dtype="str"),
            "step": np.arange(n),
            "zero": [0.0] * n,
            "quoted": ["a,b"] * n,
            "loss": floats,
            "gap": [1.5] * (n - 1) + [np.nan],
            "run": [0] * n,
            "last": ["x"] * n,
        }
    )
    for part in (
        one,
        one[["gbs", "pattern", "zero", "run"]],
        one[["step", "run", "last"]],
        one[["gap", "gbs"]],
    ):
        mine = io.BytesIO()
        outputs._write_csv(part, tmp_path / "one.csv", gzipped=False)
        part.to_csv(mine, index=False, float_format=outputs.CSV_DIGITS)
        assert (tmp_path / "one.csv").read_bytes() == mine.getvalue()


def test_iso_stamps_are_numpys_text_with_the_offset():
    """steps.csv's timestamps are put together digit pair by digit pair (outputs._iso_digits); numpy's own
    formatter is the reference: leap days, the ends of the range it takes, microseconds, NaT kept missing."""
    import numpy as np
    import pandas as pd

    from logparse.report import outputs

    rng = np.random.default_rng(3)
    top = np.datetime64("9999-12-31T23:59:59.999999", "us").astype(np.int64)
    picked = ["1970-01-01T00:00:00", "2000-02-29T23:59:59.999999", "2024-12-31T00:00:00.000001", "2100-03-01"]
    micros = np.r_[
        rng.integers(0, top, 20_000), top, [np.datetime64(p, "us").astype(np.int64) for p in picked]
    ].astype("datetime64[us]")
    want = [f"{t}+00:00" for t in np.datetime_as_string(micros, unit="us")]
    assert outputs._iso_digits(micros) == want
    assert (
        outputs._iso_digits(np.array(["1969-12-31T23:59:59"], dtype="datetime64[us]")) is None
    )  # numpy's then
    stamps = pd.Series(pd.to_datetime(micros[:4].astype(np.int64), unit="us", utc=True))
    stamps.iloc[1] = pd.NaT
    assert outputs._iso_utc(stamps).tolist() == [want[0], None, want[2], want[3]]
    before = pd.Series(pd.to_datetime([-1_000_000, 0], unit="us", utc=True))  # before 1970: numpy's text
    assert outputs._iso_utc(before).tolist() == [
        "1969-12-31T23:59:59.000000+00:00",
        "1970-01-01T00:00:00.000000+00:00",
    ]


def test_stamps_in_steps_csv_are_iso_text_with_the_offset_either_way(tmp_path):
    """steps.csv's timestamps are written by _native.rows from microseconds, or (a row with a text past ASCII: the
    rows joined in Python) from _iso_utc's texts: the same field either way, numpy's ISO text with +00:00, a
    missing stamp empty; 1969 (outside the native range) written by numpy too."""
    import numpy as np
    import pandas as pd

    from logparse.report import outputs

    micros = np.array(
        [
            "2024-09-03T15:40:00.250000",
            "NaT",
            "1970-01-01T00:00:00",
            "9999-12-31T23:59:59.999999",
            "1969-12-31T23:59:58.5",
        ]
        * 1200,
        dtype="datetime64[us]",
    )
    stamps = pd.Series(micros).dt.tz_localize("UTC")
    want = ["" if np.isnat(m) else np.datetime_as_string(m, unit="us") + "+00:00" for m in micros]
    for note in ("plain", "caf\u00e9"):
        for part in (slice(0, 4), slice(None)):  # (without 1969: the native stamps; with it: numpy's)
            frame = pd.DataFrame({"step": np.arange(len(micros)), "timestamp": stamps, "note": note}).iloc[
                part
            ]
            outputs.write_steps(frame, tmp_path / "s.csv")
            lines = (tmp_path / "s.csv").read_text(encoding="utf-8").splitlines()
            assert lines[0] == "step,timestamp,note"
            assert [line.split(",")[1] for line in lines[1:]] == want[part]
