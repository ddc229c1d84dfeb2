"""The range each numeric run fact may take, wherever a file states it: a log line, a run folder's
config.json, wandb-metadata.json, trainer_state.json or hparams.yaml, a logparse.toml.

A value outside it is no measurement of a run but a typo, a placeholder or a hostile file (W&B's `gpu_count` of
1e20; a `seq_len` of -1 meaning "unset"), and taken as a fact it breaks what follows: a count that does not fit
in 64 bits stops the batch's index, a width of 1e30 makes FLOPs and MFU absurd. The bounds are wide: each is far
past the largest value a real run has (the largest jobs have ~10^5 GPUs, the longest contexts ~10^7 tokens, the
largest models ~10^13 parameters); the lower bounds are those of the quantity (no layer-less model, no job of 0
GPUs; 0 experts where a config says so of a dense model).

`implausible` is applied where the facts of a run are gathered (steps/runfacts.log_facts: a value left out with
a warning, the run analysed without it) and where a logparse.toml is read (batch/sidecar.py: its option refused
with the key named).
"""

from __future__ import annotations

import math
from typing import Any

_K = 1 << 10
_M = 1 << 20

# fact -> (least, most) it may be, both included
PLAUSIBLE: dict[str, tuple[float, float]] = {
    "world_size": (1, _M),
    "data_parallel_size": (1, _M),
    "tensor_parallel_size": (1, _M),
    "pipeline_parallel_size": (1, _M),
    "context_parallel_size": (1, _M),
    "expert_parallel_size": (1, _M),
    "micro_batch_size": (1, 1 << 30),
    "global_batch_size": (1, 1 << 40),
    "grad_accum": (1, 1 << 30),
    "num_microbatches": (1, 1 << 30),
    "seq_len": (1, 1 << 32),
    "num_layers": (1, _M),
    "hidden_size": (1, 1 << 30),
    "ffn_hidden_size": (1, 1 << 32),
    "num_attention_heads": (1, _M),
    "num_query_groups": (1, _M),
    "kv_channels": (1, _M),
    "vocab_size": (1, 1 << 32),
    "padded_vocab_size": (1, 1 << 32),
    "num_experts": (0, _M),  # (0: a dense model, as some configs say it)
    "moe_router_topk": (0, _M),
    "moe_ffn_hidden_size": (0, 1 << 32),
    "shared_expert_ffn": (0, 1 << 32),
    "moe_dense_layers": (0, _M),
    "q_lora_rank": (0, 1 << 30),
    "kv_lora_rank": (0, 1 << 30),
    "qk_head_dim": (0, _M),
    "qk_pos_emb_head_dim": (0, _M),
    "v_head_dim": (0, _M),
    "mtp_layers": (0, _K),
    "params": (1, 1e16),
    "trainable_params": (1, 1e16),
    "total_params": (1, 1e16),
    "tokens_per_step": (1, 1 << 50),
    "tokens_per_dp_rank": (1, 1 << 50),
    "flops_per_token": (1, 1e20),
    "flops_per_step": (1, 1e36),
    "gpu_count": (1, _M),
    "log_interval": (1, 1 << 50),
    "train_iters": (1, 1 << 53),
    "steps_per_epoch": (1, 1 << 53),
    "steps_per_print": (1, 1 << 53),
    "checkpoint_step": (0, 1 << 53),
    "zero_stage": (0, 3),
    "framework_peak_tflops": (1e-3, 1e7),
}

# the analysis options that state one of these facts (core/options.py): a logparse.toml is held to the same range
OPTION_FACTS: dict[str, str] = {
    "gpus": "world_size",
    "seq_len": "seq_len",
    "global_batch": "global_batch_size",
    "grad_accum": "grad_accum",
    "layers": "num_layers",
    "hidden": "hidden_size",
    "heads": "num_attention_heads",
    "kv_heads": "num_query_groups",
    "ffn_hidden": "ffn_hidden_size",
    "vocab": "vocab_size",
    "experts": "num_experts",
    "topk": "moe_router_topk",
    "params": "params",
}


def implausible(fact: str, value: Any) -> str | None:
    """Why `value` cannot be fact `fact` (words without the value: the caller decides whether to show it), or
    None when it can, or when the fact has no range here (names, flags, figures a run may print any of). NaN is
    a value the reader could not read (Megatron's `num_experts [1]`), not one stated: passed, as before."""
    bounds = PLAUSIBLE.get(fact)
    if bounds is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    low, high = bounds
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, float) and math.isinf(value):
        return "not a finite number"
    if not low <= value <= high:
        return f"outside the plausible range of {fact}, {range_text(low, high)}"
    return None


def range_text(low: float, high: float) -> str:
    """`1 to 1,048,576`, `1 to 1e+16`."""

    def shown(x: float) -> str:
        return f"{int(x):,}" if float(x).is_integer() and abs(x) < 1e12 else f"{x:g}"

    return f"{shown(low)} to {shown(high)}"


def shown_value(value: float) -> str:
    """A stated number for a message, short whatever its size: 1e+20, a 400-digit number."""
    if isinstance(value, int) and abs(value) >= 10**15:
        digits = len(str(abs(value))) if abs(value) < 10**4000 else "over 4,000"
        return f"a number of {digits} digits" if abs(value) >= 10**300 else f"{float(value):.6g}"
    return f"{value:.6g}"
