"""FLOPs per token: each formula a few lines that name their source; HFU recompute factors.

All figures are training FLOPs (forward + backward) per token. N is the parameter count without
the input embedding table; the LM-head matmul is counted whether or not it is tied.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import LogparseError

RECOMPUTE = ("none", "selective", "full")


@dataclass(frozen=True)
class ModelDims:
    """What a formula may need. Any may be None when unknown."""

    params: float | None = None  # N: parameters without the input embedding
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    ffn_hidden: int | None = None
    vocab: int | None = None
    swiglu: bool = False
    experts: int | None = None
    topk: int | None = None

    @property
    def attn_width(self) -> int | None:
        """H x Q, the width of the attention core (usually the hidden size)."""
        if self.heads and self.head_dim:
            return self.heads * self.head_dim
        return self.hidden


def params_from_dims(d: ModelDims) -> float | None:
    """N (without input embedding, with LM head) of a decoder-only transformer from its dims.

    Per layer: Q and output projections (d x H*Q each), K and V (d x kv*Q each), the MLP
    (2 or, with SwiGLU, 3 matrices of d x ffn; MoE counts the top-k experts a token uses),
    two norms. Plus the LM head d x V and the final norm. Biases are ignored (< 0.1%).
    """
    if not (d.layers and d.hidden and d.vocab):
        return None
    width = d.attn_width or d.hidden
    head_dim = d.head_dim or (width // d.heads if d.heads else None)
    kv_width = (d.kv_heads * head_dim) if (d.kv_heads and head_dim) else width
    ffn = d.ffn_hidden or 4 * d.hidden
    mats = 3 if d.swiglu else 2
    active_experts = d.topk if (d.experts and d.topk) else 1
    per_layer = 2 * d.hidden * width + 2 * d.hidden * kv_width + mats * d.hidden * ffn * active_experts
    per_layer += 2 * d.hidden
    return float(d.layers * per_layer + d.hidden * d.vocab + d.hidden)


def palm(d: ModelDims, seq_len: int) -> float:
    """PaLM (Chowdhery et al. 2022, appendix B): 6N + 12 L H Q T. nanoGPT, torchtitan, OLMo use it."""
    if d.params is None or not d.layers or not d.attn_width:
        raise LogparseError("the palm formula needs N, layers and hidden size")
    return 6.0 * d.params + 12.0 * d.layers * d.attn_width * seq_len


def six_n(d: ModelDims, seq_len: int) -> float:
    """Kaplan et al. 2020: 6N. Ignores attention's sequence-length term (-14% at 4k for 7B)."""
    if d.params is None:
        raise LogparseError("the 6n formula needs N (--params)")
    return 6.0 * d.params


FORMULAS = {"palm": palm, "6n": six_n}


def flops_per_token(d: ModelDims, seq_len: int, formula: str) -> float:
    try:
        fn = FORMULAS[formula]
    except KeyError:
        raise LogparseError(f"unknown formula {formula!r}; known: {', '.join(FORMULAS)}") from None
    return fn(d, seq_len)


def hardware_flops_per_token(d: ModelDims, seq_len: int, formula: str, recompute: str) -> float:
    """FLOPs the hardware executes, recomputation included (HFU numerator).

    full: one more forward pass of everything, x 4/3 (Korthikanti et al. 2022; llm-foundry `hfu`).
    selective: the attention core's forward again, + 4 L H Q T per token (Korthikanti et al. 2022, §5).
    """
    model = flops_per_token(d, seq_len, formula)
    if recompute == "none":
        return model
    if recompute == "full":
        return model * 4.0 / 3.0
    if recompute == "selective":
        if not d.layers or not d.attn_width:
            raise LogparseError("selective recompute needs layers and hidden size")
        return model + 4.0 * d.layers * d.attn_width * seq_len
    raise LogparseError(f"unknown recompute {recompute!r}; use one of {', '.join(RECOMPUTE)}")


def mfu(flops_per_tok: float, tokens_per_s: float, peak_tflops_per_gpu: float, gpus: int) -> float:
    """Model FLOPs utilisation: achieved model FLOP/s over the cluster's dense peak."""
    return flops_per_tok * tokens_per_s / (peak_tflops_per_gpu * 1e12 * gpus)


def train_time_s(
    tokens: float, flops_per_tok: float, peak_tflops_per_gpu: float, gpus: int, mfu_: float
) -> float:
    """Wall seconds to train `tokens` at a given MFU (seed 3, section 3.2)."""
    return tokens * flops_per_tok / (peak_tflops_per_gpu * 1e12 * gpus * mfu_)
