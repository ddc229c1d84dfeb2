"""The shape of summary.json as types: one TypedDict per block, one field per key the file has.

It lives in the core because the stages fill its blocks (steps.Segment.as_dict gives a `SegmentPart`,
phases.Dip.as_dict a `DipPart`, ...); report.outputs.build_summary puts them together as a `Summary`, and the
text summary, the figure, batch, compare and `api.analyze` read it; these types name what they may read. They describe, they change nothing: the values
are the plain dicts and lists json.dumps writes, in the order summary.json has always had (README,
"### `summary.json`"). A key that is absent from some summaries is declared in a `total=False` class (Python
3.10 has no NotRequired); a key that is always written but may be null is typed `X | None`.
tests/test_summary_types.py checks these against real summaries, so the types cannot drift from the file.

Names end in `Part` (the summary's own word for a block: `_hardware_part`), so that none repeats a class of
the stages that fill them (phases.Dip, steps.Restart, phases.window.Window, ...). Maps keyed by what a log
names (`facts`, `detection.scores`, `model.sources`, `flagged_steps`, `generic.mapped`) are `dict[str, X]`:
their keys are open by nature.
"""

from __future__ import annotations

from typing import Any, TypedDict


class DetectionPart(TypedDict):
    """summary["detection"]: each set's detection score and how sure the choice is."""

    scores: dict[str, int]  # keyed by pattern-set name
    confidence: float | None


class LinesPart(TypedDict):
    """summary["lines"]: the file's lines and records, how many matched (frame.assemble)."""

    total: int
    records: int
    matched: int
    unmatched: int
    malformed: int
    blank: int
    physical: int
    overlong: int
    nul_prefix_bytes: int
    invalid_utf8_chars: int
    unattached: int
    rejoined: int


class HardwarePart(TypedDict):
    """summary["hardware"]: the device, its dtype and dense peak, each with where it came from."""

    name: str | None
    name_source: str | None
    name_detail: str | None
    dtype: str
    dtype_source: str
    peak_tflops_per_gpu: float | None
    peak_source: str | None
    dense: bool


class _ModelRequired(TypedDict):
    params: float | None
    layers: int | None
    hidden: int | None
    heads: int | None
    kv_heads: int | None
    ffn_hidden: int | None
    seq_len: int | None
    vocab: int | None
    source: str | None
    sources: dict[str, str]  # keyed by dimension, the ones known


class ModelPart(_ModelRequired, total=False):
    """summary["model"]: the model's dimensions and the source of each."""

    source_detail: str  # when the source is a preset: which, and why (--model, or the log's count is its own)


class FlopsTermPart(TypedDict):
    flops: float | None
    share: float | None


class FlopsTermsPart(TypedDict):
    """summary["flops_terms"]: FLOPs per token by term, and each term's share."""

    dense: FlopsTermPart
    attention: FlopsTermPart
    logits: FlopsTermPart


class FlopsPart(TypedDict):
    """The summary's FLOPs keys (top level, spread in by build_summary): the formula, FLOPs per token and
    its terms, the HFU convention."""

    formula: str | None
    flops_per_token: float | None
    flops_terms: FlopsTermsPart | None
    hfu_flops_per_token: float | None
    recompute: str
    hfu_convention: str


class FlopsStatedPart(TypedDict):
    """summary["flops_stated"]: the FLOPs per token the log states (its own count, formula `log` when MFU uses it),
    beside logparse's count from the log's model dims."""

    flops_per_token: float
    detail: str  # the line (or the per-step figure and tokens per step it came from)
    used: bool  # MFU counts with it (no --formula or --flops-per-token given)
    formula: str | None  # logparse's formula for the check (palm), None when the dims do not allow it
    from_dims: float | None
    ratio: float | None  # the log's over logparse's
    check: str  # the sentence


class StepsPart(TypedDict):
    """summary["steps"]: how many, first and last, how numbered, where time and throughput came from."""

    count: int
    first: int
    last: int
    numbering: str
    first_step_counted_as: int | None
    step_time_source: str | None
    throughput_source: str | None


class _AveragesRequired(TypedDict):
    start_step: int | None  # None only in a stable block without a stable window
    end_step: int | None
    steps: int
    log_rows: int
    # report.outputs.WINDOW_FIGURES, in order
    mfu_mean: float | None
    mfu_median: float | None
    hfu_mean: float | None
    tokens_per_s: float | None
    tokens_per_s_per_gpu: float | None
    step_time_s: float | None
    tflops_per_gpu: float | None
    samples_per_s: float | None


class AveragesPart(_AveragesRequired, total=False):
    """Time-weighted averages over some rows (report.outputs._window_stats)."""

    averaging: str  # absent when there are no rows


class StablePart(AveragesPart):
    """summary["stable"]: the stable window's averages, which regime it is, and the rule that found it."""

    regime: int | None
    regimes_in_run: int
    rule: str


class FigureStatsPart(TypedDict):
    mean: float
    median: float
    min: float
    max: float
    std: float
    std_sample: float


class _WindowRequired(TypedDict):
    rule: str
    count: int
    first_step: int
    last_step: int
    complete: bool
    statistics: str
    # phases.window.FIGURES, in order; None when the log has no such column
    step_time_s: FigureStatsPart | None
    tokens_per_s: FigureStatsPart | None
    tokens_per_s_per_gpu: FigureStatsPart | None
    samples_per_s: FigureStatsPart | None
    tflops_per_gpu: FigureStatsPart | None
    mfu: FigureStatsPart | None
    hfu: FigureStatsPart | None
    reported_tflops_per_gpu: FigureStatsPart | None
    reported_mfu: FigureStatsPart | None
    reported_hfu_tflops_per_gpu: FigureStatsPart | None
    loss: FigureStatsPart | None


class WindowPart(_WindowRequired, total=False):
    """summary["window"]: the peer-style window asked for with --window/--last/--skip (phases.window.stats)."""

    note: str  # when the window is not what was asked for


class EtaPart(TypedDict):
    """summary["eta"]: the projected time to train --target-tokens."""

    target_tokens: float
    tokens_per_s: float | None
    seconds: float | None
    days: float | None
    basis: str


class RegimePart(TypedDict):
    """One of summary["regimes"]."""

    start_step: int
    end_step: int
    log_rows: int
    mfu_median: float | None
    mfu_mean: float | None
    tokens_per_s: float | None
    step_time_s: float | None
    wall_s: float | None
    noise: float | None
    stable: bool


class _NearEventRequired(TypedDict):
    event: str
    line: int
    text: str


class NearEventPart(_NearEventRequired, total=False):
    """An event line next to a dip or a shift (phases.phases._events_between)."""

    step: int  # when the event names its step


class ShiftPart(TypedDict):
    """One of summary["shifts"]."""

    at_step: int
    line: int
    mfu_before: float | None
    mfu_after: float | None
    change: float | None
    near_events: list[NearEventPart]


class DipPart(TypedDict):
    """One of summary["dips"] (phases.Dip.as_dict)."""

    start_step: int
    end_step: int
    log_rows: int
    depth: float
    min_mfu: float | None
    lost_s: float | None
    near_events: list[NearEventPart]


class RestartPart(TypedDict):
    """One of summary["restarts"] (steps.run.Restart.as_dict)."""

    at_step: int
    resumed_from: int | None
    resumed_from_source: str
    line: int
    redone_steps: int
    lost_s: float | None
    cause: str | None  # the last error line before the new attempt, None when the log has none
    cause_line: int | None


class _SegmentRequired(TypedDict):
    kind: str
    first_step: int
    last_step: int
    line: int
    segment: int
    run: int


class SegmentPart(_SegmentRequired, total=False):
    """One of summary["segments"] (steps.segments.Segment.as_dict)."""

    epoch: int
    reason: str


class RejectedPart(TypedDict):
    pattern: str
    median: float | None
    ratio_to_chosen: float | None
    implied_step_time_s: float | None


class SourcePart(TypedDict):
    """One of summary["sources"]: which pattern's rate was believed (steps.sources.Choice.as_dict)."""

    quantity: str
    chosen: str
    checked_against: str
    rejected: list[RejectedPart]


class SlowRankPart(TypedDict):
    rank: int
    steps: int
    share: float | None


class _RanksRequired(TypedDict):
    printing: int


class RanksPart(_RanksRequired, total=False):
    """summary["ranks"]: when several ranks print every step, the spread of their times, the stragglers."""

    step_time_spread_s_median: float | None
    step_time_spread_s_max: float | None
    slowest: list[SlowRankPart]


class ConventionFiguresPart(TypedDict):
    tflops_per_gpu: float | None
    mfu: float | None
    peak_tflops: float | None


class OursPart(TypedDict):
    formula: str
    tflops_per_gpu: float | None
    mfu: float | None


class _ReportedRequired(TypedDict):
    tflops_per_gpu_mean: float | None
    mfu_mean: float | None
    agrees_within: float | None


class ReportedPart(_ReportedRequired, total=False):
    """summary["reported"]: the framework's own figures against logparse's (report.crosscheck), each key
    present once the check got that far."""

    quantity: str
    framework: str
    framework_formula: str
    framework_note: str
    ours_under_framework_convention: ConventionFiguresPart
    ours: OursPart
    differs_from_ours_by: float | None


class FactPart(TypedDict):
    """One of summary["facts"]: a run fact, where it came from, and the line or option that gave it."""

    value: Any  # as the log or option gave it: a number, a flag, a name
    source: str
    detail: str


class StatusPart(TypedDict):
    """summary["status_detail"] (phases.status.Status.as_dict)."""

    status: str | None
    detail: str
    planned_steps: int | None
    planned_from: str | None
    last_step: int


class KeyPart(TypedDict):
    """summary["generic"]["keys"][<printed key>]: what the key became and by which rule (patterns/keymap.py)."""

    # "column" (a step column), "fact" (a run fact), "kept" (an x_ column) or "skipped" (not read)
    kind: str
    column: str | None  # the column or fact; None when skipped
    rule: str | None  # the rules that read it, outermost first, "+"-joined (keymap.RULES)
    unit: str | None  # the unit the value printed or the key named
    # printed number x scale = the column's value; None: not one factor (a rate, a bare percentage)
    scale: float | None
    why: str  # the rule's reason in words


class GenericPart(TypedDict):
    """summary["generic"]: keys the generic set read through the synonym table, and what went where."""

    synonyms: str
    mapped: dict[str, str]  # the log's key -> the column
    facts: dict[str, str]  # the log's key -> the fact
    kept: dict[str, str]  # the log's key -> the column it is kept as
    keys: dict[str, KeyPart]  # the log's key -> what it became, by which rule
    rules: dict[str, str]  # a convention those keys were read by (loss, memory) -> the rule in words


class WholeRunPart(TypedDict):
    """summary["whole_run"] (report.whole_run): the average over the entire run, warmup, evaluations and
    start-up included, from the framework's end-of-run figures or a progress bar's clock; MFU from it when
    FLOPs/token and the peak are known."""

    tokens_per_s: float | None  # the cluster's
    tokens_per_s_per_gpu: float | None
    samples_per_s: float | None  # the cluster's, as the framework counts them
    seconds: float | None  # the wall time the average is over
    steps: int | None  # the optimizer steps it covers, where the log says (a bar's clock)
    mfu: float | None
    source: str  # where the figures come from
    label: str  # what the average is (not the stable window's)


class SamplesPart(TypedDict):
    """summary["samples"]: a run whose throughput counts samples (images, clips), not tokens (utilization.mfu
    throughput_unit), and the FLOPs per sample its MFU counts with."""

    throughput_unit: str  # "samples"
    flops_per_sample: float | None  # training FLOPs per sample, forward and backward; None when not given
    flops_per_sample_source: str | None  # cli | sidecar
    convention: str  # what a FLOPs-per-sample figure counts
    samples_per_s: float | None  # the stable window's, the cluster's (= stable.samples_per_s)
    samples_per_s_per_gpu: float | None  # the stable window's, per GPU


class LedgerEventPart(TypedDict):
    """One entry of summary["goodput"]["events"]: a piece of badput and the lines it came from."""

    category: str
    seconds: float
    first_line: int
    last_line: int
    step: int | None
    detail: str


class AttemptPart(TypedDict):
    """summary["goodput"]["attempts"]: one attempt's own steps and throughput (never a counter since a resume)."""

    attempt: int
    first_step: int
    last_step: int
    steps: int
    step_seconds: float | None
    tokens_per_s: float | None
    mfu: float | None


class PeriodicDipPart(TypedDict):
    """summary["goodput"]["periodic_dips"]: dips that recur at one step interval, as one pattern."""

    every_steps: int
    count: int
    depth: float
    lost_s: float | None
    cause: str


# summary["goodput"]'s badput categories, in the ledger's order, and how the text and the figures name each
# (phases/goodput.py fills them; the report and the text summary name them)
CATEGORIES = (
    "startup",
    "checkpoint",
    "eval",
    "warmup",
    "slow_steps",
    "wasted_progress",
    "hang",
    "restart_recovery",
    "other",
)
LABELS = {
    "productive": "productive",
    "startup": "startup",
    "checkpoint": "checkpoints",
    "eval": "eval",
    "warmup": "warmup",
    "slow_steps": "slow steps",
    "wasted_progress": "redone steps",
    "hang": "hang",
    "restart_recovery": "restart",
    "other": "other",
}


class _GoodputRequired(TypedDict):
    """summary["goodput"] (phases/goodput.py): where the wall time went; seconds, None where the log
    cannot show a category. With clock "timestamps", productive_s plus every badput value is wall_s."""

    clock: str
    wall_s: float | None
    productive_s: float | None
    goodput: float | None
    badput: dict[str, float | None]  # the categories of CATEGORIES, in that order
    events: list[LedgerEventPart]
    attempts: list[AttemptPart]
    periodic_dips: list[PeriodicDipPart]
    unknown: dict[str, str]  # category -> why the log cannot show it


class GoodputPart(_GoodputRequired, total=False):
    """summary["goodput"] as build_summary writes it (report/ledger.py adds the GPU-hours)."""

    gpu_hours: float | None  # wall_s x GPUs / 3600
    gpu_hours_badput: dict[str, float | None]  # each category's GPU-hours
    gpu_hour_cost: float | None  # --gpu-hour-cost, as given
    cost: float | None  # gpu_hours x gpu_hour_cost


class _SummaryRequired(FlopsPart):  # formula ... hfu_convention come after `model`
    run: str
    source: str
    format: str
    formats: list[str]
    detection: DetectionPart
    lines: LinesPart
    gpus: int | None
    gpus_source: str | None
    hardware: HardwarePart
    model: ModelPart
    steps: StepsPart
    tokens_per_step: float | None
    warmup_steps: int | None
    stable: StablePart
    window: WindowPart | None
    eta: EtaPart | None
    regimes: list[RegimePart]
    shifts: list[ShiftPart]
    dips: list[DipPart]
    restarts: list[RestartPart]
    segments: list[SegmentPart]
    analyzed: str
    sources: list[SourcePart]
    ranks: RanksPart | None
    flagged_steps: dict[str, int]  # flag -> steps carrying it
    reported: ReportedPart
    goodput: GoodputPart | None
    facts: dict[str, FactPart]  # keyed by fact name
    notes: list[str]
    status: str | None
    status_detail: StatusPart
    diagnosis: list[str]
    warnings: list[str]  # core.warnings.RunWarning (a str with a code) in memory, plain text in the file


class FolderFilePart(TypedDict):
    """One file of a run folder and what logparse took from it."""

    file: str  # relative to the folder
    read: str  # "console", "8 x NVIDIA H100 80GB HBM3", "log_history, 7 entries to step 30"


class FolderPart(TypedDict):
    """summary["folder"]: the run folder analyzed (read/runfolder.py), only when a folder was given."""

    path: str
    kind: str  # wandb | hf | lightning | tensorboard
    files: list[FolderFilePart]
    unread: list[str]  # files not read, and what would read them (an optional extra)
    steps_from: str | None  # the step record the rows came from (no console, or one that disagrees)
    times_from: str | None  # the file the step times came from (a console's, over the record's steps)
    mapped: dict[str, str]  # the record's keys -> step columns


class Summary(_SummaryRequired, total=False):
    """summary.json: what build_summary returns and every reader of the summary reads."""

    folder: FolderPart  # only when a run folder was analyzed

    generic: GenericPart  # only when the generic set's synonym table read the log
    flops_stated: FlopsStatedPart  # only when the log states its FLOPs per token (or per step)
    whole_run: WholeRunPart  # only when the log gives a whole-run figure (report/whole_run.py)
    samples: SamplesPart  # only when the throughput counts samples, not tokens (utilization.mfu.SAMPLES)
