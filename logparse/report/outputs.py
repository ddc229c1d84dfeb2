"""Report: summary.json, steps.csv, report.png and the short text summary a person reads first."""

from __future__ import annotations

import gzip
import json
import math
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..core import jsontext
from ..core.atomic import remove_leftovers, staged, temp_name
from ..core.errors import LogparseError
from ..core.facts import Fact
from ..core.summary_types import (
    AveragesPart,
    EtaPart,
    FactPart,
    FlopsPart,
    FlopsStatedPart,
    FlopsTermsPart,
    FolderPart,
    GenericPart,
    HardwarePart,
    KeyPart,
    ModelPart,
    NearEventPart,
    RanksPart,
    RegimePart,
    ReportedPart,
    SamplesPart,
    ShiftPart,
    StablePart,
    StepsPart,
    Summary,
)
from ..frame import fastlane
from ..patterns import keymap
from ..phases.phases import Phases
from ..phases.status import run_status
from ..phases.window import stats as window_stats
from ..phases.window import weighted_mean
from ..specs.formulas import HFU_CONVENTION
from ..steps.run import Run
from ..utilization.mfu import SAMPLES, StatedFlops, Utilization, seconds_to_train
from .analysis import Findings, public_steps
from .drawing import Child, Drawer, apart, may_fork
from .gather import report_data
from .ledger import goodput_part, ledger_lines
from .thumbnail import THUMB_NAME
from .unknowns import GPUS, unknowns
from .whole_run import text_lines as whole_run_lines
from .whole_run import whole_run


def _num(x: Any, digits: int = 6) -> Any:
    """JSON-safe number: None for NaN/inf/unknown, rounded floats, plain ints."""
    if x is None:
        return None
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        return x
    if not math.isfinite(v):
        return None
    return float(f"{v:.{digits}g}")


CSV_PRECISION = 12  # digits: enough for what logs print; drops representation noise (18.000700000000002)
CSV_DIGITS = f"%.{CSV_PRECISION}g"
_SAMPLE = 2000  # values looked at per column to decide how it is written


def _needs_all_digits(values: pd.Series) -> bool:
    """Whether a float column holds printed values longer than CSV_DIGITS keeps: a float32 printed in full
    by Python's repr (torchtune's loss `5.674245357513428`, its tokens/s `4931.62744140625`). A value that
    does not survive 12 digits and is no float32 is arithmetic (a derived tokens/s) or representation noise
    (18.000700000000002), and 12 digits say all it means."""
    finite = values[np.isfinite(values.to_numpy(dtype=float, na_value=np.nan))]
    if finite.empty:
        return False
    step = max(1, len(finite) // _SAMPLE)
    sample = finite.iloc[::step].to_numpy(dtype=float)
    return any(float(CSV_DIGITS % v) != v and float(np.float32(v)) == v for v in sample.tolist())


def csv_ready(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame as the CSV writers write it with CSV_DIGITS: a float column whose printed values need more
    digits is written in full (Python's shortest repr) instead."""
    full = [c for c in frame.columns if frame[c].dtype.kind == "f" and _needs_all_digits(frame[c])]
    if not full:
        return frame
    return frame.assign(**{c: frame[c].map(lambda v: "" if pd.isna(v) else repr(float(v))) for c in full})


STEPS_KINDS = (".csv", ".parquet", ".jsonl", ".ndjson", ".csv.gz", ".jsonl.gz", ".ndjson.gz")


def steps_kind(path: Any) -> str:
    """The kind a step file's name asks for (`.csv`, `.jsonl.gz`, ...); LogparseError naming the kinds
    written when it asks for none of them."""
    name = str(path).lower()
    kind = next((k for k in sorted(STEPS_KINDS, key=len, reverse=True) if name.endswith(k)), None)
    if kind is None:
        suffix = "".join(Path(name).suffixes) or "(none)"
        raise LogparseError(
            f"{path}: unknown output type {suffix}; use .csv, .parquet or .jsonl (.csv.gz, .jsonl.gz: gzipped)"
        )
    return kind


def check_steps_path(path: Any) -> None:
    """A step file that can be written: a known kind, in a folder that exists, not itself a folder
    (checked before anything else is written)."""
    steps_kind(path)
    target = Path(path)
    if target.is_dir():
        raise LogparseError(f"{path}: is a folder; -o takes a file name (steps.csv)")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise LogparseError(f"{path}: the folder {folder} does not exist")


def _iso_utc(stamps: pd.Series) -> pd.Series:
    """Timestamps as ISO 8601 text with their offset (`2024-09-03T15:54:07.000000+00:00`), in UTC as the
    frame holds them; NaT stays missing."""
    naive = stamps.dt.tz_convert("UTC").dt.tz_localize(None) if stamps.dt.tz is not None else stamps
    micros = naive.to_numpy(dtype="datetime64[us]")
    # numpy's formatter, not strftime (2.1 of 8.8 s writing a 2.5 M-row steps.csv; the same text), a
    # slice at a time: its fixed-width text is 104 bytes a row, 260 MB at once for 2.5 M rows
    text = np.empty(len(micros), dtype=object)
    missing = stamps.isna().to_numpy()
    for at in range(0, len(micros), CSV_ROWS):
        part = micros[at : at + CSV_ROWS]
        fast = _iso_digits(np.where(missing[at : at + CSV_ROWS], np.datetime64(0, "us"), part))
        if fast is not None:
            text[at : at + CSV_ROWS] = fast
        else:
            text[at : at + CSV_ROWS] = np.datetime_as_string(part, unit="us").astype(object) + "+00:00"
    text[missing] = None
    return pd.Series(text, index=stamps.index, dtype=object)


_ISO_WIDTH = len("2024-09-03T15:54:07.000000+00:00")
# "00" to "99" as one uint16 each (the two ASCII digits in memory order)
_DIGIT_PAIRS = np.frombuffer("".join(f"{i:02d}" for i in range(100)).encode(), dtype=np.uint16)


def _iso_digits(micros: np.ndarray) -> list[str] | None:
    """`np.datetime_as_string(micros, unit="us")` + "+00:00", its digits put in place two at a time (numpy's
    formatter costs ~0.5 us a value, 1.2 s of a 2.4 M-row steps.csv); None outside 1970-9999 (numpy's text then)."""
    if not len(micros):
        return []
    us = micros.astype(np.int64)
    if us.min() < 0 or micros.max() >= np.datetime64("10000-01-01", "us"):
        return None
    days = micros.astype("datetime64[D]")
    months = micros.astype("datetime64[M]")
    year = micros.astype("datetime64[Y]").astype(np.int64) + 1970
    month = months.astype(np.int64) - (year - 1970) * 12 + 1
    day = (days - months.astype("datetime64[D]")).astype(np.int64) + 1
    of_day = us - days.astype("datetime64[us]").astype(np.int64)
    second, frac = of_day // 1_000_000, of_day % 1_000_000
    # a row: the text and a newline (33 bytes), seen as uint16 pairs from byte 0 (even places) and from byte 1
    out = np.empty((len(us), _ISO_WIDTH + 1), dtype=np.uint8)
    even, odd = out[:, :-1].view(np.uint16), out[:, 1:].view(np.uint16)
    for at, value in (
        (0, year // 100),
        (2, year % 100),
        (5, month),
        (8, day),
        (11, second // 3600),
        (14, second // 60 % 60),
        (17, second % 60),
        (20, frac // 10_000),
        (22, frac // 100 % 100),
        (24, frac % 100),
    ):
        (even if at % 2 == 0 else odd)[:, at // 2] = _DIGIT_PAIRS[value]
    for at, mark in ((4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (26, "+00:00\n")):
        out[:, at : at + len(mark)] = np.frombuffer(mark.encode(), dtype=np.uint8)
    return out.tobytes().decode("ascii").split("\n")[:-1]


def _json_values(frame: pd.DataFrame) -> dict[str, list[Any]]:
    """Each column as JSON values written the way the CSV writes them: floats to CSV_DIGITS significant
    digits (84.396900000000002 -> 84.3969) or in full where the log printed more (csv_ready), timestamps as
    ISO text with the offset, missing values null."""
    out: dict[str, list[Any]] = {}
    for col in frame.columns:
        values = frame[col]
        if col == "timestamp" or isinstance(values.dtype, pd.DatetimeTZDtype) or values.dtype.kind == "M":
            out[col] = _iso_utc(values).tolist()
            continue
        if values.dtype.kind == "f":
            full = _needs_all_digits(values)
            out[col] = [
                None if not math.isfinite(v) else (v if full else float(CSV_DIGITS % v))
                for v in values.to_numpy(dtype=float, na_value=np.nan).tolist()
            ]
            continue
        items = values.astype(object).tolist()
        out[col] = [
            None if (v is None or (isinstance(v, float) and v != v) or v is pd.NA) else v for v in items
        ]
        if values.dtype.kind in "iu":
            out[col] = [None if v is None else int(v) for v in out[col]]
        elif values.dtype.kind == "b":
            out[col] = [None if v is None else bool(v) for v in out[col]]
    return out


def _write_jsonl(frame: pd.DataFrame, path: Any, gzipped: bool) -> None:
    columns = _json_values(frame)
    names = list(columns)
    opener = gzip.open if gzipped else open
    with opener(path, "wt", encoding="utf-8") as fh:
        for row in zip(*columns.values(), strict=True):
            fh.write(
                json.dumps(
                    dict(zip(names, row, strict=True)), ensure_ascii=False, separators=(",", ":"), default=str
                )
                + "\n"
            )


def write_steps(frame: pd.DataFrame, path: Any, kind: str | None = None, split: bool = True) -> None:
    """A public step frame to FILE.csv, FILE.parquet or FILE.jsonl (FILE.csv.gz, FILE.jsonl.gz: gzipped).
    CSV and JSONL: timestamps as ISO text in UTC with their offset (+00:00), floats to 12 significant digits
    (no representation noise like 18.000700000000002), or in full where a log printed more (csv_ready),
    integer columns as integers. `split`: a long CSV's second half may be made text by a forked process."""
    suffix = kind or steps_kind(path)
    if suffix in (".csv", ".csv.gz"):
        stamps = ("timestamp",) if "timestamp" in frame else ()  # (ISO text with the offset: _stamp_texts)
        _write_csv(csv_ready(frame), path, gzipped=suffix == ".csv.gz", split=split, stamps=stamps)
    elif suffix == ".parquet":
        frame.to_parquet(path, index=False)
    else:
        _write_jsonl(frame, path, gzipped=suffix.endswith(".gz"))


def write_csv(frame: pd.DataFrame, path: Any, gzipped: bool = False) -> None:
    """A table (steps.csv, compare's table) as CSV: floats to CSV_DIGITS, or in full where a log printed
    more (csv_ready)."""
    _write_csv(csv_ready(frame), path, gzipped)


def _write_csv(
    frame: pd.DataFrame, path: Any, gzipped: bool, split: bool = True, stamps: tuple[str, ...] = ()
) -> None:
    """The frame as `DataFrame.to_csv(index=False, float_format=CSV_DIGITS)` writes it, byte for byte, in half
    its time: CSV_ROWS rows at a time, each column made text at once (floats through CSV_DIGITS, missing values
    empty, text quoted as the csv module quotes it under pandas' settings, pandas.io.formats.csvs:
    QUOTE_MINIMAL, `"`, lines ending in a newline), then the rows joined. A 227,000-row frame: 3.2 s ->
    0.9 s."""
    head = ",".join(_csv_field(name) for name in frame.columns) + "\n"
    if hasattr(path, "write"):  # an open text stream (standard output)
        _csv_body(path, frame, head, stamps)
        return
    opener = gzip.open if gzipped else open
    half = len(frame) // 2
    part = Path(path).with_name(f".{Path(path).stem}-rest.{os.getpid()}.tmp.csv")
    halves = split and not gzipped and len(frame) >= CSV_SPLIT_ROWS
    rest = apart(_csv_rows, frame.iloc[half:], part, stamps) if halves else None
    try:
        with opener(path, "wt", encoding="utf-8", newline="") as fh:
            _csv_body(fh, frame if rest is None else frame.iloc[:half], head, stamps)
        if rest is not None:
            waiting, rest = rest, None
            waiting()  # (the second half's process: its error raised here)
            _append(path, part)
    finally:
        if rest is not None:  # this half failed: the other is waited for, its error (if any) dropped
            try:
                rest()
            except Exception:  # noqa: BLE001, S110 - this process's error is the one raised
                pass
        part.unlink(missing_ok=True)


# A frame this long or longer has its second half made text by a forked process while this one writes the first
# (formatting is a core's work: 8-11 s of a 2.4 M-row analyze), then appended; the bytes are the same. Shorter
# ones are not worth it: `analyze` draws the report in a forked process meanwhile (DRAW_APART_ROWS), which takes
# the other core for about as long as a few hundred thousand rows' text (227 k rows: paired 1.04, no gain;
# 2.4 M rows: 0.92).
CSV_SPLIT_ROWS = 500_000


def _csv_rows(frame: pd.DataFrame, part: Path, stamps: tuple[str, ...]) -> None:
    """The rows of `frame` as _csv_body writes them, without the header, to `part`."""
    with open(part, "w", encoding="utf-8", newline="") as fh:
        _csv_body(fh, frame, "", stamps)


def _append(path: Any, part: Path) -> None:
    """The bytes of `part` after those of `path`."""
    with open(path, "ab") as out, open(part, "rb") as src:
        shutil.copyfileobj(src, out, 1 << 20)


CSV_ROWS = 50_000  # rows made text at a time: a few hundred MB of strings for a frame of millions, else


def _csv_body(fh: Any, frame: pd.DataFrame, head: str, stamps: tuple[str, ...] = ()) -> None:
    """`frame`'s rows as CSV after `head`; the `stamps` columns (datetimes) as ISO text with the offset."""
    fh.write(head)
    stamped = {i for i, name in enumerate(frame.columns) if name in stamps}
    one = frame.shape[1] == 1
    native = fastlane.native_module()
    distinct = {i for i in range(frame.shape[1]) if _all_distinct(frame.iloc[:, i])}
    for at in range(0, len(frame), CSV_ROWS):
        if one:  # one field a row: an empty one is written "" (the csv module's rule)
            column = frame.iloc[at : at + CSV_ROWS, 0]
            texts = _stamp_texts(column, False) if stamped else _csv_texts(column)
            fh.write("".join(('""' if v == "" else v) + "\n" for v in texts))
            continue
        part = frame.iloc[at : at + CSV_ROWS]
        columns = [
            _stamp_texts(part.iloc[:, i], native is not None)
            if i in stamped
            else _csv_texts(part.iloc[:, i], whole=True, numbers=native is not None, few=i not in distinct)
            for i in range(frame.shape[1])
        ]
        # a run of columns that hold one text in every row is one field, its texts joined once (a step frame's
        # constants: batch size, pattern, run...); a run at the end goes with the line's end
        fields: list[Any] = []
        same: list[str] = []
        for texts in columns:
            if isinstance(texts, str):
                same.append(texts)
                continue
            if same:
                fields.append([",".join(same)] * len(part))
                same = []
            fields.append(texts)
        if not fields:
            fh.write((",".join(same) + "\n") * len(part))
            continue
        end = "".join("," + text for text in same) + "\n"
        joined = native.rows(fields, end) if native is not None else None  # (None: a text past ASCII)
        if joined is None:
            texts = [_number_texts(*field) if isinstance(field, tuple) else field for field in fields]
            joined = "".join(line + end for line in map(",".join, zip(*texts, strict=True)))
        fh.write(joined)


def _csv_texts(values: pd.Series, whole: bool = False, numbers: bool = False, few: bool = True) -> Any:
    """One column's values as the CSV writes them. A column of few distinct values (a pattern's name, a
    learning rate held for thousands of steps) is written through its distinct values, each made text once;
    `whole`: a column of one value in every row as that one text (a str, not a list). `numbers`: a column of
    float64 or int64 values (no missing int) may come back as the numbers themselves, ("f", values, CSV_PRECISION)
    or ("i", values), which _native.rows writes as _number_texts would (a float column, unless it holds one
    value, then goes to it whole: rows keeps the texts it made the slow way, by the float's bits). `few`: False
    for a column known to have as many values as rows (_all_distinct: not factorized for nothing)."""
    if numbers and few and values.dtype == np.float64:
        bits = values.to_numpy().view(np.int64)
        few = bool(len(bits)) and bool((bits == bits[0]).all())  # (one value: written as one text)
    if few and _distinct_is_exact(values):
        codes, uniques = pd.factorize(values, use_na_sentinel=True)
        if whole and len(uniques) == 1 and len(values) and codes.min() == 0:
            return _csv_texts(pd.Series(uniques, dtype=values.dtype))[0]
        if len(uniques) * 4 < len(values):
            texts = np.array([*_csv_texts(pd.Series(uniques, dtype=values.dtype)), ""], dtype=object)
            return texts[codes].tolist()  # code -1 (missing) takes the last: ""
    if values.dtype.kind == "f":
        array = values.to_numpy()
        if numbers and array.dtype == np.float64:
            return ("f", np.ascontiguousarray(array), CSV_PRECISION)
        return _float_texts(array)
    if values.dtype.kind in "iu" and not values.hasnans:
        array = values.to_numpy()
        if numbers and array.dtype == np.int64:
            return ("i", np.ascontiguousarray(array))
        return _int_texts(array)
    if values.dtype.kind == "b" and not values.hasnans:
        return list(map(str, values.to_numpy().tolist()))
    missing = values.isna().to_numpy()
    items = values.astype(object).tolist()
    if missing.any():
        items = ["" if gone else v for v, gone in zip(items, missing, strict=True)]
    if pd.api.types.infer_dtype(items, skipna=False) == "string" and not _needs_quotes("\x00".join(items)):
        # text that needs no quotes (ISO timestamps; phases, a str enum written as its str): as it is
        return items
    return [_csv_field(v) if not gone else "" for v, gone in zip(items, missing, strict=True)]


_LOOK = 4096  # rows of a column looked at to tell whether its values are all different


def _all_distinct(values: pd.Series) -> bool:
    """Whether a long column's first _LOOK values are all different (a step counter, a line number, a loss):
    written value by value, not through its distinct values."""
    return len(values) > _LOOK and len(pd.unique(values.iloc[:_LOOK])) == _LOOK


def _int_texts(values: np.ndarray) -> list[str]:
    import pyarrow as pa  # (Arrow's decimal text of an integer is str()'s, in a third less time)

    return pa.array(values).cast(pa.string()).to_numpy(zero_copy_only=False).tolist()


def _number_texts(kind: str, values: np.ndarray, *_: int) -> list[str]:
    """The texts _native.rows makes of a number column _csv_texts or _stamp_texts gave as numbers."""
    if kind == "t":
        return _iso_texts(pd.Series(values.astype("datetime64[us]")))  # (int64's least is NaT)
    return _float_texts(values) if kind == "f" else _int_texts(values)


def _stamp_texts(stamps: pd.Series, numbers: bool) -> Any:
    """A datetime column as ISO text with its offset (_iso_utc), missing ones empty; `numbers`: as microseconds,
    ("t", values), which _native.rows writes so, where every stamp is in 1970-9999 (else the texts)."""
    if numbers and (isinstance(stamps.dtype, pd.DatetimeTZDtype) or stamps.dtype.kind == "M"):
        naive = stamps.dt.tz_convert("UTC").dt.tz_localize(None) if stamps.dt.tz is not None else stamps
        micros = naive.to_numpy(dtype="datetime64[us]").view(np.int64)
        known = micros[micros != np.iinfo(np.int64).min]
        if not len(known) or (known.min() >= 0 and known.max() < _US_END):
            return ("t", np.ascontiguousarray(micros))
    return _iso_texts(stamps)


def _iso_texts(stamps: pd.Series) -> list[str]:
    """_iso_utc's text of each stamp, "" for a missing one."""
    return [v or "" for v in _iso_utc(stamps).tolist()]


_US_END = int(np.datetime64("10000-01-01", "us").astype(np.int64))


def _float_texts(values: np.ndarray) -> list[str]:
    """CSV_DIGITS of each float, "" for NaN: in the C extension (logparse/frame/_native.c `texts`: a loop over
    PyOS_double_to_string, the function `%` formatting calls; 0.17 against 0.29 us a value) where it is built."""
    native = fastlane.native_module()
    if native is not None and values.dtype.itemsize <= 8:  # (a float of 64 bits or fewer: a double holds it)
        return native.texts(np.ascontiguousarray(values, dtype=np.float64), CSV_PRECISION)
    return ["" if v != v else CSV_DIGITS % v for v in values.tolist()]


def _needs_quotes(text: str) -> bool:
    """Whether the csv module quotes `text` as a field under QUOTE_MINIMAL (a search per character, each fast)."""
    return "," in text or '"' in text or "\n" in text or "\r" in text


def _distinct_is_exact(values: pd.Series) -> bool:
    """Whether values that factorize as one are written alike: not in an object column of mixed values (1, 1.0
    and True are one key there; one of texts and missing values is exact: the phases) and not a float column
    holding -0.0 (one key with 0.0, written `-0`)."""
    if isinstance(values.dtype, pd.StringDtype):
        return True
    kind = values.dtype.kind
    if kind == "O":
        return pd.api.types.infer_dtype(values, skipna=True) in ("string", "empty")
    if kind == "f":
        v = values.to_numpy()
        return not bool((np.signbit(v) & (v == 0)).any())
    return kind in "iub"


def _csv_field(value: Any) -> str:
    """A value as the csv module writes it under QUOTE_MINIMAL: quoted, its quotes doubled, when it holds the
    delimiter, a quote or a line break."""
    text = value if isinstance(value, str) else str(value)
    if _needs_quotes(text):
        return '"' + text.replace('"', '""') + '"'
    return text


# the averages _window_stats gives a window of rows (summary["stable"], each of summary["regimes"]), in order
WINDOW_FIGURES = (
    "mfu_mean",
    "mfu_median",
    "hfu_mean",
    "tokens_per_s",
    "tokens_per_s_per_gpu",
    "step_time_s",
    "tflops_per_gpu",
    "samples_per_s",
)


def _window_stats(rows: pd.DataFrame, run: Run, util: Utilization) -> AveragesPart | None:
    """Time-weighted averages over some rows (total tokens / total time), None when there are none. Each
    log row weighs the time it stands for: its step time x the steps it covers (step_span), or, when a row
    has no step time, the steps it covers. (The peer-style window, phases.window.stats, weighs each logged
    row by its step time alone, when all are known and positive, else not at all; and means step time
    plainly: it averages the way the peers it mirrors do.) TFLOP/s, MFU and HFU follow from the mean
    throughput per GPU."""
    if rows.empty:
        return None
    span = rows["step_span"].astype(float)
    has_time = "step_time_s" in rows and rows["step_time_s"].notna().all()
    time = rows["step_time_s"] * span if has_time else None
    gpus = run.value("gpus")

    def weighted(col: str) -> float | None:
        return _weighted(rows, col)

    tokens_per_s = weighted("tokens_per_s")
    per_gpu = tokens_per_s / gpus if (tokens_per_s is not None and gpus) else weighted("tokens_per_s_per_gpu")
    tflops, mfu, hfu = util.figures(per_gpu, weighted("samples_per_s_per_gpu"))
    figures = (
        mfu,
        rows["mfu"].median() if "mfu" in rows and rows["mfu"].notna().any() else None,
        hfu,
        tokens_per_s,
        per_gpu,
        float(time.sum() / span.sum()) if time is not None else None,
        tflops,
        weighted("samples_per_s"),
    )
    return {
        "start_step": int(rows["step"].iloc[0]),
        "end_step": int(rows["step"].iloc[-1]),
        "steps": int(span.sum()),
        "log_rows": len(rows),
        **{k: _num(v) for k, v in zip(WINDOW_FIGURES, figures, strict=True)},
        "averaging": "time-weighted over the window (total tokens / total time)"
        if has_time
        else "mean of log rows",
    }


def _weighted(rows: pd.DataFrame, col: str) -> float | None:
    """A column's mean over rows as _window_stats weighs them: each row by the time it stands for (its step time
    x the steps it covers), or by the steps it covers when a row has no step time; None when none has a value."""
    if col not in rows or rows[col].isna().all():
        return None
    span = rows["step_span"].astype(float)
    has_time = "step_time_s" in rows and rows["step_time_s"].notna().all()
    return weighted_mean(rows[col], rows["step_time_s"] * span if has_time else span)


# the columns _window_stats and diagnose read of the rows they average (a step frame's others are not copied
# with the rows: 2.4 M rows of 27 columns, a tenth of a second each time)
_AVERAGED = (
    "step", "step_span", "step_time_s", "tokens_per_s", "tokens_per_s_per_gpu", "mfu", "samples_per_s",
    "samples_per_s_per_gpu", "flags",
)  # fmt: skip


def _averaged(steps: pd.DataFrame) -> pd.DataFrame:
    return steps[[c for c in _AVERAGED if c in steps]]


def _stable_stats(run: Run, util: Utilization, phases: Phases) -> StablePart:
    """summary["stable"]: the stable window's averages (_window_stats), or when there is none its
    figures all null and no steps (keys in the order summary.json has them), then which regime it is."""
    stats = _window_stats(phases.stable_rows(_averaged(run.steps)), run, util)
    if stats is None:
        stats = dict.fromkeys(("start_step", "end_step", *WINDOW_FIGURES))
        stats.update(steps=0, log_rows=0)
    stats["regime"] = phases.stable_regime
    stats["regimes_in_run"] = len(phases.regimes)
    stats["rule"] = phases.rule
    return stats


def _regimes(run: Run, util: Utilization, phases: Phases) -> list[RegimePart]:
    """Each regime: its steps, and its averages over its steady rows (warmup and dips excluded)."""
    out = []
    steps = run.steps
    steady = (steps["phase"] == "stable").to_numpy(dtype=bool) if len(phases.regimes) else None
    for i, r in enumerate(phases.regimes):
        rows = _averaged(steps)[(steps["regime"] == i).fillna(False).to_numpy(dtype=bool) & steady]
        st = _window_stats(rows, run, util) or {}
        out.append(
            {
                "start_step": r.start_step,
                "end_step": r.end_step,
                "log_rows": r.rows,
                "mfu_median": st.get("mfu_median"),
                "mfu_mean": st.get("mfu_mean"),
                "tokens_per_s": st.get("tokens_per_s"),
                "step_time_s": st.get("step_time_s"),
                "wall_s": _num(r.wall_s),
                "noise": _num(r.noise, 4),
                "stable": i == phases.stable_regime,
            }
        )
    return out


def _shifts(phases: Phases, regimes: list[RegimePart]) -> list[ShiftPart]:
    return [
        {
            "at_step": sh.at_step,
            "line": sh.line,
            "mfu_before": regimes[sh.before]["mfu_median"],
            "mfu_after": regimes[sh.after]["mfu_median"],
            "change": _num(sh.change, 4),
            "near_events": sh.near_events,
        }
        for sh in phases.shifts
    ]


def _rounded(obj: Any, digits: int = 6) -> Any:
    if isinstance(obj, dict):
        return {k: _rounded(v, digits) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rounded(v, digits) for v in obj]
    if isinstance(obj, float):
        return _num(obj, digits)
    return obj


# The peer-style window is what a peer tool's own figure is checked against (tests/test_peers.py, to 1e-9), so
# it keeps 12 significant digits, as steps.csv writes a value: no float noise (84.396900000000002), and a mean
# of 1,398,101 tokens/s stays 1,398,101 (six digits would print 1,398,100 beside the peer's 1,398,101)
WINDOW_DIGITS = 12


def diagnose(run: Run, util: Utilization, phases: Phases, stable: StablePart) -> list[str]:
    """Symptom-table findings (domain.md) that the numbers support."""
    found: list[str] = []
    mfu = stable.get("mfu_mean")
    if mfu is not None and mfu < 0.20 and (phases.noise or 0) < 0.05:
        found.append(
            f"stable MFU is {mfu:.1%} with a steady step time: look at data loading and padding (pack "
            "sequences), or a batch too small to fill the GPU"
        )
    dips = phases.dips
    if len(dips) >= 3:
        gaps = np.diff([d.start_step for d in dips])
        if len(gaps) and gaps.std() <= 0.15 * gaps.mean():
            found.append(
                f"throughput collapses periodically, every ~{gaps.mean():.0f} steps: checkpoint or eval "
                "cadence, or a slow node (try asynchronous checkpointing)"
            )
    for d in dips:
        kinds = {e["event"] for e in d.near_events}
        if "error" in kinds:
            found.append(
                f"the {_dip_span(d.start_step, d.end_step)} comes with an error line: "
                "check the hardware (Xid, ECC, NCCL) before the code"
            )
        elif kinds & {"checkpoint_save", "eval"}:
            what = " and ".join(sorted(kinds & {"checkpoint_save", "eval"})).replace("_", " ")
            found.append(f"the {_dip_span(d.start_step, d.end_step)} coincides with {what}")
    steps = phases.stable_rows(_averaged(run.steps))
    if len(steps) >= 10 and "tokens_per_s" in steps and steps["tokens_per_s"].notna().sum() >= 10:
        ok = steps["tokens_per_s"].notna().to_numpy()
        y = steps["tokens_per_s"].to_numpy(dtype=float)[ok]
        x = steps["step"].to_numpy(dtype=float)[ok]
        slope, intercept = np.polyfit(x, y, 1)
        change = slope * (x[-1] - x[0]) / np.median(y)
        # a trend only when a straight line explains the window better than one step down does
        line_sse = float(((y - (slope * x + intercept)) ** 2).sum())
        if change < -0.05 and line_sse < _best_step_sse(y):
            found.append(
                f"throughput falls {-change:.0%} across the stable window, steadily rather than in one step: "
                "memory fragmentation or growing copies (allocator settings)"
            )
    for sh in phases.shifts:
        kinds = {e["event"] for e in sh.near_events}
        if "error" in kinds:
            found.append(
                f"throughput changed {sh.change:+.0%} at step {sh.at_step} next to an error line: check the "
                "hardware (Xid, ECC, NCCL) before the code"
            )
    return found


def _near_text(events: list[NearEventPart], most: int = 2) -> str:
    """The events next to a dip or shift, one entry per kind and step: Megatron's "saving checkpoint at
    iteration 300" and "successfully saved checkpoint from iteration 300" are one checkpoint save."""
    groups: dict[tuple[str, Any], list[int]] = {}
    for e in events:
        groups.setdefault((e["event"], e.get("step")), []).append(int(e["line"]))
    out = []
    for (kind, step), lines in list(groups.items())[:most]:
        where = f" at step {int(step)}" if step is not None and step == step else ""
        span = f"line {lines[0]}" if len(lines) == 1 else f"lines {min(lines)}-{max(lines)}"
        out.append(f"{kind.replace('_', ' ')}{where} ({span})")
    return ", ".join(out)


def _best_step_sse(y: np.ndarray) -> float:
    """Squared error of the best fit of two flat levels (one step) to y."""
    n = len(y)
    c1, c2 = np.cumsum(y), np.cumsum(y**2)
    best = float(c2[-1] - c1[-1] ** 2 / n)
    for k in range(2, n - 1):
        left = c2[k - 1] - c1[k - 1] ** 2 / k
        right = (c2[-1] - c2[k - 1]) - (c1[-1] - c1[k - 1]) ** 2 / (n - k)
        best = min(best, float(left + right))
    return best


def _terms(util: Utilization) -> FlopsTermsPart | None:
    t = util.terms
    if t is None or not t.total:
        return None
    return {
        name: {"flops": _num(v), "share": _num(v / t.total, 4)}
        for name, v in (("dense", t.dense), ("attention", t.attention), ("logits", t.logits))
    }


def _ranks(steps: pd.DataFrame) -> RanksPart | None:
    """When several ranks print every step: how many, the spread of their step times, the stragglers."""
    if "ranks" not in steps or steps["ranks"].max() < 2:
        return None
    out: RanksPart = {"printing": int(steps["ranks"].max())}
    if {"step_time_s_min", "step_time_s_max"} <= set(steps):
        spread = (steps["step_time_s_max"] - steps["step_time_s_min"]).dropna()
        out["step_time_spread_s_median"] = _num(float(spread.median())) if len(spread) else None
        out["step_time_spread_s_max"] = _num(float(spread.max())) if len(spread) else None
    if "slowest_rank" in steps and steps["slowest_rank"].notna().any():
        counts = steps["slowest_rank"].dropna().astype(int).value_counts()
        total = int(counts.sum())
        out["slowest"] = [
            {"rank": int(r), "steps": int(n), "share": _num(n / total, 4)} for r, n in counts.head(5).items()
        ]
    return out


def _flagged(steps: pd.DataFrame) -> dict[str, int]:
    if "flags" not in steps:
        return {}
    counts: dict[str, int] = {}
    for f in steps["flags"].dropna():
        for flag in f.split(","):
            counts[flag] = counts.get(flag, 0) + 1
    return counts


def _eta(run: Run, stable: StablePart) -> EtaPart | None:
    target = run.value("target_tokens")
    if target is None:
        return None
    tps = stable.get("tokens_per_s")
    seconds = seconds_to_train(target, tps)
    return {
        "target_tokens": target,
        "tokens_per_s": tps,
        "seconds": _num(seconds),
        "days": _num(seconds / 86400 if seconds else None, 4),
        "basis": "stable-window throughput (tokens/s); restarts, evals and checkpoints not included",
    }


def build_summary(analysis: Findings) -> Summary:
    """summary.json of an analysis: a pure function of it (building it twice gives the same JSON). The
    keys are in the order summary.json has always written them."""
    run, util, phases = analysis.run, analysis.util, analysis.phases
    facts, steps, parsed = run.facts, run.steps, run.parsed
    gpus = facts.get("gpus")
    stable = _stable_stats(run, util, phases)
    regimes = _regimes(run, util, phases)
    tokens_per_step = steps["tokens_per_step"].dropna()
    status = _rounded(run_status(run, analysis.basis))
    summary: Summary = {
        "run": run.name,
        "source": run.source,
        "format": parsed.format,
        "formats": parsed.formats,
        "detection": {"scores": parsed.detection.scores, "confidence": _num(parsed.detection.confidence, 3)},
        "lines": parsed.lines,
        "gpus": gpus.value if gpus else None,
        "gpus_source": gpus.source if gpus else None,
        "hardware": _hardware_part(util),
        "model": _model_part(util, facts.get("seq_len")),
        **_flops_part(util),
        "steps": _steps_part(run, analysis.basis),
        "tokens_per_step": _num(float(tokens_per_step.median())) if len(tokens_per_step) else None,
        "warmup_steps": phases.warmup_steps,
        "stable": stable,
        "window": _rounded(window_stats(analysis.window), WINDOW_DIGITS)
        if analysis.window is not None
        else None,
        "eta": _eta(run, stable),
        "regimes": regimes,
        "shifts": _shifts(phases, regimes),
        "dips": [d.as_dict() for d in phases.dips],
        "restarts": [r.as_dict() for r in run.restarts],
        "segments": [seg.as_dict() for seg in run.segments],
        "analyzed": run.analyzed,
        "sources": _rounded([c.as_dict() for c in run.rate_choices]),
        "ranks": _ranks(steps),
        "flagged_steps": _flagged(steps),
        "reported": _rounded(analysis.reported),
        "goodput": goodput_part(analysis.ledger, run),
        "facts": _facts_part(facts),
        "notes": [f"{k}: {v}" for k, v in parsed.notes.items()],
        "status": status["status"],
        "status_detail": status,
        "diagnosis": diagnose(run, util, phases, stable),
        "warnings": list(run.warnings),
    }
    if parsed.keymap:  # keys read through a synonym table (the generic set): what went where
        summary["generic"] = _generic_part(parsed.keymap)
    if parsed.folder is not None:  # a run folder: which files were read, and what each gave
        summary["folder"] = _folder_part(parsed.folder, run, summary["notes"])
    _add_throughput_parts(summary, run, util, phases, stable)
    return summary


def _add_throughput_parts(
    summary: Summary, run: Run, util: Utilization, phases: Phases, stable: StablePart
) -> None:
    """The summary's blocks of what only some runs have: the log's own FLOPs per token, cross-checked against its
    dims; the whole-run average, where the log gives one; the FLOPs per sample and samples/s of a run that counts
    samples, not tokens."""
    if util.stated is not None:
        summary["flops_stated"] = _flops_stated_part(util.stated)
    whole = whole_run(run, util)
    if whole is not None:
        summary["whole_run"] = _rounded(whole)
    if util.unit == SAMPLES:
        summary["samples"] = _samples_part(run, util, phases, stable)


# what --flops-per-sample counts (utilization.mfu._flops_per_sample)
SAMPLE_CONVENTION = (
    "training FLOPs per sample, forward and backward: 3x forward FLOPs, 6x forward multiply-adds"
)


def _samples_part(run: Run, util: Utilization, phases: Phases, stable: StablePart) -> SamplesPart:
    """summary["samples"]: the FLOPs per sample the MFU counts with, and the stable window's samples/s."""
    rows = phases.stable_rows(_averaged(run.steps))
    per_gpu = _weighted(rows, "samples_per_s_per_gpu") if not rows.empty else None
    fps = util.flops_per_sample
    return {
        "throughput_unit": SAMPLES,
        "flops_per_sample": _num(fps.value) if fps is not None else None,
        "flops_per_sample_source": fps.source if fps is not None else None,
        "convention": SAMPLE_CONVENTION,
        "samples_per_s": stable["samples_per_s"],
        "samples_per_s_per_gpu": _num(per_gpu),
    }


def _generic_part(used: dict[str, dict[str, str]]) -> GenericPart:
    """What the key model made of every key the log's lines printed (frame.ParsedLog.keymap, whose columns are
    keymap.KeyUse: the column's name with its rule), and the conventions those keys were read by."""
    keys: dict[str, KeyPart] = {}
    rules: set[str] = set()
    for what, kind in (("mapped", "column"), ("facts", "fact"), ("kept", "kept"), ("skipped", "skipped")):
        for key, use in used.get(what, {}).items():
            rule = getattr(use, "rule", None)
            if rule is not None and "loss" in rule.split("+"):
                rules.add("loss")
            if kind == "column" and str(use).startswith("memory"):
                rules.add("memory")
            if key not in keys:
                keys[key] = KeyPart(
                    kind=kind,
                    column=str(use) or None,
                    rule=rule,
                    unit=getattr(use, "unit", None),
                    scale=getattr(use, "scale", None),
                    why=getattr(use, "why", ""),
                )
    said = keymap.load().rules
    return GenericPart(
        synonyms="logparse/synonyms.toml",
        mapped={k: str(v) for k, v in used.get("mapped", {}).items()},
        facts={k: str(v) for k, v in used.get("facts", {}).items()},
        kept={k: str(v) for k, v in used.get("kept", {}).items()},
        keys=keys,
        rules={r: said[r] for r in sorted(rules) if r in said},
    )


def _folder_part(read: FolderPart, run: Run, notes: list[str]) -> FolderPart:
    """The folder's files as read, with where the steps and their times came from: the record's file where its
    rows are the steps (its notes added to `notes`), the file that timed them (steps/withrecord.py)."""
    part = FolderPart(**read)
    said = run.folder_steps
    if said is not None:
        part["times_from"] = said.times_from
        if said.steps_from is not None:
            part["steps_from"], part["mapped"] = said.steps_from, dict(said.mapped)
            notes += [f"{k}: {v}" for k, v in said.notes.items()]
    elif run.step_time is not None:
        consoles = [f["file"] for f in read["files"] if f["read"] == "console"]
        part["times_from"] = read["steps_from"] or ", ".join(consoles) or None
    return part


def _hardware_part(util: Utilization) -> HardwarePart:
    """summary["hardware"]: the device, its dtype and dense peak, each with where it came from."""
    return {
        "name": util.hardware,
        "name_source": util.hardware_name.source if util.hardware_name else None,
        "name_detail": util.hardware_name.detail if util.hardware_name else None,
        "dtype": util.dtype.value,
        "dtype_source": util.dtype.source,
        "peak_tflops_per_gpu": util.peak_tflops.value if util.peak_tflops else None,
        "peak_source": util.peak_source,
        "dense": True,
    }


def _model_part(util: Utilization, seq: Any) -> ModelPart:
    """summary["model"]: the model's dimensions, the sequence length (`seq`, a fact or None), and the
    source of each."""
    dims, model_facts = util.model, util.model_facts
    params_fact = model_facts.get("params")
    part: ModelPart = {
        "params": _num(dims.params, 10),
        "layers": dims.layers,
        "hidden": dims.hidden,
        "heads": dims.heads,
        "kv_heads": dims.kv_heads,
        "ffn_hidden": dims.ffn_hidden,
        "seq_len": seq.value if seq else None,
        "vocab": dims.vocab,
        "source": params_fact.source if params_fact else None,
        "sources": {k: f.source for k, f in model_facts.items()},
    }
    if params_fact is not None and params_fact.source == "preset" and params_fact.detail:
        part["source_detail"] = params_fact.detail  # --model NAME, or the log's count that is the preset's
    return part


def _flops_part(util: Utilization) -> FlopsPart:
    """The FLOPs keys of the summary: formula, FLOPs per token and its terms, the HFU convention."""
    return {
        "formula": util.formula,
        "flops_per_token": _num(util.flops_per_token),
        "flops_terms": _terms(util),
        "hfu_flops_per_token": _num(util.hardware_flops_per_token),
        "recompute": util.recompute,
        "hfu_convention": HFU_CONVENTION[util.recompute],
    }


def _flops_stated_part(stated: StatedFlops) -> FlopsStatedPart:
    return {
        "flops_per_token": _num(stated.flops_per_token),
        "detail": stated.detail,
        "used": stated.used,
        "formula": stated.formula,
        "from_dims": _num(stated.from_dims),
        "ratio": _num(stated.ratio, 4),
        "check": stated.sentence(),
    }


def _steps_part(run: Run, basis: Any) -> StepsPart:
    """summary["steps"]: how many, the first and last, how they were numbered, where their time and
    throughput came from."""
    steps = run.steps
    return {
        "count": len(steps),
        "first": int(steps["step"].iloc[0]),
        "last": int(steps["step"].iloc[-1]),
        "numbering": run.step_numbering,
        "first_step_counted_as": basis,
        "step_time_source": run.step_time_source,
        "throughput_source": run.throughput_source,
    }


def _facts_part(facts: dict[str, Fact]) -> dict[str, FactPart]:
    """summary["facts"]: every fact by name, with its value, source and detail."""
    return {
        k: {
            "value": _num(f.value) if not isinstance(f.value, str) else f.value,
            "source": f.source,
            "detail": f.detail,
        }
        for k, f in sorted(facts.items())
    }


# ------------------------------------------------------------------------------------------------
# writing


def default_out_dir(run_name: str) -> Path:
    return Path("logparse-out") / run_name


def write_outputs(
    analysis: Findings,
    out_dir: str | os.PathLike[str],
    drawer: Drawer | None = None,
    thumbnail: bool = False,
    ahead: StepsAhead | None = None,
) -> dict[str, Path]:
    """summary.json, steps.csv and report.png into `out_dir`, whole or not at all (atomic.py): a kill, a
    full disk or an error leaves the files that were there before, never a cut one or a mix of two runs.
    `drawer`: a process started before the log was read (Drawer.start), which draws a small run's report.
    `thumbnail`: also the report's thumbnail for the batch page (thumbnail.THUMB_NAME), drawn with it.
    `ahead`: the steps.csv a forked process has been writing since the step frame was final (StepsAhead)."""
    out = Path(out_dir)
    made = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:
        return _write_outputs(analysis, out, drawer, thumbnail, ahead)
    except BaseException:
        if made:
            try:
                out.rmdir()  # (the folder this call made, left empty by the failure)
            except OSError:
                pass
        raise


def _write_outputs(
    analysis: Findings, out: Path, drawer: Drawer | None, thumbnail: bool, ahead: StepsAhead | None
) -> dict[str, Path]:
    paths = {"summary": out / "summary.json", "steps": out / "steps.csv", "report": out / "report.png"}
    if ahead is None or not ahead.writes(paths["steps"]):
        remove_leftovers(out)  # (StepsAhead.start did, before its file)
    summary = jsontext.dumps(analysis.summary, indent=2) + "\n"  # before any file: a bad value writes nothing
    with staged() as stage:  # all of them replace the earlier ones together, or none does
        steps, report = stage(paths["steps"]), stage(paths["report"])
        thumb = None
        if thumbnail:
            paths["thumb"] = out / THUMB_NAME
            thumb = stage(paths["thumb"])  # (renamed after the report: never older than it)
        csv = ahead.take(steps) if ahead is not None else None
        large = len(analysis.steps) >= DRAW_APART_ROWS
        drawing = None
        try:
            if drawer is not None and not large:
                drawing = drawer.draw(report_data(analysis), report, thumb)
            elif large and csv is None:
                drawing = apart(plot_report, analysis, report, thumb)
            # (with the CSV written ahead, a large run's report is drawn here while it is finished: sending its
            # figures, 120 MB for 2.4 M steps, to the drawer took longer than importing matplotlib)
            if csv is None:
                write_steps(analysis.steps, steps)
            if drawing is None:
                plot_report(analysis, report, thumb)
            else:
                drawing()
            if csv is not None:
                csv()
        except BaseException:
            # (an error, Ctrl-C, a SIGTERM: the forked writers are stopped before `staged` removes the files
            # they write, or one would write its file again after that)
            for child in (drawing, csv):
                if child is not None:
                    child.stop()
            raise
        stage(paths["summary"]).write_text(summary, encoding="utf-8")
    return paths


class StepsAhead:
    """steps.csv written by a forked process from the moment the step frame is final (api.analysis_of's
    `steps_ready`: after the phases, which add its last columns), while this one builds the ledger, the summary
    and the report: a large run's CSV is seconds of a core's work (2.4 M rows: 3.6 s).

    `start` forks the writer (for a run of DRAW_APART_ROWS rows or more, where forking is safe) to the name
    write_outputs stages steps.csv under; write_outputs `take`s it, waits for it and renames it with the other
    files, or removes it with them. `close` stops a writer whose file nobody took (the analysis failed or refused)
    and removes the file, and the folder when `start` made it and it is empty."""

    def __init__(self, out_dir: str | os.PathLike[str]) -> None:
        self.folder = Path(out_dir)
        self.path = temp_name(self.folder / "steps.csv")
        self.child: Child | None = None
        self.made = False

    def start(self, steps: pd.DataFrame) -> None:
        if self.child is not None or len(steps) < DRAW_APART_ROWS or not may_fork():
            return
        self.made = not self.folder.exists()
        self.folder.mkdir(parents=True, exist_ok=True)
        remove_leftovers(self.folder)
        self.child = apart(_write_public, steps, self.path)

    def writes(self, final: Path) -> bool:
        return self.child is not None and temp_name(final) == self.path

    def take(self, staged_as: Path) -> Child | None:
        """The writer of the file staged as `staged_as` (its wait), once; None when there is none."""
        if self.child is None or staged_as != self.path:
            return None
        child, self.child = self.child, None
        return child

    def close(self) -> None:
        if self.child is not None:
            self.child.stop()
            self.child = None
            self.path.unlink(missing_ok=True)
        if self.made:
            try:
                self.folder.rmdir()  # (only when empty)
            except OSError:
                pass
            self.made = False


def _write_public(steps: pd.DataFrame, path: Path) -> None:
    """The forked writer of StepsAhead: the public step frame (Findings.steps) as steps.csv, in this one process
    (the other core builds the ledger meanwhile)."""
    write_steps(public_steps(steps), path, split=False)


def plot_report(analysis: Findings, path: Any, thumb: Any = None) -> None:
    """report.png, and its thumbnail when `thumb` is a path (plots.py; matplotlib is imported here, where
    drawing starts: in the forked process when the report is drawn apart)."""
    from .plots import plot_report as draw

    draw(analysis, path, thumb=thumb)


# A run of this many step rows or more has its report drawn in a forked process while this one writes steps.csv
# (both take seconds on a large log, and each is one core's work); a small run's drawing is not worth a fork.
DRAW_APART_ROWS = 20_000


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def _fmt(x: float | None, spec: str = ",.0f") -> str:
    return "n/a" if x is None else format(x, spec)


def _assumptions(s: Summary) -> list[str]:
    """What the figures rest on, each with its source; what is unknown says what to pass to know it."""
    hw, unknown = s["hardware"], unknowns(s)
    gpus = f"{plural(s['gpus'], 'GPU')} ({s['gpus_source']})" if s["gpus"] else unknown["gpus"].text()
    if hw["peak_tflops_per_gpu"] is None:
        device = unknown["hardware"].text()
    else:
        named = {"log": " (named in the log)", None: ""}.get(
            hw.get("name_source"), f" ({hw.get('name_source')})"
        )
        device = (
            f"{hw['name'] or 'a device'}{named}, {hw['dtype']} ({hw['dtype_source']}), dense peak "
            f"{hw['peak_tflops_per_gpu']:g} TFLOPS/GPU"
        )
    seq = s["model"]["seq_len"]
    samples = s.get("samples")
    if samples is not None and samples["flops_per_sample"] is not None:  # MFU from samples/s
        flops = f"{samples['flops_per_sample']:.3e} FLOPs/sample ({samples['flops_per_sample_source']})"
        return [gpus, device, flops, "throughput in samples (no token count)"]
    if s["flops_per_token"] is not None:
        flops = f"formula {s['formula']} {s['flops_per_token']:.3e} FLOPs/token"
    else:
        formula = f"formula {s['formula']}, " if s["formula"] is not None and not seq else ""
        flops = formula + unknown["flops_per_token"].text()
    if samples is not None:  # a run that counts samples: FLOPs per sample give it its MFU
        flops = f"{unknown['flops_per_sample'].text()}; {flops}"
    return [
        gpus,
        device,
        flops,
        f"seq len {seq}" if seq else unknown["seq_len"].text(hint=False),  # the FLOPs entry asks for it
        f"recompute {s['recompute']}",
    ]


def _stable_count(st: StablePart, left_out: dict[str, int]) -> str:
    """What the stable figures average over, so that it adds up with the range printed before it:
    `481 steps`; `474 steps: 481 less 7 in dips`; `476 steps: 481 less 5 in the warm-up after the resume`;
    `12 logged lines, 60 steps` when each line stands for several steps. `left_out`: the steps inside the range
    that the window's rows leave out, by why (window_left_out)."""
    rows, steps = st.get("log_rows"), st["steps"]
    if rows is not None and rows != steps:
        each = f": each stands for the {steps // rows} steps up to it" if rows and steps % rows == 0 else ""
        return f"{plural(rows, 'logged line')}, {plural(steps, 'step')}{each}"
    lo, hi = st["start_step"], st["end_step"]
    span = hi - lo + 1
    if steps >= span:
        return plural(steps, "step")
    parts = [f"{n} {why}" for why, n in left_out.items() if n > 0]
    unlogged = span - steps - sum(left_out.values())
    if unlogged > 0:
        parts.append(f"{unlogged} not logged")
    return f"{plural(steps, 'step')}: {span} less {' and '.join(parts)}"


def window_left_out(analysis: Findings) -> dict[str, int]:
    """The steps between the stable window's first and last step that its figures leave out, by why (each
    row's `phase`, the stable mask and Phases.stable_rows, the masks the window is made of), in the words
    of the text: {"in dips": 7, "in the warm-up after the resume": 5, ...}. Steps without a row are not in
    it: they are what the range has beyond these and the window's own."""
    st = analysis.summary["stable"]
    steps = analysis.run.steps
    if st["start_step"] is None or steps.empty or "phase" not in steps:
        return {}
    step = steps["step"].to_numpy(dtype=float)
    inside = (step >= st["start_step"]) & (step <= st["end_step"])
    masked = analysis.phases.stable_mask.to_numpy(dtype=bool)
    judged = steps[["step"] + (["flags"] if "flags" in steps else [])]
    kept = steps.index.isin(analysis.phases.stable_rows(judged).index)
    out = inside & ~kept
    phase = steps["phase"].astype(object).where(steps["phase"].notna(), None).to_numpy()
    span = steps["step_span"].to_numpy(dtype=float) if "step_span" in steps else np.ones(len(steps))
    resumes = steps.loc[out & (phase == "restart"), "segment"].nunique() if "segment" in steps else 0
    after = "the warm-up after the resume" if resumes <= 1 else "the warm-ups after the resumes"
    reasons = {
        "in dips": out & (phase == "dip"),
        f"in {after}": out & (phase == "restart"),
        "in the warm-up": out & (phase == "warmup"),
        "not timed": out & pd.isna(phase),
        "with an MFU above 100%": out & masked,  # stable, left out by stable_rows
    }
    counted = np.zeros(len(steps), dtype=bool)
    for mask in reasons.values():
        counted |= mask
    reasons["in another regime"] = out & ~counted
    return {why: int(round(span[mask].sum())) for why, mask in reasons.items() if mask.any()}


def _stable_figures(st: StablePart, s: Summary) -> list[str]:
    """The stable phase's figures; unknown ones named once, with what would make them known."""
    out = []
    if st["mfu_mean"] is not None:
        out.append(
            f"MFU {_pct(st['mfu_mean'])} (median {_pct(st['mfu_median'])}), HFU {_pct(st['hfu_mean'])}"
        )
    else:
        out.append("MFU unknown (see the assumptions)")
    samples = s.get("samples")
    per_gpu_samples = samples["samples_per_s_per_gpu"] if samples is not None else None
    if samples is not None and (st["samples_per_s"] is not None or per_gpu_samples is not None):
        # a run that counts samples, not tokens
        each = f"{_fmt(per_gpu_samples, ',.4g')}"
        if st["samples_per_s"] is None:
            out.append(f"{each} samples/s per GPU (cluster unknown: {GPUS.hint()})")
        else:
            each = f"{each}/GPU" if per_gpu_samples is not None else f"per GPU unknown: {GPUS.hint()}"
            out.append(f"{_fmt(st['samples_per_s'], ',.4g')} samples/s ({each})")
    elif st["tokens_per_s"] is not None:
        per_gpu = st["tokens_per_s_per_gpu"]  # unknown when the GPU count is
        each = f"{_fmt(per_gpu)}/GPU" if per_gpu is not None else f"per GPU unknown: {GPUS.hint()}"
        out.append(f"{_fmt(st['tokens_per_s'])} tokens/s ({each})")
    elif st["tokens_per_s_per_gpu"] is not None:  # the log's per-device count, the cluster's unknown
        out.append(f"{_fmt(st['tokens_per_s_per_gpu'])} tokens/s per GPU (cluster unknown: {GPUS.hint()})")
    else:
        out.append(unknowns(s)["tokens_per_s"].text())
    if st["step_time_s"] is not None:
        out.append(f"{st['step_time_s']:.3g} s/step")
    if st["tflops_per_gpu"] is not None:
        out.append(f"{tflops_text(st['tflops_per_gpu'])} TFLOP/s/GPU")
    return out


def tflops_text(x: float) -> str:
    """444.6; a CPU run's 0.0123 keeps its digits (never `0.0` beside a nonzero MFU)."""
    return f"{x:.1f}" if abs(x) >= 10 else f"{x:.3g}"


def _dip_span(start: int, end: int) -> str:
    """`dip at step 50`, `dip at steps 301-303` (the diagnosis's wording too)."""
    return f"dip at step {start}" if start == end else f"dip at steps {start}-{end}"


def plural(count: int, word: str) -> str:
    """`1 step`, `2 steps`, `0 dips`."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _line_counts(lines: dict[str, int]) -> str:
    """The file's lines and what became of them, adding up: "701 lines (690 matched, 6 unmatched, 5 blank, 0
    malformed)"; when lines split into records (progress-bar redraws), the records are counted apart."""
    total, blank = lines["total"], lines.get("blank", 0)
    records = lines.get("records", lines["matched"] + lines["unmatched"])
    counts = f"{lines['matched']:,} matched, {lines['unmatched']:,} unmatched"
    malformed = f"{lines['malformed']:,} malformed"
    tail = f", {blank:,} blank" if blank else ""
    if records + blank == total:
        return f"{total:,} lines ({counts}{tail}, {malformed})"
    return f"{total:,} lines, {records:,} records ({counts}, {malformed}){tail}"


def text_summary(analysis: Findings, paths: dict[str, Path] | None = None) -> str:
    """The lines a person reads first; what to pass is named as the caller knows it, as the figure and the
    page name it (`--gpus` from the command line, which renders this under cli_names(); `gpus` from Python)."""
    return _text_summary(analysis, paths)


def _text_summary(analysis: Findings, paths: dict[str, Path] | None) -> str:
    s = analysis.summary
    lines = _run_lines(s, analysis.run.steps)
    lines += _stable_window_lines(s, window_left_out(analysis))
    lines += whole_run_lines(s)
    lines += _event_lines(s)
    lines += ledger_lines(s)
    lines += _reported_lines(s["reported"])
    lines += _closing_lines(s)
    if paths:
        lines.append(f"  wrote {paths['report'].parent}/ (report.png, summary.json, steps.csv)")
    return "\n".join(lines)


def _run_lines(s: Summary, rows: pd.DataFrame) -> list[str]:
    """The run: its format and lines, its steps and status, where the step time came from, how the steps
    were numbered, what else was read, and the assumptions."""
    status = s.get("status")
    count = s["steps"]["count"]
    spanned = int(rows["step_span"].sum()) if "step_span" in rows and len(rows) == count else count
    logged = f"{count} logged" if spanned == count else f"{count} logged lines, {plural(spanned, 'step')}"
    folder = s.get("folder")
    source = f"{s['format']} log, {_line_counts(s['lines'])}"
    if folder is not None and folder["steps_from"] is not None:
        console = any(f["read"] == "console" for f in folder["files"])
        source = (
            f"{source}; steps from {folder['steps_from']}"
            if console
            else f"{folder['kind']} run folder, steps from {folder['steps_from']} ({count} logged steps)"
        )
    lines = [f"{s['run']}: {source}"]
    if folder is not None:
        lines.append("  read: " + ", ".join(f"{f['file']} ({f['read']})" for f in folder["files"]))
    lines += [
        f"  steps {s['steps']['first']}..{s['steps']['last']} ({logged}), "
        f"{status or 'status unknown'}"
        + (f" ({s['status_detail']['detail']})" if status not in (None, "complete") else "")
        + (
            f"; step time from {s['steps']['step_time_source']}"
            if s["steps"]["step_time_source"]
            else "; no step time in the log"
        ),
    ]
    numbering = s["steps"].get("numbering")
    if numbering and numbering != "log":
        lines.append(f"  step numbers: {numbering}")  # the log printed no counter, or one of micro-batches
    lines += [f"  also read: {n}" for n in s.get("notes", []) if "(beside the framework)" in n]
    lines.append("  assumptions: " + "; ".join(_assumptions(s)))
    if "flops_stated" in s:
        lines.append(f"  FLOPs/token: {s['flops_stated']['check']}")
    return lines


def _stable_window_lines(s: Summary, left_out: dict[str, int]) -> list[str]:
    """The stable window's figures (or that none was found), then the peer-style window when asked for;
    `left_out` as window_left_out gives it."""
    st = s["stable"]
    if st["start_step"] is not None:
        which = ""
        if len(s.get("regimes", [])) > 1:
            which = f" [regime {st['regime'] + 1} of {len(s['regimes'])}, the most wall time]"
        lines = [
            f"  stable steps {st['start_step']}..{st['end_step']} ({_stable_count(st, left_out)}){which}: "
            + ", ".join(_stable_figures(st, s))
        ]
    else:
        missing = unknowns(s)
        if "step_time" in missing:  # nothing to time the steps by: that is what is missing
            lines = [f"  stable window: none ({missing['step_time'].text()})"]
        else:
            lines = ["  " + missing["stable_window"].text()]
    w = s.get("window")
    if w is not None:
        m = {k: (w[k] or {}).get("mean") for k in ("step_time_s", "tokens_per_s", "tflops_per_gpu", "mfu")}
        lines.append(
            f"  window {w['rule']}: {plural(w['count'], 'step')}, mean {_fmt(m['step_time_s'], '.4g')} s/step, "
            f"{_fmt(m['tokens_per_s'])} tokens/s, {_fmt(m['tflops_per_gpu'], '.1f')} TFLOP/s/GPU, MFU {_pct(m['mfu'])}"
            + ("" if w["complete"] else f" ({w.get('note')})")
        )
    return lines


def _event_lines(s: Summary) -> list[str]:
    """Warmup and the counts of shifts, dips and restarts, then each shift, the first five dips, and each
    restart."""
    if s["warmup_steps"] is not None:
        warmup = plural(s["warmup_steps"], "step")
    else:  # warmup ends where the stable window starts
        warmup = "unknown (no stable window to end it)"
    shifts = s.get("shifts", [])
    lines = [
        f"  warmup: {warmup}; {plural(len(shifts), 'shift')}; {plural(len(s['dips']), 'dip')}; "
        f"{plural(len(s['restarts']), 'restart')}"
    ]
    for i, sh in enumerate(shifts):
        lines.append(_shift_line(sh, shifts[i + 1]["at_step"] if i + 1 < len(shifts) else None))
    for d in s["dips"][:5]:
        near = _near_text(d["near_events"])
        lines.append(
            f"    {_dip_span(d['start_step'], d['end_step'])}: -{d['depth']:.0%}, "
            f"{_lost(d['lost_s'], s)}" + (f", near {near}" if near else "")
        )
    for r in s["restarts"]:
        lines.append(
            f"    restart after step {r['at_step']}, "
            + (
                f"resumed from {r['resumed_from']} "
                if r["resumed_from"] is not None
                else "resumed from an unknown step "
            )
            + f"(line {r['line']}; {_lost(r['lost_s'], s)})"
            + (f"; cause: line {r['cause_line']}: {r['cause']}" if r.get("cause") else "")
        )
    return lines


def _lost(seconds: float | None, s: Summary) -> str:
    """`12.3 s lost`, or that it is unknown and why (the seconds are step times summed)."""
    if seconds is not None:
        return f"{seconds:.1f} s lost"
    no_time = s["steps"]["step_time_source"] is None
    return "time lost unknown" + (" (no step time in the log)" if no_time else "")


def _eta_line(s: Summary) -> str:
    """The time to --target-tokens at the stable rate, or what it needs and the run lacks."""
    e = s["eta"]
    if e["days"] is not None:
        return f"  time to {e['target_tokens']:.3g} tokens at the stable rate: {_fmt(e['days'], '.1f')} days"
    missing = unknowns(s)
    u = next((missing[k] for k in ("step_time", "stable_window", "tokens_per_s") if k in missing), None)
    if u is None:
        why = "the stable tokens/s is unknown"
    elif u.what == "tokens_per_s" and u.hint():
        why = f"tokens/s unknown: {u.hint()}"
    else:
        why = u.text()
    return f"  time to {e['target_tokens']:.3g} tokens: unknown ({why})"


def _shift_line(sh: ShiftPart, next_at: int | None) -> str:
    """One shift: which way throughput went, until the next shift (`next_at`) if any, the MFU either side."""
    near = _near_text(sh["near_events"])
    verb = "fell" if sh["change"] < 0 else "rose"
    stayed = "stayed down" if sh["change"] < 0 else "stayed up"
    if next_at is not None:
        stayed += f" until step {next_at}"
    mfu = ""
    if sh["mfu_before"] is not None and sh["mfu_after"] is not None:
        mfu = f", MFU {_pct(sh['mfu_before'])} -> {_pct(sh['mfu_after'])}"
    return f"    throughput {verb} {abs(sh['change']):.0%} at step {sh['at_step']} and {stayed}{mfu}" + (
        f" (near: {near})" if near else ""
    )


def _reported_lines(rep: ReportedPart) -> list[str]:
    """The log's own TFLOP/s or MFU, and logparse's figure under the framework's convention beside it."""
    if rep["tflops_per_gpu_mean"] is None and rep["mfu_mean"] is None:
        return []
    own = (
        f"{tflops_text(rep['tflops_per_gpu_mean'])} TFLOP/s/GPU"
        if rep["tflops_per_gpu_mean"] is not None
        else (f"MFU {rep['mfu_mean']:.1%}")
    )
    line = f"  the log's own figure: {own}"
    if rep.get("framework_formula"):
        conv = rep["ours_under_framework_convention"]
        mine = (
            tflops_text(conv["tflops_per_gpu"])
            if rep["tflops_per_gpu_mean"] is not None
            else f"MFU {conv['mfu']:.1%}"
        )
        line += (
            f"; logparse under {rep['framework']}'s convention ({rep['framework_formula']}): "
            f"{mine}, {rep['agrees_within']:.1%} apart"
        )
    ours = rep.get("ours") or {}
    if rep["tflops_per_gpu_mean"] is not None and rep["mfu_mean"] is not None and ours.get("mfu") is not None:
        # the log prints TFLOP/s and MFU: both MFUs side by side, with logparse's own
        under = (rep.get("ours_under_framework_convention") or {}).get("mfu")
        line += (
            f"; MFU: the log's {rep['mfu_mean']:.1%}"
            + (f", logparse under {rep['framework']}'s convention {under:.1%}" if under is not None else "")
            + f", logparse's own ({ours['formula']}) {ours['mfu']:.1%}"
        )
    return [line]


def _closing_lines(s: Summary) -> list[str]:
    """The time to the target, the slowest rank, the flagged steps, the diagnosis and the warnings."""
    lines = []
    if s.get("eta"):
        lines.append(_eta_line(s))
    if s.get("ranks") and s["ranks"].get("slowest"):
        top = s["ranks"]["slowest"][0]
        lines.append(
            f"  {s['ranks']['printing']} ranks print every step; slowest most often: rank {top['rank']} "
            f"({top['share']:.0%} of steps), median spread {_fmt(s['ranks']['step_time_spread_s_median'], '.3g')} s"
        )
    if s.get("flagged_steps"):
        lines.append("  flagged steps: " + ", ".join(f"{k} {v}" for k, v in s["flagged_steps"].items()))
    lines += [f"  diagnosis: {d}" for d in s["diagnosis"]]
    lines += [f"  warning: {w}" for w in s["warnings"]]
    return lines
