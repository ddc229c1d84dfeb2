"""The vocabulary every stage shares: a run fact with its provenance, and the options a user gave.

Kept apart from the stages so that each can import them without importing another stage.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import flag
from .summary_types import FactPart


@dataclass
class Fact:
    """A run fact and where it came from: cli, log, derived, preset or default."""

    value: Any
    source: str
    detail: str = ""

    def as_dict(self) -> FactPart:
        return {"value": self.value, "source": self.source, "detail": self.detail}


@dataclass
class Options:
    """What the user said on the command line or in a run folder's logparse.toml (None = not said)."""

    gpus: int | None = None
    hw: str | None = None
    dtype: str | None = None
    peak_tflops: float | None = None
    model: str | None = None
    params: float | None = None
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    experts: int | None = None  # mixture of experts: routed experts per MoE layer
    topk: int | None = None  # experts each token is routed to
    ffn_hidden: int | None = None
    mlp: str | None = None  # "gated" (SwiGLU, GeGLU: three matrices) or "plain" (two)
    vocab: int | None = None
    seq_len: int | None = None
    global_batch: int | None = None
    recompute: str | None = None
    formula: str | None = None
    flops_per_token: float | None = None  # model FLOPs per token as a peer states them (per sample / seq)
    flops_per_sample: float | None = None  # training FLOPs per sample (a run that counts samples, not tokens)
    format: str | None = None
    patterns: tuple[str, ...] = ()  # extra pattern-set folders
    target_tokens: float | None = None
    gpu_hour_cost: float | None = None  # the price of a GPU-hour, for the goodput ledger's cost
    grad_accum: int | None = None
    segment: int | None = None  # analyze only this segment (default: the last run in the file)
    window: str | None = None  # "A:B": report over steps A..B (the log's numbering), beside the stable phase
    last: int | None = None  # report over the last N steps
    skip: int | None = None  # report over every step after the first N
    jobs: int | None = None  # processes reading a large log (None: one per core; chunks.py)
    # where an option's value came from, when not the command line: {"gpus": "sidecar"}
    sources: dict[str, str] = field(default_factory=dict)

    def source(self, name: str) -> str:
        """The provenance of option `name` for the Facts made from it: cli unless said otherwise."""
        return self.sources.get(name, "cli")

    def said(self, name: str) -> str:
        """Option `name` as the user gave it, for a Fact's detail and a warning: `--hw a100` on the command
        line (`hw=a100` in Python), `logparse.toml: hw = "a100"` from a run folder's sidecar."""
        value = getattr(self, name)
        source = self.source(name)
        if source == "cli":
            return flag(name, value)
        where = "logparse.toml" if source == "sidecar" else source
        return f"{where}: {name} = {json.dumps(value)}"
