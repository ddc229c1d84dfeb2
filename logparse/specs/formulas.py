"""FLOPs per token: each formula a few lines that name their source; HFU recompute conventions.

All figures are training FLOPs (forward + backward) per token, split into three terms so that a
difference between two frameworks can be traced to where it comes from:
  dense      weight matmuls of the transformer blocks (attention projections, MLP / experts)
  attention  the sequence-length-dependent core (Q K^T and softmax(Q K^T) V)
  logits     the output layer (LM head), 6 d V
N (`params`) is the parameter count without the input embedding table; the LM-head matmul is
counted whether or not it is tied. Sources: ../shared/reference/flops_and_peaks.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.errors import LogparseError, flag
from ..core.schema import FORMULA_NAMES

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
    vocab: int | None = None  # padded vocabulary, as the LM head computes it
    swiglu: bool = False
    experts: int | None = None
    topk: int | None = None
    moe_ffn_hidden: int | None = None
    shared_expert_ffn: int | None = None
    dense_layers: int | None = None  # leading dense layers of an MoE model (DeepSeek's first_k_dense)
    q_lora_rank: int | None = None  # MLA (multi-latent attention) when kv_lora_rank is set
    kv_lora_rank: int | None = None
    qk_head_dim: int | None = None
    qk_pos_emb_head_dim: int | None = None
    v_head_dim: int | None = None
    mtp_layers: int = 0
    tied: bool = False

    @property
    def hd(self) -> int | None:
        """Attention head dimension (kv_channels)."""
        if self.head_dim:
            return self.head_dim
        if self.hidden and self.heads:
            return self.hidden // self.heads
        return None

    @property
    def attn_width(self) -> int | None:
        """H x Q, the width of the attention core (usually the hidden size)."""
        if self.heads and self.hd:
            return self.heads * self.hd
        return self.hidden

    @property
    def mla(self) -> bool:
        return bool(self.kv_lora_rank)

    @property
    def moe(self) -> bool:
        return bool(self.experts and self.topk)

    def with_params(self) -> ModelDims:
        """These dims with N filled in from the architecture when it is not given."""
        if self.params is not None:
            return self
        n = params_from_dims(self)
        return replace(self, params=n) if n is not None else self


@dataclass(frozen=True)
class Terms:
    """Training FLOPs per token, by term."""

    dense: float
    attention: float
    logits: float

    @property
    def total(self) -> float:
        return self.dense + self.attention + self.logits

    def scaled(self, k: float) -> Terms:
        return Terms(self.dense * k, self.attention * k, self.logits * k)


def _need(d: ModelDims, formula: str, *names: str) -> None:
    missing = [n for n in names if getattr(d, n) in (None, 0)]
    if missing:
        flags = ", ".join(flag(m) for m in missing)
        raise LogparseError(
            f"the {formula} formula needs {', '.join(missing)} (pass {flags} or {flag('model')})"
        )


# ------------------------------------------------------------------------------------------------
# architecture -> matmul sizes (shared by params_from_dims and the explicit-GEMM formulas)


def _attn_linear_macs(d: ModelDims) -> float:
    """Weight MACs per token of one attention block (projections, no core)."""
    h = d.hidden or 0
    if d.mla:
        qk = (d.qk_head_dim or 0) + (d.qk_pos_emb_head_dim or 0)
        q = h * d.heads * qk if not d.q_lora_rank else d.q_lora_rank * (h + d.heads * qk)
        kv = d.kv_lora_rank * (h + d.heads * ((d.qk_head_dim or 0) + (d.v_head_dim or 0)))
        return q + kv + h * (d.qk_pos_emb_head_dim or 0) + d.heads * (d.v_head_dim or 0) * h
    width = d.attn_width or h
    kv_width = (d.kv_heads or d.heads or 0) * (d.hd or 0) or width
    return h * (width + 2 * kv_width) + width * h


def _mlp_macs(d: ModelDims, all_experts: bool = False) -> float:
    """Weight MACs per token of all MLP / expert layers, summed over layers: the top-k routed and the
    shared experts a token goes through, or with `all_experts` every routed expert (the stored weights)."""
    h, layers = d.hidden or 0, d.layers or 0
    mats = 3 if d.swiglu else 2
    ffn = d.ffn_hidden or 4 * h
    if not d.moe:
        return layers * mats * h * ffn
    dense_layers = d.dense_layers or 0
    moe_layers = layers - dense_layers
    expert_ffn = d.moe_ffn_hidden or ffn
    routed = d.experts if all_experts else d.topk
    per_moe = mats * h * (expert_ffn * routed + (d.shared_expert_ffn or 0))
    return dense_layers * mats * h * ffn + moe_layers * per_moe


def params_from_dims(d: ModelDims, all_experts: bool = False) -> float | None:
    """N (without input embedding, with LM head) of a decoder-only transformer from its dims.

    Counts the weights a token's forward pass multiplies by: attention projections (GQA and MLA
    aware), the MLP (2 or, with SwiGLU, 3 matrices; for MoE the top-k routed and the shared experts
    a token uses, and the router, so N is the *active* count), two norms per layer, the LM head and
    the final norm. With `all_experts` every routed expert is counted (the model's stored size, as a
    model card's "total parameters" gives it). MTP modules are not counted (DeepSeek-V3's 671B / 37B
    exclude them). Biases are ignored (< 0.1%).
    """
    if not (d.layers and d.hidden and d.vocab):
        return None
    if not d.mla and not d.heads:
        return None
    per_layer_attn = _attn_linear_macs(d) + 2 * d.hidden
    router = (d.layers - (d.dense_layers or 0)) * d.hidden * d.experts if d.moe else 0
    mlp = _mlp_macs(d, all_experts)
    return float(d.layers * per_layer_attn + mlp + router + d.hidden * d.vocab + d.hidden)


# ------------------------------------------------------------------------------------------------
# the formulas


def palm(d: ModelDims, seq_len: int) -> Terms:
    """PaLM (Chowdhery et al. 2022, appendix B): 6N + 12 L H Q T, no causal halving.

    nanoGPT, nanochat, torchtitan, llm-foundry and OLMo-core use it.
    """
    _need(d, "palm", "params", "layers")
    if not d.attn_width:
        _need(d, "palm", "hidden")
    logits = 6.0 * d.hidden * d.vocab if (d.hidden and d.vocab) else 0.0
    return Terms(6.0 * d.params - logits, 12.0 * d.layers * d.attn_width * seq_len, logits)


def six_n(d: ModelDims, seq_len: int) -> Terms:
    """Kaplan et al. 2020: 6N. Ignores attention's sequence-length term (-14% at 4k for a 7B)."""
    _need(d, "6n", "params")
    logits = 6.0 * d.hidden * d.vocab if (d.hidden and d.vocab) else 0.0
    return Terms(6.0 * d.params - logits, 0.0, logits)


def megatron(d: ModelDims, seq_len: int) -> Terms:
    """Megatron-LM `num_floating_point_operations` since 2025-03 (commit 8873b55d): explicit GEMMs
    (GQA, SwiGLU, MoE top-k and shared experts, MLA), logits 6 d V on the padded vocabulary
    (x (1 + MTP layers)), causal attention halved. MaxText (since 2025-07) and NeMo count the same way.
    """
    _need(d, "megatron", "layers", "hidden", "vocab")
    if not d.mla:
        _need(d, "megatron", "heads")
    h, L = d.hidden, d.layers
    dense = 6.0 * (L * _attn_linear_macs(d) + _mlp_macs(d))
    dense += 6.0 * d.mtp_layers * (3 * h + 2 * h * h)  # MTP norms and projection
    if d.mla:
        qk = (d.qk_head_dim or 0) + (d.qk_pos_emb_head_dim or 0)
        attention = 6.0 * L * (seq_len * d.heads * qk / 2 + seq_len * d.heads * (d.v_head_dim or 0) / 2)
    else:
        attention = 6.0 * L * seq_len * d.attn_width  # 2 GEMMs x (s/2 causal) x width
    logits = 6.0 * h * d.vocab * (1 + d.mtp_layers)
    return Terms(dense, attention, logits)


def megatron_bridge(d: ModelDims, seq_len: int) -> Terms:
    """Megatron-Bridge `flop_utils.transformer_flops` (NVIDIA-NeMo/Megatron-Bridge
    src/megatron/bridge/training/utils/flop_utils.py @067f987d) and NeMo 2's `deepseekv3` in
    nemo/utils/flops_formulas.py (NVIDIA/NeMo @6a5ad765): the `megatron` count, except that each MTP
    module is counted as one more transformer layer (its attention projections and core, and the MLP of
    the last decoder layer's kind: routed top-k + shared experts for DeepSeek-V3), besides its eh
    projection and its logits. Without MTP the two formulas are the same. (Bridge also counts the MLA q/kv
    norms, 6 L (q_lora_rank + kv_lora_rank) per token: < 1e-5 of DeepSeek-V3's total, left out.)
    The NeMo / Megatron-Bridge containers' `TFLOPS_per_GPU` (NVIDIA dgxc-benchmarking recipes, the
    Megatron-Bridge performance summary) come from this count.
    """
    if not d.mtp_layers:
        return megatron(d, seq_len)
    _need(d, "megatron-bridge", "layers")
    layers = d.layers + d.mtp_layers
    last_is_moe = d.moe and (d.dense_layers or 0) < d.layers
    dense_layers = (d.dense_layers or 0) + (0 if last_is_moe else d.mtp_layers)
    return megatron(replace(d, layers=layers, dense_layers=dense_layers or None), seq_len)


def megatron_2024(d: ModelDims, seq_len: int) -> Terms:
    """Megatron-LM's formula before 2025-03 (e.g. 8873b55d^): 12 L h^2 [ (1 + g/a + s/h) q/h
    + ffn/h x topk x gated + shared/h x gated + V / 2Lh ], attention not halved. MaxText before 2025-07
    and nanotron count this way."""
    _need(d, "megatron-2024", "layers", "hidden", "heads", "vocab")
    h, L = d.hidden, d.layers
    q_ratio = (d.attn_width or h) / h
    g_over_a = (d.kv_heads or d.heads) / d.heads
    gated = 1.5 if d.swiglu else 1.0
    ffn = (d.moe_ffn_hidden or d.ffn_hidden or 4 * h) if d.moe else (d.ffn_hidden or 4 * h)
    routed = d.topk if d.moe else 1
    k = 12.0 * L * h * h
    dense = k * ((1 + g_over_a) * q_ratio + ffn / h * routed * gated + (d.shared_expert_ffn or 0) / h * gated)
    return Terms(dense, k * (seq_len / h) * q_ratio, k * d.vocab / (2 * L * h))


def narayanan(d: ModelDims, seq_len: int) -> Terms:
    """Narayanan et al. 2021 (arXiv 2104.04473, eq. 3) without recomputation:
    72 B s L d^2 (1 + s/6d + V/12Ld) per batch. Assumes MHA and a 4d GELU MLP whatever the model is."""
    _need(d, "narayanan", "layers", "hidden", "vocab")
    h, L = d.hidden, d.layers
    return Terms(72.0 * L * h * h, 12.0 * L * h * seq_len, 6.0 * h * d.vocab)


FORMULAS = {
    "palm": palm,
    "6n": six_n,
    "megatron": megatron,
    "megatron-bridge": megatron_bridge,
    "megatron-2024": megatron_2024,
    "narayanan": narayanan,
}
# the names the options table offers (the vocabulary's, which it reads without importing this stage)
assert tuple(FORMULAS) == FORMULA_NAMES, "core.schema.FORMULA_NAMES and FORMULAS name other formulas"


def terms(d: ModelDims, seq_len: int, formula: str) -> Terms:
    try:
        fn = FORMULAS[formula]
    except KeyError:
        raise LogparseError(f"unknown formula {formula!r}; known: {', '.join(FORMULAS)}") from None
    return fn(d, seq_len)


def flops_per_token(d: ModelDims, seq_len: int, formula: str) -> float:
    return terms(d, seq_len, formula).total


# ------------------------------------------------------------------------------------------------
# HFU

HFU_CONVENTION = {
    "full": "one more forward pass of every term: x 4/3 (Korthikanti et al. 2022; llm-foundry `hfu`); "
    "for narayanan the paper's 96 B s L d^2 (1 + s/6d + V/16Ld), which does not recompute the logits",
    "selective": "the attention core's forward once more: + attention / 3 (Korthikanti et al. 2022, §5)",
    "none": "no recomputation: HFU = MFU",
}


def hardware_terms(d: ModelDims, seq_len: int, formula: str, recompute: str) -> Terms:
    """FLOPs the hardware executes, recomputation included (HFU numerator)."""
    model = terms(d, seq_len, formula)
    if recompute == "none":
        return model
    if recompute == "full":
        if formula == "narayanan":
            return Terms(model.dense * 4 / 3, model.attention * 4 / 3, model.logits)
        return model.scaled(4.0 / 3.0)
    if recompute == "selective":
        if model.attention == 0:
            _need(d, "selective-recompute", "layers", "hidden")
            return Terms(model.dense, 4.0 * d.layers * d.attn_width * seq_len, model.logits)
        return Terms(model.dense, model.attention * 4.0 / 3.0, model.logits)
    raise LogparseError(f"unknown recompute {recompute!r}; use one of {', '.join(RECOMPUTE)}")


def hardware_flops_per_token(d: ModelDims, seq_len: int, formula: str, recompute: str) -> float:
    return hardware_terms(d, seq_len, formula, recompute).total
