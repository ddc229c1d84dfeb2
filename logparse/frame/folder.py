"""A run folder (read/runfolder.py) as a ParsedLog: its console log read as any log, or, without one, its
library's step record read as the rows a log would have given; either way with the facts its files state.

- **Facts**: each folder fact becomes an observation with its own source (`config.json: hidden_size`); a
  flat config (wandb's config.yaml, Lightning's hparams.yaml) is read through the synonym table's config
  keys. The log's line wins where both state a fact (runfacts.log_facts warns when they differ).
- **Steps**: a record's keys go to step columns through the table of its kind (Megatron-LM's TensorBoard
  tags, HF's `log_history` keys and `train/` tags, torchtitan's tags), then the synonym table; wall times
  become the `timestamp` column (a clock the step times come from).
- **A console and a record** (an HF output dir with its `train.log`, a Lightning run's console beside its
  metrics.csv): the console's HF loss dicts, which print no step number, take the record's step numbers in order
  when the two agree entry for entry (the same count, the same losses); otherwise the console is read alone, with
  a warning. A console with no step line gives way to the record's rows here; any other is handed on with the
  record's rows beside it (`ParsedLog.record`), and the steps stage decides which numbers the steps
  (steps/withrecord.py: a console that counts micro-batches is folded into the record's optimizer steps).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from ..core.schema import Row
from ..core.warnings import RunWarning
from ..patterns.keymap import KeyMap, load
from ..patterns.sets import Detection, PatternSet
from ..read.reader import Record
from ..read.runfolder import RunFolder, StepRecord
from .assemble import FactObservation, ParsedLog, RecordRows, parse_log

# Keys a library writes, by record kind, where the synonym table would read them otherwise (or not at all).
# Megatron-LM's TensorBoard tags (megatron/training/training.py, training_log: writer.add_scalar): its
# `throughput` is TFLOP/s per GPU, not tokens/s; its `iteration-time` is the log interval's mean.
MEGATRON_TAGS = {
    "lm loss": "loss", "learning-rate": "lr", "batch-size": "global_batch_size", "loss-scale": "loss_scale",
    "grad-norm": "grad_norm", "iteration-time": "step_time_s", "throughput": "reported_tflops_per_gpu",
    "num-zeros": None, "params-norm": None, "world-size": None, "skipped-train-samples": None,
}  # fmt: skip
# torchtitan's metric logger (torchtitan/components/metrics.py:501-519 at b5bcd76, MetricsProcessor.log; train.py
# :376-389 before 2024-11 with "wps"): `throughput(tps)` / `wps` are tokens/s per device (local tokens over the
# interval / non-data-parallel size), `mfu(%)` a percentage, `time_metrics/end_to_end(s)` the interval's seconds
# per step (time_delta / log_freq), memory in GiB
TORCHTITAN_TAGS = {
    "loss_metrics/global_avg_loss": "loss", "loss_metrics/global_max_loss": None, "grad_norm": "grad_norm",
    "throughput(tps)": "tokens_per_s_per_gpu", "tps": "tokens_per_s_per_gpu", "wps": "tokens_per_s_per_gpu",
    "tflops": "reported_tflops_per_gpu", "mfu(%)": "reported_mfu%", "time_metrics/end_to_end(s)": "step_time_s",
    "time_metrics/data_loading(s)": None, "time_metrics/data_loading(%)": None,
    "memory/max_reserved(GiB)": "memory_max_reserved_gib", "memory/max_active(GiB)": None,
    "memory/max_active(%)": None, "memory/max_reserved(%)": None, "memory/num_alloc_retries": None,
    "memory/num_ooms": None, "validation_metrics/loss": "eval_loss", "lr": "lr",
}  # fmt: skip
# NeMo (exp_manager's TimingCallback `train_step_timing in s`: seconds per optimizer step; the Megatron strategy's
# `reduced_train_loss`; FLOPsMeasurementCallback's `TFLOPS_per_GPU`; `consumed_samples` over all ranks), written
# by Lightning's TensorBoardLogger
NEMO_TAGS = {
    "reduced_train_loss": "loss", "train_step_timing in s": "step_time_s", "TFLOPS_per_GPU": "reported_tflops_per_gpu",
    "lr": "lr", "consumed_samples": "consumed_samples", "global_step": None, "epoch": None, "val_loss": "eval_loss",
    "grad_norm": "grad_norm", "hp_metric": None, "step": None,
}  # fmt: skip
# HF Trainer: log_history keys and the TensorBoard callback's `train/<key>` tags
HF_KEYS = {
    "loss": "loss", "learning_rate": "lr", "grad_norm": "grad_norm", "epoch": "epoch", "eval_loss": "eval_loss",
    "num_input_tokens_seen": "tokens_seen", "train_tokens_per_second": None,
    # the end of training's totals as the TensorBoard callback writes them (train/ + the final dict's keys): the
    # run's mean loss and whole-run rates, not a step's
    "train/train_loss": None, "train/train_runtime": None, "train/train_samples_per_second": None,
    "train/train_steps_per_second": None, "train/total_flos": None,
}  # fmt: skip
# Lightning (CSVLogger columns, TensorBoardLogger tags): `epoch` is the epoch index, `hp_metric` a placeholder
LIGHTNING_KEYS = {"epoch": None, "hp_metric": None, "step": None}
HF_SUMMARY_KEYS = ("train_runtime", "train_samples_per_second", "train_steps_per_second", "total_flos")


def _reading(record: StepRecord, kind: str) -> tuple[str, dict[str, str | None]]:
    """The framework a record's keys show (else the folder's kind) and the table its keys are read through."""
    keys = {k for e in record.entries[:50] for k in e}
    if keys & {"lm loss", "iteration-time", "learning-rate"}:
        return "megatron", MEGATRON_TAGS
    if keys & {"loss_metrics/global_avg_loss", "mfu(%)", "throughput(tps)"}:
        return "torchtitan", TORCHTITAN_TAGS
    if keys & {"reduced_train_loss", "train_step_timing in s"}:
        return "nemo", NEMO_TAGS
    return kind, LIGHTNING_KEYS if kind == "lightning" else HF_KEYS


def parse_folder(
    folder: RunFolder,
    sets: dict[str, PatternSet],
    forced_format: str | None = None,
    on_unmatched: Callable[[Record], None] | None = None,
    jobs: int = 1,
) -> tuple[ParsedLog, list[RunWarning]]:
    """The folder's ParsedLog and the warnings reading it gave (files not read, a console that does not
    agree with the record)."""
    warnings = [RunWarning(note, "folder_unread") for note in folder.notes]
    steps_from = None
    if folder.consoles:
        paths = [str(p) for p in folder.consoles]
        parsed = parse_log(paths[0] if len(paths) == 1 else paths, sets, forced_format, on_unmatched, jobs)
        if folder.record is not None and _number_from_record(parsed, folder.record, warnings):
            steps_from = _beside_record(parsed, folder, folder.record)
    else:
        assert folder.record is not None  # identify refuses a folder with neither
        parsed = record_log(folder, folder.record)
        steps_from = folder.record.source
    _add_facts(parsed, folder)
    _add_events(parsed, folder)
    parsed.folder = {
        "path": str(folder.root),
        "kind": folder.kind,
        "files": [{"file": f, "read": what} for f, what in folder.read],
        "unread": list(folder.notes),
        "steps_from": steps_from,
        "times_from": None,  # the steps stage's to say (report/outputs.py build_summary)
        "mapped": dict(parsed.keymap.pop("record", {})),
    }
    return parsed, warnings


def record_log(folder: RunFolder, record: StepRecord) -> ParsedLog:
    """A step record as the ParsedLog a log of it would give: a row per logged training step, an evaluation's
    entry an `eval` event at its step (its loss also on that step's row when one was logged there), as the
    console's evaluation dicts are read."""
    km = load()
    family, table = _reading(record, folder.kind)
    pattern = f"{folder.kind}.{record.kind}"
    rows: list[Row] = []
    evals: list[Row] = []
    losses: list[tuple[int, float]] = []  # (step, eval loss) of each evaluation entry
    by_step: dict[int, Row] = {}
    mapped: dict[str, str] = {}
    for i, entry in enumerate(record.entries, start=1):
        if record.kind == "trainer_state" and any(k in entry for k in HF_SUMMARY_KEYS):
            continue  # the end-of-training totals: a train_loss averaged over the run, not a step's loss
        step = int(entry["step"])
        stamp = (
            float(entry["wall_time"])
            if record.clock and isinstance(entry.get("wall_time"), (int, float))
            else None
        )
        values = _values(entry, table, km, mapped)
        if set(values) - EVALUATION:
            row: Row = {
                "kind": "step",
                "pattern": pattern,
                "line": i,
                "rank": None,
                "host": None,
                "step": step,
            }
            if stamp is not None:
                row["timestamp"] = stamp
            rows.append(row | values)
            by_step[step] = rows[-1]
        elif "eval_loss" in values:
            text = f"{record.source}: eval_loss {values['eval_loss']:.6g} at step {step}"
            ev: Row = {
                "event": "eval",
                "pattern": pattern,
                "line": i,
                "rank": None,
                "text": text,
                "step": float(step),
            }
            evals.append(ev | ({} if stamp is None else {"timestamp": stamp}))
            losses.append((step, values["eval_loss"]))
    for step, loss in losses:  # an evaluation logged at a training step's number: its loss on that row too
        if step in by_step:
            by_step[step].setdefault("eval_loss", loss)
    frame = pd.DataFrame(rows)
    if not frame.empty:
        frame = frame.sort_values(["step", "line"], kind="stable").reset_index(drop=True)
    n, matched = len(record.entries), len(rows) + len(evals)
    lines = {
        "total": n, "records": n, "matched": matched, "unmatched": n - matched, "malformed": 0, "blank": 0,
        "physical": n, "overlong": 0, "nul_prefix_bytes": 0, "invalid_utf8_chars": 0, "unattached": 0,
        "rejoined": 0,
    }  # fmt: skip
    return ParsedLog(
        path=str(folder.root / record.source.split(", ")[0]),
        formats=[family],
        detection=Detection(family, {family: len(rows)}, 1.0),
        rows=frame,
        events=pd.DataFrame(evals),
        facts={},
        lines=lines,
        notes={pattern: f"read from {record.source}, the library's own record of each logged step"},
        keymap={"record": mapped} if mapped else {},
    )


# what an evaluation's entry carries beside its loss (the epoch it ran at): none of it a training step's value
EVALUATION = frozenset({"eval_loss", "epoch"})


def _values(entry: Row, table: dict[str, str | None], km: KeyMap, mapped: dict[str, str]) -> Row:
    """An entry's values by step column (the keys it maps noted in `mapped`)."""
    values: Row = {}
    for key, value in entry.items():
        if key in ("step", "wall_time") or value is None or isinstance(value, bool):
            continue
        column, scale = _column(key, table, km)
        if column is None:
            continue
        try:
            v = float(value) * scale
        except (TypeError, ValueError):
            continue
        if not math.isfinite(v) and column != "loss":
            continue
        values[column] = v
        mapped.setdefault(key, column)
    return values


def _column(key: str, table: dict[str, str | None], km: KeyMap) -> tuple[str | None, float]:
    """The step column a record key fills, and the factor to its unit (a percentage -> a fraction)."""
    for k in (key, key.removeprefix("train/")):
        if k in table:
            col = table[k]
            if col is None:
                return None, 1.0
            return (col[:-1], 0.01) if col.endswith("%") else (col, 1.0)
    for k in (key, key.removeprefix("train/")):
        if km.ignored(k):
            return None, 1.0
        hit = km.lookup(k, "step")
        if hit is not None and hit.type != "bool" and not hit.invert:
            unit = hit.units
            scale = 0.01 if unit == "percent" and (hit.key_unit in ("%", "pct", "percent")) else 1.0
            return hit.column, scale * hit.factor
    return None, 1.0


def _add_facts(parsed: ParsedLog, folder: RunFolder) -> None:
    km = load()
    for f in folder.facts:
        parsed.facts.setdefault(f.name, []).append(FactObservation(f.value, 0, f.key, f.source))
    for source, flat in folder.configs:
        for key, value in flat.items():
            if not isinstance(value, (int, float, str)) or isinstance(value, bool):
                continue
            hit = km.lookup(key, "config")
            if (
                hit is None
                or hit.column in parsed.facts
                and any(o.source == source for o in parsed.facts[hit.column])
            ):
                continue
            try:
                converted = hit.convert(str(value))
            except ValueError:
                continue
            if converted is not None:
                parsed.facts.setdefault(hit.column, []).append(FactObservation(converted, 0, key, source))


def _beside_record(parsed: ParsedLog, folder: RunFolder, record: StepRecord) -> str | None:
    """The record's rows in place of the console's when the console has no step line (a progress bar whose
    redraws a file kept none of, a console cut before its first step): the console keeps its events, facts and line
    accounting, and the record's name is returned. Otherwise the record's rows go beside the console's
    (`parsed.record`) for the steps stage to combine, and None is returned."""
    own = record_log(folder, record)
    if own.rows.empty:
        return None
    rows = parsed.rows
    if rows.empty or "kind" not in rows or not (rows["kind"] == "step").any():
        parsed.rows = own.rows
        parsed.interval_patterns, parsed.redrawn, parsed.windows, parsed.aggregates = set(), {}, {}, {}
        parsed.postfix_bars = set()
        parsed.notes = {**parsed.notes, **own.notes}
        parsed.keymap = {**parsed.keymap, **own.keymap}
        return record.source
    mapped = own.keymap.get("record", {})
    parsed.record = RecordRows(record.source, own.rows, own.notes, mapped, _epochs(folder, record))
    return None


def _epochs(folder: RunFolder, record: StepRecord) -> dict[int, int]:
    """The epoch index of each of the record's steps, where its library writes one (Lightning's loggers: `epoch` is
    the trainer's current_epoch, lightning/pytorch/trainer/connectors/logger_connector/logger_connector.py
    log_metrics, `scalar_metrics.setdefault("epoch", ...)` in 2.6.6); empty for any other (HF's `epoch` is a
    fraction of an epoch)."""
    if _reading(record, folder.kind)[1] is not LIGHTNING_KEYS:
        return {}
    out: dict[int, int] = {}
    for e in record.entries:
        v = e.get("epoch")
        if v is None:
            continue  # an entry of another kind (the TensorBoardLogger's hp_metric at step 0)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v != int(v):
            return {}
        out[int(e["step"])] = int(v)
    return out


def _add_events(parsed: ParsedLog, folder: RunFolder) -> None:
    """The events a folder's file states (progress.txt: job starts, saved checkpoints), beside the log's."""
    if not folder.events:
        return
    extra = pd.DataFrame([{"pattern": f"{folder.kind}.progress", "rank": None, **e} for e in folder.events])
    events = extra if parsed.events.empty else pd.concat([parsed.events, extra], ignore_index=True)
    parsed.events = events


def _number_from_record(parsed: ParsedLog, record: StepRecord, warnings: list[RunWarning]) -> bool:
    """The console's HF loss dicts numbered by trainer_state.json's log_history: the i-th dict with a loss is
    the i-th entry with one, when the counts and the losses agree. False (with a warning) when they do not: the
    record is another run's (or a resumed run's), and the console is read alone."""
    if record.kind != "trainer_state" or parsed.rows.empty or "loss" not in parsed.rows:
        return True
    rows = parsed.rows
    dicts = rows.index[rows["pattern"].astype(str).str.startswith("hf_trainer.") & rows["loss"].notna()]
    entries = [e for e in record.entries if "loss" in e and not any(k in e for k in HF_SUMMARY_KEYS)]
    if not len(dicts):
        return True
    if len(dicts) != len(entries) or any(
        not math.isclose(float(rows.at[i, "loss"]), float(e["loss"]), rel_tol=1e-3, abs_tol=1e-4)
        for i, e in zip(dicts, entries, strict=True)
    ):
        warnings.append(
            RunWarning(
                f"the console's {len(dicts)} loss dicts do not match {record.source}'s {len(entries)} logged losses "
                "(another run, or a resumed one appended): steps numbered from the console alone",
                "source_differs",
            )
        )
        return False
    steps = pd.Series([int(e["step"]) for e in entries], index=dicts)
    if "step" not in rows or not (rows.loc[dicts, "step"] == steps).all():
        parsed.rows.loc[dicts, "step"] = steps.astype(rows["step"].dtype if "step" in rows else "int64")
    return True
