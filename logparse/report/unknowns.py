"""What a run's figures needed and the log did not give, and the option that would give it: one list, read
off the summary, that the text summary, the report figure and the batch page each render (the
three used to decide it apart, and named the options three ways).

Options are named the way the caller knows them (core.errors.flag): `--hw NAME` on the command line,
`hw=NAME` to Python code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.errors import flag


@dataclass(frozen=True)
class Unknown:
    """One figure the run lacks. `what` is its code (the key a renderer picks it by): gpus, hardware,
    flops_per_token, flops_per_sample, params, seq_len, step_time, stable_window, tokens_per_s. `options`: (Options field, metavar or None)
    that would make it known; `sep` joins them: any one of them (" or "), or every one (" and "). `also`: what
    it needs besides (every one), so that one run names every missing input at once, never one after the
    other. `blocks_mfu`: without it there is no MFU (params and seq_len never do by themselves: it blocks
    through flops_per_token or tokens_per_s, named there)."""

    what: str
    label: str
    options: tuple[tuple[str, str | None], ...] = ()
    sep: str = " or "
    blocks_mfu: bool = False
    phrase: str | None = None  # the whole text, where "<label> unknown" does not say it
    also: tuple[tuple[str, str | None], ...] = ()
    # another way to the same figure, every one of them: a run that counts samples gets its MFU from FLOPs per
    # sample, or, when a sample is a sequence of tokens, from what FLOPs/token and tokens/s need
    or_else: tuple[tuple[str, str | None], ...] = ()

    def hint(self) -> str:
        """`pass --hw NAME or --peak-tflops X`; `pass --seq-len and --global-batch`; `pass --model NAME, or
        --params N; and --seq-len`; `pass --flops-per-sample X; or, counting tokens, --seq-len and --model NAME`;
        empty when no option gives it."""
        if not self.options:
            return ""
        text = "pass " + self.sep.join(flag(name, meta) for name, meta in self.options)
        if self.also:
            also = " and ".join(flag(name, meta) for name, meta in self.also)
            text += ("; and " if "," in self.sep else ", and ") + also
        if self.or_else:
            text += "; or, counting tokens, " + " and ".join(flag(name, meta) for name, meta in self.or_else)
        return text

    def text(self, hint: bool = True) -> str:
        """`hardware unknown (pass --hw NAME or --peak-tflops X)`; `seq len unknown` without the hint."""
        if self.phrase is not None:
            return self.phrase
        h = self.hint() if hint else ""
        return f"{self.label} unknown" + (f" ({h})" if h else "")


GPUS = Unknown("gpus", "GPUs", (("gpus", None),))
FLOPS_PER_SAMPLE = Unknown("flops_per_sample", "FLOPs/sample", (("flops_per_sample", "X"),), blocks_mfu=True)


def counts_samples(s: Mapping[str, Any]) -> bool:
    """The run's throughput counts samples (images, clips), not tokens: its summary has the `samples` block."""
    return s.get("samples") is not None


def unknowns(s: Mapping[str, Any]) -> dict[str, Unknown]:
    """The unknowns of a summary (summary.json's dict), by code, in the order the text names them.
    MFU = FLOPs/token x tokens/s per GPU / peak (utilization/mfu.py): each of the three, and what they
    rest on, is named when the summary has it null. A run that counts samples, not tokens, has its MFU from
    FLOPs per sample x samples/s per GPU: without them, FLOPs/sample is what blocks it, and what tokens would
    need (a sequence length, a model) is named without blocking it."""
    found = _unknowns(s)
    if counts_samples(s):
        tokens = ("flops_per_token", "params", "seq_len", "tokens_per_s")
        if s["samples"]["flops_per_sample"] is not None:  # the MFU counts samples: tokens are not needed
            found = [u for u in found if u.what not in tokens]
        else:
            needs = {u.what for u in found if u.blocks_mfu}
            # what FLOPs/token and tokens/s need, where a sample is a sequence of tokens
            or_else = tuple(
                option
                for what, option in (("seq_len", ("seq_len", None)), ("params", ("model", "NAME")))
                if what in {u.what for u in found} and (what != "params" or "flops_per_token" in needs)
            )
            found = [replace(u, blocks_mfu=False) if u.what in tokens else u for u in found]
            at = next((i for i, u in enumerate(found) if u.what in tokens), len(found))
            found.insert(at, replace(FLOPS_PER_SAMPLE, or_else=or_else))
    return {u.what: u for u in found}


def _unknowns(s: Mapping[str, Any]) -> list[Unknown]:
    st, seq = s["stable"], s["model"]["seq_len"]
    per_gpu_known = st["tokens_per_s_per_gpu"] is not None
    found: list[Unknown] = []
    if s["gpus"] is None:
        # the cluster's count only matters for MFU when the log gives no per-GPU throughput of its own
        found.append(replace(GPUS, blocks_mfu=not per_gpu_known))
    if s["hardware"]["peak_tflops_per_gpu"] is None:
        found.append(Unknown("hardware", "hardware", (("hw", "NAME"), ("peak_tflops", "X")), blocks_mfu=True))
    if s["flops_per_token"] is None:
        if s["formula"] is not None and not seq:  # the formula is chosen; its attention term needs seq len
            found.append(Unknown("flops_per_token", "FLOPs/token", (("seq_len", None),), blocks_mfu=True))
        else:  # the model, and the sequence length every formula but the framework's own counts with
            options = (("model", "NAME"), ("params", "N"))
            also = () if seq else (("seq_len", None),)
            flops = Unknown("flops_per_token", "FLOPs/token", options, ", or ", blocks_mfu=True, also=also)
            found.append(flops)
    # N: FLOPs/token may still be known (the framework's own figure, for which N gives logparse's count; not
    # FLOPs given per token, formula "given", or stated by the log, "log", which N would not change:
    # utilization.mfu.GIVEN and STATED, not imported, as
    # the drawing process imports this module without pandas)
    if not s["model"].get("params") and s["formula"] not in ("given", "log"):
        found.append(Unknown("params", "N", (("params", None), ("model", None))))
    if not seq:  # asked for only where a figure still needs it: FLOPs/token or tokens/s
        needed = s["flops_per_token"] is None or (st["tokens_per_s"] is None and not per_gpu_known)
        found.append(Unknown("seq_len", "seq len", (("seq_len", None),) if needed else ()))
    if st["start_step"] is None and no_step_time(s):
        # nothing to time the steps by, so nothing to find a stable window in: the step time is what is
        # missing, and no option supplies it (the log's own warning says what it lacks)
        found.append(Unknown("step_time", "step time", blocks_mfu=True, phrase=STEP_TIME_UNKNOWN))
    elif st["start_step"] is None:
        phrase = "stable window: none found (too few timed steps)"
        found.append(Unknown("stable_window", "stable window", blocks_mfu=True, phrase=phrase))
    elif st["tokens_per_s"] is None and not per_gpu_known:
        found.append(Unknown("tokens_per_s", "tokens/s", tokens_needs(s), " and ", blocks_mfu=True))
    return found


def tokens_needs(s: Mapping[str, Any], samples_per_s: bool = False) -> tuple[tuple[str, str | None], ...]:
    """What tokens/s needs and the summary lacks, every one: the sequence length, and the global batch where
    the tokens come from samples per step over the step time (not from a logged samples/s, `samples_per_s`,
    which the sequence length alone makes tokens). A shape without `facts` (the batch index) names no batch."""
    needs: list[tuple[str, str | None]] = []
    if not (s.get("model") or {}).get("seq_len"):
        needs.append(("seq_len", None))
    from_samples = samples_per_s or (s.get("stable") or {}).get("samples_per_s") is not None
    facts = s.get("facts")
    if facts is not None and not from_samples and not facts.get("global_batch_size"):
        if s.get("tokens_per_step") is None:
            needs.append(("global_batch", None))
    return tuple(needs)


STEP_TIME_UNKNOWN = "step time unknown: the log gives none, its warnings say what it lacks"


def no_step_time(s: Mapping[str, Any]) -> bool:
    """The log gives neither a step time nor a throughput to time the steps by."""
    steps = s.get("steps")  # a shape read off the batch index has none: nothing says it lacks them
    return (
        steps is not None and steps.get("step_time_source") is None and steps.get("throughput_source") is None
    )


def mfu_blockers(s: Mapping[str, Any]) -> list[Unknown]:
    """What keeps the run from an MFU, in order (empty when it has one, or nothing named blocks it)."""
    return [u for u in unknowns(s).values() if u.blocks_mfu]
