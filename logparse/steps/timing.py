"""Where a step's time and its throughput come from.

The step time is the log's own field when it has one; else it is derived (from samples/s, a progress
bar, timestamps, the log's clock; `fill_step_time`, `step_time_from_samples`, `per_step_clock`), each
source saying so in a sentence the summary prints. The cluster tokens/s is the log's, or derived from
the per-GPU figure, samples/s or the step time: `fill_throughput` fills it and returns a `Throughput`,
which names the column it came from (phases judge that column) and the summary's sentence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np
import pandas as pd
import regex

from ..core.errors import flag
from ..core.facts import Fact
from ..core.warnings import RunWarning
from ..patterns import keymap as keymap_mod
from .bars import training_bar
from .runfacts import model_parallel
from .sources import median_ratio
from .stepframe import windowed


class ThroughputFrom(Enum):
    """The figure the cluster tokens/s is computed from, in the order they are preferred:
    (the step frame's column, the summary's `throughput_source` sentence)."""

    CLUSTER_TOKENS = ("tokens_per_s", "tokens/s as logged (cluster)")
    PER_GPU_TOKENS = ("tokens_per_s_per_gpu", "tokens/s per GPU as logged x GPUs")
    SAMPLES = ("samples_per_s", "samples/s as logged (cluster) x sequence length")
    STEP_TIME = ("step_time_s", "global batch x sequence length / step time")

    @property
    def column(self) -> str:
        return self.value[0]

    @property
    def sentence(self) -> str:
        return self.value[1]


class StepTimeFrom(Enum):
    """Where a step's time comes from, in the order the sources are tried (resolve_steps, then resolve_run's
    per-step clock, which replaces a logged time that averages a window)."""

    BAR = "bar"  # the progress bar drawn at every step, while the rows are numbered (bars.steps_from_bar)
    SAMPLES = "samples"  # global batch / samples per second, row-local (before restarts are split)
    EPOCH_RATE = "epoch_rate"  # a bar whose rate is the epoch's average (bars.step_times_from_epoch_rate)
    LOG = "log"  # the log's own field (STEP_TIME_SOURCES from here on)
    TOKENS = "tokens"  # tokens per step / tokens per second
    TIMESTAMPS = "timestamps"  # consecutive step lines' timestamps
    CLOCK = "clock"  # the log's clock (timestamps, a training clock) ticking finely enough (per_step_clock)
    BAR_RATE = "bar_rate"  # tqdm's smoothed rate


@dataclass(frozen=True)
class StepTime:
    """Where the run's step times came from: the source, and the summary's `step_time_source` sentence."""

    kind: StepTimeFrom
    sentence: str


KEPT_AS_LOGGED = " (the logged throughput, an average over a window, is kept as *_logged)"


@dataclass(frozen=True)
class Throughput:
    """Where the run's tokens/s came from: the figure, and a rider the summary's sentence carries."""

    kind: ThroughputFrom
    note: str = ""

    @property
    def column(self) -> str:
        """The logged column the throughput was computed from."""
        return self.kind.column

    @property
    def sentence(self) -> str:
        """The summary's `steps.throughput_source`."""
        return self.kind.sentence + self.note


def step_time_from_samples(steps: pd.DataFrame, facts: dict[str, Fact]) -> StepTime | None:
    """Step time = global batch / cluster samples per second, where the log gives both."""
    if "samples_per_s" not in steps or steps["samples_per_s"].isna().all():
        return None
    gbs = steps["global_batch_size"] if "global_batch_size" in steps else None
    if gbs is None and "global_batch_size" in facts:
        gbs = pd.Series(float(facts["global_batch_size"].value), index=steps.index)
    if gbs is None:
        return None
    steps["step_time_s"] = gbs / steps["samples_per_s"]
    return StepTime(StepTimeFrom.SAMPLES, "global batch / samples per second as logged")


@dataclass
class TimingInputs:
    """What the step-time sources read: the step rows (one per step, spans known), the progress-bar rows,
    the run's facts, whether the set declares interval-averaged fields; warnings they add."""

    steps: pd.DataFrame
    progress: pd.DataFrame
    facts: dict[str, Fact]
    interval_averaged: bool
    warnings: list[RunWarning]


def _logged(t: TimingInputs) -> StepTime | None:
    """The log's own step-time field."""
    if "step_time_s" in t.steps and t.steps["step_time_s"].notna().any():
        interval = " (averaged over each log interval)" if t.interval_averaged else ""
        return StepTime(StepTimeFrom.LOG, "log" + interval)
    return None


# a kept time whose name says it is the whole of the others on its line (`TIMING step=1 | total=141.8s gen=42.4s
# teacher=34.0s ...`): its words are one of these and at most the words of a step's time
_WHOLE_WORDS = frozenset(("total", "sum", "overall"))
_STEP_TIME_WORDS = frozenset(("time", "step", "iter", "iteration", "batch"))
_PARTS_COVER = (0.75, 1.02)  # the parts' sum over the total on a line where the total is their sum
_TIME_UNITS = {
    unit: seconds for unit, seconds in keymap_mod.TIME.items() if unit != "m"
}  # (m: metres, millions)


def _from_phase_total(t: TimingInputs) -> StepTime | None:
    """A step line's timed phases and their total, none of them a name the key model reads as the step's time:
    the total is the step's time where, line by line, the phases add up to it (a cumulative clock, or a total of
    something else, does not)."""
    steps = t.steps
    times: dict[str, tuple[str, pd.Series]] = {}
    for column in steps.columns:
        name, _, unit = column[2:].rpartition("_")
        if column.startswith("x_") and name and unit in _TIME_UNITS:
            times[column] = (name, pd.to_numeric(steps[column], errors="coerce") * _TIME_UNITS[unit])
    totals = [
        c
        for c, (name, _) in times.items()
        if set(name.split("_")) & _WHOLE_WORDS and set(name.split("_")) <= _WHOLE_WORDS | _STEP_TIME_WORDS
    ]
    if len(totals) != 1 or len(times) < 3:
        return None
    total = times[totals[0]][1]
    parts = pd.concat([series for c, (_, series) in times.items() if c != totals[0]], axis=1)
    on = total.notna() & (total > 0)
    if on.sum() < 1:
        return None
    share = parts[on].sum(axis=1, min_count=2) / total[on]
    low, high = _PARTS_COVER
    if share.notna().mean() < 0.8 or ((share >= low) & (share <= high)).mean() < 0.8:
        return None
    steps["step_time_s"] = total
    names = ", ".join(name for c, (name, _) in times.items() if c != totals[0])
    return StepTime(
        StepTimeFrom.LOG, f"log: its {times[totals[0]][0]!r}, the sum of the step's timed phases ({names})"
    )


def _from_tokens(t: TimingInputs) -> StepTime | None:
    """Tokens per step over the logged tokens/s."""
    steps = t.steps
    if {"tokens_per_step", "tokens_per_s"} <= set(steps) and steps["tokens_per_s"].notna().any():
        steps["step_time_s"] = steps["tokens_per_step"] / steps["tokens_per_s"]
        return StepTime(StepTimeFrom.TOKENS, "tokens per step / tokens per second, both as logged")
    return None


def _from_timestamps(t: TimingInputs) -> StepTime | None:
    """The differences of consecutive step lines' timestamps, over each row's span."""
    steps = t.steps
    if "timestamp" in steps and steps["timestamp"].notna().sum() >= 2:
        dt = steps.groupby("segment")["timestamp"].diff()
        steps["step_time_s"] = dt / steps["step_span"]
        return StepTime(StepTimeFrom.TIMESTAMPS, "timestamps of consecutive step lines")
    return None


def _from_training_clock(t: TimingInputs) -> StepTime | None:
    """The log's own training clock (HF Trainer's running train_runtime), when it ticks finely enough."""
    if "train_elapsed_s" not in t.steps:
        return None
    clock = per_step_clock(t.steps)
    if clock is None:
        return None
    t.steps["step_time_s"] = clock[0]
    return StepTime(StepTimeFrom.CLOCK, clock[1])


TQDM_SMOOTHING = 0.3  # tqdm's default EMA weight of the newest redraw (tqdm.std.tqdm, smoothing=0.3)
JUMP_LEFT = 0.05  # a jump's share of the smoothed rate below which a redraw's rate is the steps' own again


def _bars(prog: pd.DataFrame) -> list[pd.DataFrame]:
    """The training bar's redraws cut into bars, one per session: a new bar starts where the position goes
    back (a resumed run prints its bar again from 0)."""
    n = prog["progress_n"].to_numpy(dtype=float)
    cuts = [0, *(np.flatnonzero(np.diff(n) < 0) + 1).tolist(), len(n)]
    return [prog.iloc[a:b] for a, b in zip(cuts[:-1], cuts[1:], strict=True) if b > a]


def _jumped(bar: pd.DataFrame, before: pd.DataFrame | None) -> tuple[pd.Index, int, int] | None:
    """A later session's bar that a resume started part-way (HF Trainer updates it by the steps already done
    in one go: 0/60, then 41/60): tqdm's smoothed rate counts those steps for the redraws after it, until the
    jump's weight decays (smoothing 0.3 a redraw) below JUMP_LEFT. Told from a bar whose first redraw merely
    came a few fast steps in by its rate: under half the seconds per step of the session `before` it.
    Returns those redraws' index, the jump, and its line; None for a bar that counts from its start."""
    n = bar["progress_n"].to_numpy(dtype=float)
    moved = np.flatnonzero(n > 0)
    if before is None or not len(moved) or n[moved[0]] < 2:
        return None
    earlier = before["progress_s_per_it"].dropna()
    first = float(bar["progress_s_per_it"].iloc[moved[0]])
    if not len(earlier) or not first < 0.5 * float(earlier.median()):
        return None
    jump = int(n[moved[0]])
    redraws = math.ceil(math.log(JUMP_LEFT / jump) / math.log(1.0 - TQDM_SMOOTHING)) + 1
    return bar.index[moved[0] : moved[0] + redraws], jump, int(bar["line"].iloc[moved[0]])


def _from_bar_rate(t: TimingInputs) -> StepTime | None:
    """The progress bar's smoothed rate (tqdm's seconds per iteration), the median over each log interval;
    each attempt's rows from their own session's bar when the log prints one bar a session, and never a rate
    that still counts the steps a resumed bar skipped (_jumped)."""
    if t.progress.empty or "progress_s_per_it" not in t.progress:
        return None
    total = t.facts.get("train_iters")
    prog = training_bar(t.progress, None if total is None else int(total.value))
    bars = _bars(prog) if "line" in prog else [prog]
    for k, bar in enumerate(bars):
        jumped = _jumped(bar, bars[k - 1] if k else None) if "line" in bar else None
        if jumped is not None:
            skipped, jump, line = jumped
            prog = prog.drop(index=skipped)
            t.warnings.append(
                RunWarning(
                    f"the progress bar at line {line} starts at {jump} (a resume): tqdm's smoothed rate counts "
                    f"those {jump} steps for its next {len(skipped)} redraws, which are not used as step times",
                    "bar_jump",
                )
            )
    prog = prog.dropna(subset=["progress_s_per_it"])
    if not len(prog):
        return None

    def arrays(part: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        return part["progress_n"].to_numpy(), part["progress_s_per_it"].to_numpy()

    segments = t.steps["segment"] if "segment" in t.steps else pd.Series(0, index=t.steps.index)
    sessions = [
        arrays(prog.loc[b.index.intersection(prog.index)]) for b in bars if (b["progress_n"] > 0).any()
    ]
    order = list(dict.fromkeys(segments))
    # each attempt's rows read their own session's bar when the log prints one bar a session
    bar_of = dict(zip(order, sessions, strict=True)) if len(sessions) == len(order) > 1 else {}
    whole = arrays(prog)
    times = []
    prev = 0
    for seg, s in zip(segments, t.steps["step"], strict=True):
        n, rate = bar_of.get(seg, whole)
        sel = rate[(n > prev) & (n <= s)]
        times.append(float(np.median(sel)) if len(sel) else np.nan)
        prev = s
    t.steps["step_time_s"] = times
    t.warnings.append(
        RunWarning(
            "the log has no step-time field: step time is the progress bar's rate (tqdm's smoothed "
            "seconds per iteration) over each logging interval",
            "step_time_bar_rate",
        )
    )
    return StepTime(StepTimeFrom.BAR_RATE, "progress bar rate (tqdm, smoothed)")


# The step time's sources once the rows are one per step and nothing earlier named one, in the order they
# are tried; each fills step_time_s (in place) and says so (a StepTime), or returns None to pass. Earlier in
# resolve_steps come the bar drawn at every step (bars.steps_from_bar, while numbering), global batch /
# samples/s (step_time_from_samples, row-local: before restarts are split) and the epoch-averaged bar rate
# (bars.step_times_from_epoch_rate); after them, resolve_run's per-step clock replaces a windowed one.
STEP_TIME_SOURCES = (
    _logged,
    _from_phase_total,
    _from_tokens,
    _from_timestamps,
    _from_training_clock,
    _from_bar_rate,
)


def fill_step_time(t: TimingInputs) -> StepTime | None:
    """The first of STEP_TIME_SOURCES that gives the step time; a warning and None when none does."""
    for source in STEP_TIME_SOURCES:
        said = source(t)
        if said is not None:
            return said
    t.warnings.append(RunWarning(_no_step_time(t), "step_time_unknown"))
    return None


def _no_step_time(t: TimingInputs) -> str:
    """What the log lacks for a step's time, as far as the step rows and the bar show (a log may well have
    timestamps on other lines), and what that costs: a throughput it prints itself stays."""
    stamped = int(t.steps["timestamp"].notna().sum()) if "timestamp" in t.steps else 0
    stamps = "no timestamp on its step lines" if not stamped else "a timestamp on only one step line"
    # a bar the steps were numbered from leaves its columns in the step rows, not in t.progress
    drawn = not t.progress.empty or any(c.startswith("progress_") for c in t.steps.columns)
    bar = "no progress-bar rate it can use" if drawn else "no progress bar"
    logged = [c for c in ("tokens_per_s", "tokens_per_s_per_gpu", "samples_per_s") if _has(t.steps, c)]
    if not logged:
        cost = "throughput and MFU are unknown"
    else:
        unit = "samples/s" if logged[0] == "samples_per_s" else "tokens/s"
        cost = f"step times and the time lost in dips are unknown; throughput is the log's own {unit}"
    return f"the log has no step-time field, {stamps} and {bar}: {cost}"


def _has(steps: pd.DataFrame, col: str) -> bool:
    return col in steps and bool(steps[col].notna().any())


CLOCK_TICKS = 20  # a clock is precise enough when a step lasts at least this many of its ticks (5%)


def only_windowed_throughput(steps: pd.DataFrame) -> bool:
    """Every throughput the log gives is an average over a window."""
    cols = [c for c in ("tokens_per_s", "tokens_per_s_per_gpu", "samples_per_s") if c in steps]
    return bool(cols) and all(windowed(steps, c) for c in cols if steps[c].notna().any())


def clock_tick(diffs: np.ndarray) -> float:
    """A clock's tick: the greatest common divisor of its differences, to the microsecond (1 s for
    whole-second timestamps, 0.36 s for hours printed with 4 decimals)."""
    micro = np.round(diffs * 1e6).astype(np.int64)
    micro = micro[micro > 0]
    return float(np.gcd.reduce(micro)) / 1e6 if len(micro) else math.inf


def per_step_clock(steps: pd.DataFrame) -> tuple[pd.Series, str] | None:
    """Each row's own time from the log's clock (timestamps, a training clock), when the clock ticks
    finely enough for a step; its sum over any window is exact to one tick."""
    for col in ("timestamp", "train_elapsed_s"):
        if col not in steps or steps[col].notna().sum() < 3:
            continue
        d = steps[col].astype(float).groupby(steps["segment"]).diff()
        ticks = d[d > 0]
        if len(ticks) and float(ticks.median()) >= CLOCK_TICKS * clock_tick(ticks.to_numpy()):
            t = d / steps["step_span"]
            return t.where(t > 0), f"differences of the log's clock ({col})"
    return None


# words that scope a throughput's name to the whole job (a name without them, or a per-GPU word, gives no scope)
_JOB_WORDS = frozenset(("global", "cluster", "total", "overall", "aggregate", "all", "world", "job", "sum"))
_SAME = 0.15  # two figures of one step's tokens within this of each other are the same count


def _unscoped_tokens_key(keymap: dict[str, dict[str, str]]) -> str | None:
    """The printed key the inferred reading took the tokens/s from, when its name says neither one GPU's nor
    the cluster's (`Tokens per second`, `tok/s`)."""
    keys = [k for k, use in keymap.get("mapped", {}).items() if str(use) == "tokens_per_s"]
    if len(keys) != 1:
        return None
    words = {w.lower() for w in _WORDS.findall(keys[0])}
    return None if words & _JOB_WORDS else keys[0]


_WORDS = regex.compile(r"[A-Za-z]+")


def scope_of_unscoped_tokens(
    steps: pd.DataFrame,
    keymap: dict[str, dict[str, str]],
    facts: dict[str, Fact],
    gpus: float,
    seq_len: float,
    step_time: StepTime | None,
    warnings: list[RunWarning],
) -> None:
    """A tokens/s read by the inferred reading under a name that gives no scope is the cluster's
    (domain convention) unless the log's own counts show it is one GPU's: times the step's time it is the
    tokens per step over the GPUs, not the tokens per step (a custom loop's rank 0 printing
    `tokens / dt` of its own batch), or, where the log states no global batch, it is the stated batch size x
    sequence length x accumulation when that batch cannot be the global one (fewer than the GPUs that share
    it, no model parallelism stated). Then it moves to tokens_per_s_per_gpu, with a warning (in place)."""
    if not (np.isfinite(gpus) and gpus > 1) or "tokens_per_s" not in steps or "step_time_s" not in steps:
        return
    if step_time is None or step_time.kind is StepTimeFrom.TOKENS or windowed(steps, "step_time_s"):
        return  # (a step time computed from this very figure proves nothing)
    if "tokens_per_s_per_gpu" in steps and steps["tokens_per_s_per_gpu"].notna().any():
        return
    key = _unscoped_tokens_key(keymap)
    if key is None:
        return
    moved = steps["tokens_per_s"] * steps["step_time_s"]
    per_step = (
        steps["tokens_per_step"] if "tokens_per_step" in steps else pd.Series(np.nan, index=steps.index)
    )
    why = None
    ratio = median_ratio(moved, per_step)
    if ratio is not None:
        if abs(ratio * gpus - 1) <= _SAME and abs(ratio - 1) > _SAME:
            why = f"the tokens per step ({per_step.median():,.0f}) over the {gpus:g} GPUs"
    elif "batch_size" in facts and np.isfinite(seq_len) and model_parallel(facts) == 1:
        accum = facts.get("grad_accum")
        batch = float(facts["batch_size"].value) * (float(accum.value) if accum is not None else 1.0)
        one = batch * seq_len
        ratio = median_ratio(moved, pd.Series(one, index=steps.index))
        if batch < gpus and ratio is not None and abs(ratio - 1) <= _SAME:
            why = (
                f"the stated batch size {facts['batch_size'].value:g} x sequence length {seq_len:g}"
                + (f" x accumulation {accum.value:g}" if accum is not None else "")
                + f", one process's tokens: a batch smaller than the {gpus:g} GPUs is not the global one"
            )
    if why is None:
        return
    steps["tokens_per_s_per_gpu"] = steps["tokens_per_s"]
    steps["tokens_per_s"] = np.nan
    warnings.append(
        RunWarning(
            f"the logged {key!r} is read as one GPU's tokens/s, not the cluster's: times the step time it is "
            f"{why}",
            "tokens_one_gpu",
        )
    )


def fill_throughput(
    steps: pd.DataFrame, seq_len: float, gpus: float, warnings: list[RunWarning]
) -> Throughput | None:
    """Fill tokens_per_s (cluster), tokens_per_s_per_gpu and samples_per_s from what the log gives; says
    which figure the cluster tokens/s came from (the first of ThroughputFrom's members the log has)."""
    has = {
        c: c in steps and steps[c].notna().any()
        for c in ("tokens_per_s", "tokens_per_s_per_gpu", "samples_per_s", "step_time_s")
    }
    from_time = steps["tokens_per_step"] / steps["step_time_s"] if has["step_time_s"] else None
    source: Throughput | None
    averaged = False
    if from_time is not None and from_time.notna().mean() > 0.8 and not windowed(steps, "step_time_s"):
        # a step's own time beats a logged throughput that averages a window (Composer, OLMo)
        for col in ("tokens_per_s", "tokens_per_s_per_gpu", "samples_per_s"):
            if has[col] and windowed(steps, col):
                steps[f"{col}_logged"] = steps[col]
                steps[col] = np.nan
                has[col] = False
                averaged = True
    if has["tokens_per_s"]:
        source = Throughput(ThroughputFrom.CLUSTER_TOKENS)
    elif has["tokens_per_s_per_gpu"]:
        steps["tokens_per_s"] = steps["tokens_per_s_per_gpu"] * gpus
        source = Throughput(ThroughputFrom.PER_GPU_TOKENS)
        if from_time is not None and from_time.notna().any():
            implied = (from_time / steps["tokens_per_s_per_gpu"]).median()
            if np.isfinite(implied) and np.isfinite(gpus) and abs(implied - gpus) / gpus > 0.05:
                warnings.append(
                    RunWarning(
                        f"the logged per-GPU tokens/s implies {implied:.1f} GPUs (global batch x sequence length / "
                        f"step time / per-GPU tokens/s), not {gpus:g}: check {flag('gpus')} and {flag('seq_len')}",
                        "gpus_implied_differs",
                    )
                )
    elif has["samples_per_s"] and np.isfinite(seq_len):
        steps["tokens_per_s"] = steps["samples_per_s"] * seq_len
        source = Throughput(ThroughputFrom.SAMPLES)
    elif from_time is not None:
        steps["tokens_per_s"] = from_time
        # the logged throughput, an average over a window, is kept as *_logged
        source = Throughput(ThroughputFrom.STEP_TIME, KEPT_AS_LOGGED if averaged else "")
    else:
        steps["tokens_per_s"] = np.nan
        source = None
    if not has["tokens_per_s_per_gpu"]:
        steps["tokens_per_s_per_gpu"] = steps["tokens_per_s"] / gpus
    per_gpu_samples = "samples_per_s_per_gpu" in steps and steps["samples_per_s_per_gpu"].notna().any()
    own_samples = per_gpu_samples and not windowed(steps, "samples_per_s_per_gpu")
    if not has["samples_per_s"] and not averaged and own_samples:
        # the log's own per-GPU samples/s (torchvision's img/s): the cluster's where the GPU count is known
        steps["samples_per_s"] = steps["samples_per_s_per_gpu"] * gpus
        has["samples_per_s"] = bool(steps["samples_per_s"].notna().any())
    if not has["samples_per_s"] and has["step_time_s"]:
        steps["samples_per_s"] = steps["global_batch_size"] / steps["step_time_s"]
    return source
