"""Reference training FLOPs per token, worked out by hand, term by term, without logparse.

The synthetic logs (tests/synth) take their truth from this table: a run's stable MFU is
FLOPs/token (from here) x tokens/s / (peak x GPUs). logparse computes the same MFU with its own
`flops.palm`, so a bug there makes the end-to-end tests fail instead of cancelling out.

Every entry is the PaLM count (Chowdhery et al. 2022, arXiv 2204.02311, appendix B), the one
logparse defaults to: 6N + 12·L·H·Q·s, with N the parameters a token's forward pass multiplies by
(no input embedding; the LM head, norms and, for nanoGPT, biases included), L layers, H query heads,
Q head dim, s the sequence length. Nothing here imports logparse. The published figures each entry is
checked against are in tests/test_reference_flops.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Reference:
    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn_hidden: int
    vocab: int
    experts: int  # 0: dense
    topk: int
    seq_len: int
    params: int  # N: without the input embedding, LM head included
    total_params: int  # every stored parameter (input embedding and all experts included)
    flops_per_token: int


def _attention_term(layers: int, heads: int, head_dim: int, seq: int) -> int:
    return 12 * layers * heads * head_dim * seq


# ------------------------------------------------------------------------------------------------
# Llama-2-7B (HF config: hidden 4096, intermediate 11008, 32 layers, 32 heads, MHA, vocab 32000,
# untied embeddings, RMSNorm, no biases)
_L2_QKVO = 4 * 4096 * 4096  # 67,108,864: q, k, v, o projections
_L2_MLP = 3 * 4096 * 11008  # 135,266,304: gate, up, down (SwiGLU)
_L2_NORMS = 2 * 4096  # 8,192: two RMSNorm weights
_L2_LAYER = _L2_QKVO + _L2_MLP + _L2_NORMS  # 202,383,360
_L2_FINAL_NORM = 4096
_L2_HEAD = 32000 * 4096  # 131,072,000: LM head (= the input embedding's size)
_L2_N = 32 * _L2_LAYER + _L2_FINAL_NORM + _L2_HEAD  # 6,607,343,616
assert _L2_N == 6_607_343_616
_L2_TOTAL = _L2_N + 32000 * 4096  # 6,738,415,616

LLAMA2_7B_4096 = Reference(
    name="llama2-7b",
    layers=32,
    hidden=4096,
    heads=32,
    kv_heads=32,
    ffn_hidden=11008,
    vocab=32000,
    experts=0,
    topk=0,
    seq_len=4096,
    params=_L2_N,
    total_params=_L2_TOTAL,
    # 39,644,061,696 + 6,442,450,944 = 46,086,512,640
    flops_per_token=6 * _L2_N + _attention_term(32, 32, 128, 4096),
)
assert LLAMA2_7B_4096.flops_per_token == 46_086_512_640

LLAMA2_7B_8192 = replace(
    LLAMA2_7B_4096,
    seq_len=8192,
    # 39,644,061,696 + 12,884,901,888 = 52,528,963,584
    flops_per_token=6 * _L2_N + _attention_term(32, 32, 128, 8192),
)
assert LLAMA2_7B_8192.flops_per_token == 52_528_963_584

# ------------------------------------------------------------------------------------------------
# Llama-3-8B (HF config: hidden 4096, intermediate 14336, 32 layers, 32 heads, 8 KV heads (head dim
# 128), vocab 128256, untied, no biases)
_L3_QO = 2 * 4096 * 4096  # 33,554,432
_L3_KV = 2 * 4096 * (8 * 128)  # 8,388,608
_L3_MLP = 3 * 4096 * 14336  # 176,160,768
_L3_LAYER = _L3_QO + _L3_KV + _L3_MLP + 2 * 4096  # 218,112,000
_L3_HEAD = 128256 * 4096  # 525,336,576
_L3_N = 32 * _L3_LAYER + 4096 + _L3_HEAD  # 7,504,924,672
assert _L3_N == 7_504_924_672

LLAMA3_8B_8192 = Reference(
    name="llama3-8b",
    layers=32,
    hidden=4096,
    heads=32,
    kv_heads=8,
    ffn_hidden=14336,
    vocab=128256,
    experts=0,
    topk=0,
    seq_len=8192,
    params=_L3_N,
    total_params=_L3_N + 128256 * 4096,  # 8,030,261,248
    # 45,029,548,032 + 12,884,901,888 = 57,914,449,920
    flops_per_token=6 * _L3_N + _attention_term(32, 32, 128, 8192),
)
assert LLAMA3_8B_8192.flops_per_token == 57_914_449_920

# ------------------------------------------------------------------------------------------------
# GPT-2 small as nanoGPT trains it (model.py: 12 layers, 768 wide, 12 heads, MLP 4x, vocab padded to
# 50304, block 1024, biases on, LM head tied to the token embedding). nanoGPT's N is every parameter
# but the position embedding (get_num_params), so the biases and LayerNorm biases are in it.
_G2_ATTN = (768 * 3 * 768 + 3 * 768) + (768 * 768 + 768)  # c_attn 1,771,776 + c_proj 590,592
_G2_MLP = (768 * 3072 + 3072) + (3072 * 768 + 768)  # c_fc 2,362,368 + c_proj 2,360,064
_G2_LN = 2 * (768 + 768)  # ln_1, ln_2: weight and bias, 3,072
_G2_LAYER = _G2_ATTN + _G2_MLP + _G2_LN  # 7,087,872
_G2_WTE = 50304 * 768  # 38,633,472: the token embedding, which is also the LM head
_G2_N = 12 * _G2_LAYER + (768 + 768) + _G2_WTE  # + ln_f: 123,689,472
assert _G2_N == 123_689_472

GPT2_NANOGPT_1024 = Reference(
    name="gpt2",
    layers=12,
    hidden=768,
    heads=12,
    kv_heads=12,
    ffn_hidden=3072,
    vocab=50304,
    experts=0,
    topk=0,
    seq_len=1024,
    params=_G2_N,
    total_params=_G2_N + 1024 * 768,  # + wpe: 124,475,904
    flops_per_token=6 * _G2_N + _attention_term(12, 12, 64, 1024),  # 742,136,832 + 113,246,208 = 855,383,040
)
assert GPT2_NANOGPT_1024.flops_per_token == 855_383_040

# ------------------------------------------------------------------------------------------------
# Mixtral-8x7B (HF config: hidden 4096, intermediate 14336 per expert, 32 layers, 32 heads, 8 KV
# heads, vocab 32000, 8 experts, 2 routed per token, untied). N counts the experts a token uses.
_MX_ATTN = 2 * 4096 * 4096 + 2 * 4096 * 1024  # 41,943,040
_MX_ROUTER = 4096 * 8  # 32,768
_MX_EXPERT = 3 * 4096 * 14336  # 176,160,768
_MX_LAYER_ACTIVE = _MX_ATTN + _MX_ROUTER + 2 * _MX_EXPERT + 2 * 4096  # 394,305,536
_MX_LAYER_STORED = _MX_ATTN + _MX_ROUTER + 8 * _MX_EXPERT + 2 * 4096  # 1,451,270,144
_MX_HEAD = 32000 * 4096  # 131,072,000
_MX_N = 32 * _MX_LAYER_ACTIVE + 4096 + _MX_HEAD  # 12,748,853,248
assert _MX_N == 12_748_853_248

MIXTRAL_8X7B_4096 = Reference(
    name="mixtral-8x7b",
    layers=32,
    hidden=4096,
    heads=32,
    kv_heads=8,
    ffn_hidden=14336,
    vocab=32000,
    experts=8,
    topk=2,
    seq_len=4096,
    params=_MX_N,
    total_params=32 * _MX_LAYER_STORED + 4096 + 2 * _MX_HEAD,  # 46,702,792,704
    # 76,493,119,488 + 6,442,450,944 = 82,935,570,432
    flops_per_token=6 * _MX_N + _attention_term(32, 32, 128, 4096),
)
assert MIXTRAL_8X7B_4096.flops_per_token == 82_935_570_432

TABLE = (LLAMA2_7B_4096, LLAMA2_7B_8192, LLAMA3_8B_8192, GPT2_NANOGPT_1024, MIXTRAL_8X7B_4096)


def lookup(dims, seq_len: int) -> Reference:
    """The entry for a model (anything with layers, hidden, heads, kv_heads, ffn_hidden, vocab,
    experts, topk attributes) at a sequence length; an error when the table has none, so a synthetic
    run can never fall back to logparse's own count."""
    for ref in TABLE:
        if (
            ref.seq_len == seq_len
            and (dims.layers, dims.hidden, dims.heads, dims.ffn_hidden, dims.vocab)
            == (ref.layers, ref.hidden, ref.heads, ref.ffn_hidden, ref.vocab)
            and (dims.kv_heads or dims.heads) == ref.kv_heads
            and (dims.experts or 0, (dims.topk or 0) if dims.experts else 0) == (ref.experts, ref.topk)
        ):
            return ref
    raise LookupError(
        f"no reference FLOPs/token for this model at sequence length {seq_len} "
        "(add it to tests/reference_flops.py, worked out by hand, or give the Spec flops_per_token_truth)"
    )
