"""The run's facts: the last value of each the log states (`log_facts`), and the few throughput needs, each
the option's when one is given, with a warning when the log says otherwise (`option_or_log`, the GPUs in
`_resolve_gpus`), else the log's or derived from it with a warning (`settle_grad_accum`, `run_facts`).
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
import pandas as pd

from ..core.errors import flag
from ..core.facts import Fact, Options
from ..core.plausible import implausible, shown_value
from ..core.warnings import RunWarning
from ..frame.assemble import FactObservation, ParsedLog
from ..specs.devices import LISTED_FACTS, NCCL_FACTS, communicator_ranks, listed_gpus

# Facts that mark or count something across lines, never run facts of their own: NCCL's lines (the world size they
# show is communicator_ranks'), a repeat's banner (a fold, a trial: where segments.RUN_IDENTITY sees a new run)
MARKER_FACTS = frozenset((*NCCL_FACTS, "repeat_index"))


def log_facts(parsed: ParsedLog, warnings: list[RunWarning]) -> dict[str, Fact]:
    """The last value of every fact the log states; a fact that changes is reported."""
    facts: dict[str, Fact] = {}
    evals = _evaluations(parsed)
    steps = _step_lines(parsed)
    last_step = max(steps, default=math.inf)  # (infinity with no step row: every statement is before the end)
    for name, stated in ((n, s) for n, s in parsed.facts.items() if n not in MARKER_FACTS):
        stated = _plausible(name, stated, warnings)
        if not stated:
            continue
        # a run folder's files (config.json, wandb-metadata.json) state facts beside the log: the log's line wins,
        # with a warning naming both when they differ
        # a free-form statement in the header an evaluation prints ("***** Running Evaluation *****" then "Per
        # device batch size = 32") is the evaluation's, never the run's, nor a second value beside the framework's
        observations = [
            o
            for o in stated
            if o.source == "log" and not (o.free_form and o.line not in steps and _just_after(o.line, evals))
        ]
        beside = [o for o in stated if o.source != "log"]
        if not observations and not beside:
            continue
        if not observations:
            facts[name] = Fact(beside[0].value, beside[0].source, beside[0].pattern)
            continue
        observations = _framework_first(name, observations, warnings)
        if name == "total_params":
            observations = _without_parts(observations)
        # a header printed right after an evaluation starts ("Num examples = 32") is the eval set's
        # (a step's own line is no header, whatever came before it)
        observations = [
            o for o in observations if o.line in steps or not _just_after(o.line, evals)
        ] or observations
        # a free-form statement after the last step (ultralytics' final validation prints the fused model's summary,
        # a script its test set's size) is of what follows the training, not of it, where the log stated it before
        observations = [o for o in observations if not (o.free_form and o.line > last_step)] or observations
        last = observations[-1]
        precise = _more_precise(name, beside, last, warnings)
        if precise is not None:
            facts[name] = Fact(
                precise.value,
                precise.source,
                f"{precise.pattern}; the log prints {last.value!r} (line {last.line})",
            )
            continue
        distinct = list(dict.fromkeys(repr(o.value) for o in observations))
        if len(distinct) > 1 and not name.startswith("final_") and name not in LISTED_FACTS:
            warnings.append(
                RunWarning(
                    f"the log states {name} more than once with different values ({', '.join(distinct[:4])}); "
                    f"using the last, {last.value!r} (line {last.line})",
                    "fact_repeated",
                    line=last.line,
                )
            )
        facts[name] = Fact(last.value, "log", f"line {last.line} ({last.pattern})")
    if "world_size" not in facts and (ranks := communicator_ranks(parsed.facts)) is not None:
        facts["world_size"] = ranks  # (NCCL's own lines, where the log states no world size)
    _add_derived(facts, warnings)
    return facts


def _add_derived(facts: dict[str, Fact], warnings: list[RunWarning]) -> None:
    """The facts a one-process log implies where it does not state them: the global batch, the model's size."""
    _add_one_process_batch(facts, warnings)
    _add_every_parameter(facts)


def _one_process(facts: dict[str, Fact]) -> bool:
    """Whether the log states no more than one process (no world size, GPU count or data-parallel size past 1)."""
    return all(
        facts[name].value == 1 for name in ("world_size", "gpu_count", "data_parallel_size") if name in facts
    )


def _add_every_parameter(facts: dict[str, Fact]) -> None:
    """The model's parameter count where a one-process log states only the trainable count: every parameter
    trains unless the log says otherwise (a script's `sum(p.numel() for p in model.parameters() if
    p.requires_grad)` of a model it trains whole; where some are frozen the log prints both counts, as peft's
    print_trainable_parameters does, `trainable params: ... || all params: ...`). Not with several processes:
    there a trainable count may be one shard's (FSDP prints per-rank counts, specs/models.py)."""
    trainable = facts.get("trainable_params")
    if trainable is None or "total_params" in facts or not _one_process(facts):
        return
    facts["total_params"] = Fact(
        trainable.value,
        "derived",
        f"{trainable.detail}: the trainable count, the only one the log states",
    )


# the name the global batch taken from a batch of no scope is known by (run_facts drops it where the GPUs are many)
ONE_PROCESS_BATCH = "the batch size: one process, no gradient accumulation stated"


def _add_one_process_batch(facts: dict[str, Fact], warnings: list[RunWarning]) -> None:
    """The global batch of a one-process log that states only a batch of no scope, with the warning that says so."""
    one = _one_process_batch(facts)
    if one is None:
        return
    facts["global_batch_size"] = one
    warnings.append(
        RunWarning(
            f"the global batch is not stated: taken as the batch size {one.value} ({facts['batch_size'].detail}), as "
            f"the log states no more than one process and no gradient accumulation; pass {flag('global_batch')} if "
            "the run accumulated gradients or ran on several GPUs",
            "global_batch_derived",
        )
    )


def _one_process_batch(facts: dict[str, Fact]) -> Fact | None:
    """The global batch of a log that states a batch size of no scope (`batch_size: 32`), no global batch, no
    more than one process and no gradient accumulation: with one process and no accumulation the loop's batch is
    the optimizer step's (a reader of a custom loop's log takes it so; the assumption is said in a warning)."""
    bare, micro = facts.get("batch_size"), facts.get("micro_batch_size")
    if "global_batch_size" in facts or bare is None or micro is None or bare.value != micro.value:
        return None
    if not _one_process(facts):
        return None
    accum = facts.get("grad_accum")
    if accum is not None and accum.value != 1:
        return None
    if not isinstance(bare.value, int) or bare.value < 1:
        return None
    return Fact(bare.value, "derived", f"{bare.detail}: {ONE_PROCESS_BATCH}")


def _more_precise(
    name: str, beside: list[FactObservation], last: FactObservation, warnings: list[RunWarning]
) -> FactObservation | None:
    """Of a run folder's files' values of a fact the log states (`last`), the one that is the log's figure with
    more digits (HF's final dict prints 400.9 for the file's 400.874), if any; each that differs is warned of."""
    precise = None
    for o in beside:
        if _printed_as(o.value, last.value):
            if o.value != last.value and precise is None:
                precise = o
            continue
        warnings.append(
            RunWarning(
                f"{o.where} says {name} {o.value!r}, the log says {last.value!r} (line {last.line}); using the log's",
                "source_differs",
                line=last.line,
            )
        )
    return precise


def session_facts(parsed: ParsedLog, facts: dict[str, Fact], lo: float, hi: float) -> dict[str, Fact]:
    """The run's facts as one stretch of the log (lines lo..hi-1: one training session of several in a file)
    states them: each fact the stretch states itself, its last value there; the others the whole log's."""
    own = dict(facts)
    for name, stated in parsed.facts.items():
        inside = [o for o in stated if o.source == "log" and lo <= o.line < hi]
        inside = [o for o in inside if implausible(name, o.value) is None]
        if inside:
            last = inside[-1]
            own[name] = Fact(last.value, "log", f"line {last.line} ({last.pattern})")
    return own


def _framework_first(
    name: str, observations: list[FactObservation], warnings: list[RunWarning]
) -> list[FactObservation]:
    """The observations of fact `name` to choose from: the framework's own lines where it states the fact, else the
    free-form ones (a config echo, a `Key: value` line, read in any log); a free-form value that differs from the
    framework's is said, once, with both lines."""
    own = [o for o in observations if not o.free_form]
    if not own or len(own) == len(observations):
        return observations
    last = own[-1]
    differing = [o for o in observations if o.free_form and not _printed_as(o.value, last.value)]
    if differing and name not in LISTED_FACTS:
        other = differing[-1]
        warnings.append(
            RunWarning(
                f"the log states {name} twice with different values: {other.value!r} at {other.where}, "
                f"{last.value!r} at {last.where}; using the framework's own line {last.line}",
                "fact_repeated",
                line=other.line,
            )
        )
    return own


def _plausible(name: str, stated: list[FactObservation], warnings: list[RunWarning]) -> list[FactObservation]:
    """The observations of fact `name` whose value is in its plausible range (core/plausible.py); each other one
    is left out with a warning (the run is analysed as if it were not stated)."""
    kept = []
    for o in stated:
        why = implausible(name, o.value)
        if why is None:
            kept.append(o)
            continue
        warnings.append(
            RunWarning(
                f"{o.where} states {name} {shown_value(o.value)}: {why}; left out",
                "fact_implausible",
                line=o.line if o.source == "log" else None,
            )
        )
    return kept


def _printed_as(exact: Any, printed: Any) -> bool:
    """Whether a file's value and a log line's are one figure: equal, or the line's the file's float printed to
    fewer digits (transformers' `.4g`: within 5e-4 of it, relatively)."""
    if repr(exact) == repr(printed):
        return True
    numbers = (int, float)
    if isinstance(exact, bool) or isinstance(printed, bool):
        return False
    if isinstance(exact, float) and isinstance(printed, numbers) and math.isfinite(exact):
        return math.isclose(exact, float(printed), rel_tol=5e-4, abs_tol=0.0)
    return isinstance(exact, numbers) and isinstance(printed, numbers) and float(exact) == float(printed)


EVAL_HEADER_LINES = 3


def _without_parts(observations: list[FactObservation]) -> list[FactObservation]:
    """A parameter count stated beside the counts it sums (Le-Dai/advertisement_recommendation's logs/train.log:
    "Total parameters: 160,955,137", then "Sparse params: 96 tensors, 158,453,312 parameters" and "Dense params:
    380 tensors, 2,501,825 parameters"): the parts are not the model's count."""
    values = [o.value for o in observations]
    if len(values) < 3 or not all(isinstance(v, int) and v > 0 for v in values):
        return observations
    for whole in set(values):
        parts = [o for o in observations if o.value != whole]
        if len(parts) >= 2 and sum(o.value for o in parts) == whole:
            return [o for o in observations if o.value == whole]
    return observations


def _step_lines(parsed: ParsedLog) -> set[int]:
    """The lines of the log's step rows (every row's, where the rows name no kind)."""
    rows = parsed.rows
    if rows.empty or "line" not in rows:
        return set()
    if "kind" in rows:
        rows = rows[rows["kind"] == "step"]
    return set(pd.to_numeric(rows["line"], errors="coerce").dropna().astype(int))


@dataclass(frozen=True)
class _Evaluations:
    """Where the log's evaluations stand: each one's first line and, over those that start before it, the furthest
    line any of them reached (an evaluation printed over lines reaches its last)."""

    firsts: list[int]
    reach: list[int]


def _evaluations(parsed: ParsedLog) -> _Evaluations:
    if parsed.events.empty or "event" not in parsed.events:
        return _Evaluations([], [])
    mine = parsed.events[parsed.events["event"] == "eval"]
    ends = mine["last_line"].fillna(mine["line"]) if "last_line" in mine else mine["line"]
    spans = sorted((int(a), int(b)) for a, b in zip(mine["line"], ends, strict=True))
    return _Evaluations([a for a, _ in spans], list(itertools.accumulate((b for _, b in spans), max)))


def _just_after(line: int, evals: _Evaluations) -> bool:
    """Whether a line is one of an evaluation's or comes at most EVAL_HEADER_LINES after its last."""
    i = bisect.bisect_left(evals.firsts, line) - 1
    return i >= 0 and line - evals.reach[i] <= EVAL_HEADER_LINES


def _grad_accum(facts: dict[str, Fact], rows: pd.DataFrame) -> Fact | None:
    if "grad_accum" in facts:
        return facts["grad_accum"]
    if "num_microbatches" in facts:
        f = facts["num_microbatches"]
        return Fact(f.value, "log", f"{f.detail}: micro-batches per step")
    if {"micro_step", "step"} <= set(rows.columns):
        both = rows.dropna(subset=["micro_step", "step"])
        both = both[both["step"] > 0]
        if len(both):
            ratio = (both["micro_step"] / both["step"]).median()
            if ratio >= 1 and abs(ratio - round(ratio)) < 1e-6:
                return Fact(int(round(ratio)), "derived", "micro_step / global_step on the throughput lines")
    return None


def settle_grad_accum(
    opts: Options, facts: dict[str, Fact], steps: pd.DataFrame, warnings: list[RunWarning]
) -> Fact | None:
    """The gradient accumulation: the option (warning if the log differs), else the log's or a derived one;
    recorded in `facts`."""
    if opts.grad_accum is not None:
        stated = option_or_log(
            "grad_accum", opts.grad_accum, facts, warnings, "gradient accumulation", opts.source("grad_accum")
        )
        facts["grad_accum"] = stated
    ga = _grad_accum(facts, steps)
    if ga is not None:
        facts.setdefault("grad_accum", ga)
    return ga


@overload
def prefer_option(
    option: Fact,
    log: Fact | None,
    warnings: list[RunWarning],
    differs: Callable[[Fact, Fact], str],
    same: Callable[[Any, Any], bool] = ...,
) -> Fact: ...
@overload
def prefer_option(
    option: Fact | None,
    log: Fact | None,
    warnings: list[RunWarning],
    differs: Callable[[Fact, Fact], str],
    same: Callable[[Any, Any], bool] = ...,
) -> Fact | None: ...
def prefer_option(
    option: Fact | None,
    log: Fact | None,
    warnings: list[RunWarning],
    differs: Callable[[Fact, Fact], str],
    same: Callable[[Any, Any], bool] = operator.eq,
) -> Fact | None:
    """The one rule between what the user said and what the log says: the option wins, with an
    `option_differs` warning (the sentence `differs(option, log)`) when the log states another value;
    without an option, the log's. `same(option value, log value)` says when they agree."""
    if option is None:
        return log
    if log is not None and not same(option.value, log.value):
        warnings.append(RunWarning(differs(option, log), "option_differs"))
    return option


def option_or_log(
    name: str,
    cli_value: Any,
    facts: dict[str, Fact],
    warnings: list[RunWarning],
    label: str,
    source: str = "cli",
) -> Fact | None:
    """A run fact the user may give: prefer_option between the option (from `source`: cli, api,
    logparse.toml, ...) and the log's fact `name`."""
    said = "the command line" if source == "cli" else f"the {source}"
    return prefer_option(
        None if cli_value is None else Fact(cli_value, source),
        facts.get(name),
        warnings,
        lambda o, log: (
            f"{label}: {said} says {o.value}, the log says {log.value} ({log.detail}); using {said}"
        ),
    )


def _resolve_gpus(opts: Options, facts: dict[str, Fact], warnings: list[RunWarning]) -> Fact | None:
    """The number of GPUs: the option (a warning when the log's world size differs), else the log's world
    size, else derived (data-parallel x model-parallel sizes, tokens per step / per DP rank, global batch /
    (micro batch x grad accumulation)) with a warning saying what to pass."""
    world = facts.get("world_size") or _counted_gpus(facts)
    if opts.gpus is not None:
        return prefer_option(
            Fact(opts.gpus, opts.source("gpus")),
            world,
            warnings,
            lambda o, log: (
                f"{flag('gpus', o.value)} disagrees with the log's world size {log.value} ({log.detail}); "
                f"using {flag('gpus', o.value)}: per-GPU throughput and MFU divide by it"
            ),
            same=lambda gpus, world_size: int(world_size) == gpus,
        )
    if world is not None:  # (a count of devices says what it is)
        what = "" if "world_size" not in facts else "world size, " if world.source == "log" else "GPUs, "
        return Fact(int(world.value), world.source, f"{what}{world.detail}")
    return _derived_gpus(facts, warnings)


def _derived_gpus(facts: dict[str, Fact], warnings: list[RunWarning]) -> Fact | None:
    """The GPUs a log that states no count implies: data-parallel x model-parallel sizes, tokens per step / per
    DP rank, global batch / (micro batch x grad accumulation); each with a warning saying what to pass."""
    dp = facts.get("data_parallel_size")
    model_parallel_size = model_parallel(facts)
    if dp is not None:
        warnings.append(
            RunWarning(
                f"the number of GPUs is not stated: taken as data-parallel size {dp.value} x model-parallel "
                f"{model_parallel_size} from the log; pass {flag('gpus')} if tensor/pipeline parallelism is not in the log",
                "gpus_inferred",
            )
        )
        return Fact(
            int(dp.value) * model_parallel_size,
            "derived",
            f"data-parallel size ({dp.detail}) x {model_parallel_size}",
        )
    per_dp, total = facts.get("tokens_per_dp_rank"), facts.get("tokens_per_step")
    if per_dp is not None and total is not None and per_dp.value:
        dp_size = int(round(total.value / per_dp.value))
        warnings.append(
            RunWarning(
                f"the number of GPUs is not stated: taken as the data-parallel size {dp_size} = tokens per step "
                f"{total.value:,} / tokens per DP rank {per_dp.value:,}; pass {flag('gpus')} if the run also used tensor, "
                "pipeline or context parallelism",
                "gpus_inferred",
            )
        )
        return Fact(dp_size, "derived", "tokens per step / tokens per data-parallel rank")
    gbs, mbs, ga = facts.get("global_batch_size"), facts.get("micro_batch_size"), facts.get("grad_accum")
    if gbs is not None and mbs is not None and ga is not None and mbs.value and ga.value:
        dp_size = int(gbs.value) // (int(mbs.value) * int(ga.value))
        if dp_size >= 1 and dp_size * int(mbs.value) * int(ga.value) == int(gbs.value):
            warnings.append(
                RunWarning(
                    f"the number of GPUs is not stated: taken as the data-parallel size {dp_size} = global batch "
                    f"{gbs.value} / (micro batch {mbs.value} x grad accumulation {ga.value}); pass {flag('gpus')} if the "
                    "run also used tensor or pipeline parallelism",
                    "gpus_inferred",
                )
            )
            return Fact(dp_size, "derived", "global batch / (micro batch x grad accumulation)")
    return None


def model_parallel(facts: dict[str, Fact]) -> int:
    """The GPUs one model replica spans: the tensor, pipeline and context parallel sizes the log states."""
    size = 1
    for name in ("tensor_parallel_size", "pipeline_parallel_size", "context_parallel_size"):
        if name in facts and facts[name].value:
            size *= int(facts[name].value)
    return size


def _counted_gpus(facts: dict[str, Fact]) -> Fact | None:
    """The GPUs the log counts where it states no world size: a single-device recipe's one, else the count a
    script prints of its devices (`Using 4 x NVIDIA A100-SXM4-80GB`)."""
    single = facts.get("single_device")
    if single is not None and single.value is True:
        return Fact(1, single.source, f"one device: a single-device recipe, {single.detail}")
    count = facts.get("gpu_count")
    if count is not None:
        return Fact(int(count.value), count.source, f"the devices the log lists, {count.detail}")
    return None


def run_facts(
    parsed: ParsedLog, opts: Options, facts: dict[str, Fact], steps: pd.DataFrame, warnings: list[RunWarning]
) -> tuple[Fact | None, Fact | None, Fact | None]:
    """The GPUs, sequence length and global batch (the option's, else the log's or its step lines'),
    recorded in `facts` with the target tokens; a batch given from outside is checked against the log's
    consumed samples."""
    gpus = _resolve_gpus(opts, facts, warnings)
    if gpus is None:
        gpus = listed_gpus(parsed.facts)  # nothing better: the GPUs of the log's nvidia-smi listing
        if gpus is not None:
            warnings.append(
                RunWarning(
                    f"the number of GPUs is not stated: taken as the {gpus.detail}; pass {flag('gpus')} if the job "
                    "spans more than one node",
                    "gpus_inferred",
                )
            )
    seq = option_or_log("seq_len", opts.seq_len, facts, warnings, "sequence length", opts.source("seq_len"))
    if seq is None and "seq_len" in steps and steps["seq_len"].notna().any():
        seq = Fact(int(steps["seq_len"].median()), "log", "median of the step lines' sequence length")
    one = facts.get("global_batch_size")
    if one is not None and one.detail.endswith(ONE_PROCESS_BATCH) and gpus is not None and gpus.value != 1:
        # (on several GPUs a batch of no scope may be either: the global batch and its warning go)
        del facts["global_batch_size"]
        warnings[:] = [w for w in warnings if w.code != "global_batch_derived"]
    gbs = option_or_log(
        "global_batch_size",
        opts.global_batch,
        facts,
        warnings,
        "global batch size",
        opts.source("global_batch"),
    )
    if gbs is None and "global_batch_size" in steps and steps["global_batch_size"].notna().any():
        gbs = Fact(int(steps["global_batch_size"].iloc[-1]), "log", "step lines")
    if gbs is None:
        gbs = _batch_of_tokens(facts, seq)
    if gbs is None:
        gbs = _batch_of_micro(facts, gpus, warnings)
    if opts.target_tokens is not None:
        facts["target_tokens"] = Fact(float(opts.target_tokens), opts.source("target_tokens"))
    if opts.gpu_hour_cost is not None:
        facts["gpu_hour_cost"] = Fact(float(opts.gpu_hour_cost), opts.source("gpu_hour_cost"))
    for key, fact in (("gpus", gpus), ("seq_len", seq), ("global_batch_size", gbs)):
        if fact is not None:
            facts[key] = fact
    if gbs is not None and gbs.source != "log":
        _check_batch_against_consumed(steps, int(gbs.value), gbs.source, warnings)
    return gpus, seq, gbs


def _batch_of_tokens(facts: dict[str, Fact], seq: Fact | None) -> Fact | None:
    """The global batch the log's tokens per step make of its sequence length, where it divides them whole (a
    config echo's "Batch size: 32", "Sequence length: 256", "Tokens per batch: 8192": 32 sequences a step)."""
    tokens = facts.get("tokens_per_step")
    if tokens is None or seq is None or not seq.value or float(tokens.value) % float(seq.value):
        return None
    return Fact(
        int(float(tokens.value) // float(seq.value)),
        "derived",
        f"tokens per step ({tokens.detail}) / sequence length ({seq.detail})",
    )


def _batch_of_micro(facts: dict[str, Fact], gpus: Fact | None, warnings: list[RunWarning]) -> Fact | None:
    """The global batch the log's own micro batch and accumulation make over the GPUs, where it states no global
    batch and no model parallelism (Lightning's `accumulate_grad_batches=4` beside a DataLoader's `batch_size: 4`
    on 8 devices: 128). Every factor is stated or given: where the log states no accumulation, whether the loop
    accumulated is not known and the global batch stays unknown."""
    micro, accum = facts.get("micro_batch_size"), facts.get("grad_accum")
    if micro is None or accum is None or gpus is None or micro.source != "log" or accum.source != "log":
        return None
    if not micro.value or not accum.value or not gpus.value:
        return None
    dp = facts.get("data_parallel_size")
    if model_parallel(facts) != 1 or (dp is not None and dp.value not in (None, 1)):
        return None  # (the data-parallel ranks are not the GPUs then)
    bare = facts.get("batch_size")
    if bare is not None and bare.value == micro.value and int(gpus.value) != 1:
        return None  # (a batch the log names no scope of is the micro batch on one process only)
    gbs = int(micro.value) * int(gpus.value) * int(accum.value)
    warnings.append(
        RunWarning(
            f"the global batch is not stated: taken as micro batch {micro.value} x {gpus.value} GPU(s) x grad "
            f"accumulation {accum.value} = {gbs}; pass {flag('global_batch')} if the model is split over GPUs",
            "global_batch_derived",
        )
    )
    return Fact(
        gbs,
        "derived",
        f"micro batch ({micro.detail}) x GPUs ({gpus.detail or gpus.source}) x grad accumulation ({accum.detail})",
    )


def _check_batch_against_consumed(
    steps: pd.DataFrame, gbs: int, source: str, warnings: list[RunWarning]
) -> None:
    """A global batch given from outside the log against the samples the log counts per step."""
    if "consumed_samples" not in steps or steps["consumed_samples"].notna().sum() == 0:
        return
    rows = steps.dropna(subset=["consumed_samples"])
    if len(rows) >= 2:
        d = rows.groupby("segment")["consumed_samples"].diff() / rows.groupby("segment")["step"].diff()
        per_step = float(d[d > 0].median()) if (d > 0).any() else math.nan
        how = "grow by"
    else:
        last = rows.iloc[-1]
        per_step = float(last["consumed_samples"]) / float(last["step"]) if last["step"] > 0 else math.nan
        how = f"({float(last['consumed_samples']):,.0f} at step {int(last['step'])}) imply"
    if np.isfinite(per_step) and abs(per_step - gbs) / gbs > 0.01:
        warnings.append(
            RunWarning(
                f"the global batch {gbs:,} ({source}) is not what the log counts: its consumed samples {how} "
                f"{per_step:,.0f} per step; tokens/s and MFU use {gbs:,}",
                "global_batch_differs",
            )
        )
