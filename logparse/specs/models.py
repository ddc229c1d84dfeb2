"""Model facts: presets, command-line dims and the log's own dims, merged with provenance."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import regex

from ..core.errors import LogparseError, UsageError, flag
from ..core.facts import Fact, Options
from ..core.tomlfile import Table
from ..core.warnings import RunWarning
from .formulas import ModelDims, params_from_dims

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# model field -> (command-line option, log fact)
_FIELDS = {
    "layers": ("layers", "num_layers"),
    "hidden": ("hidden", "hidden_size"),
    "heads": ("heads", "num_attention_heads"),
    "kv_heads": ("kv_heads", "num_query_groups"),
    "ffn_hidden": ("ffn_hidden", "ffn_hidden_size"),
    "vocab": ("vocab", "padded_vocab_size"),
    "head_dim": (None, "kv_channels"),
    "swiglu": ("mlp", "swiglu"),  # --mlp gated|plain: a gated MLP (SwiGLU, GeGLU) has three matrices
    "experts": ("experts", "num_experts"),
    "topk": ("topk", "moe_router_topk"),
    "moe_ffn_hidden": (None, "moe_ffn_hidden_size"),
    "shared_expert_ffn": (None, "shared_expert_ffn"),
    "dense_layers": (None, "moe_dense_layers"),
    "q_lora_rank": (None, "q_lora_rank"),
    "kv_lora_rank": (None, "kv_lora_rank"),
    "qk_head_dim": (None, "qk_head_dim"),
    "qk_pos_emb_head_dim": (None, "qk_pos_emb_head_dim"),
    "v_head_dim": (None, "v_head_dim"),
    "mtp_layers": (None, "mtp_layers"),
}


@lru_cache(maxsize=1)
def presets() -> dict[str, Table]:
    with open(Path(__file__).with_name("models.toml"), "rb") as fh:
        return tomllib.load(fh)


def preset_dims(name: str) -> ModelDims:
    """The dims of a preset, N filled in."""
    p = preset(name)
    return ModelDims(**{k: v for k, v in p.items() if k in ModelDims.__dataclass_fields__}).with_params()


def preset(name: str) -> Table:
    key = name.strip().lower()
    if key not in presets():
        raise UsageError(f"unknown model preset {name!r}; known: {', '.join(sorted(presets()))}")
    return presets()[key]


def total_params(d: ModelDims) -> float | None:
    """All parameters: N plus the input embedding unless it is tied to the LM head."""
    if d.params is None:
        return None
    return d.params + (0 if d.tied or not (d.hidden and d.vocab) else d.hidden * d.vocab)


def all_params(d: ModelDims) -> float | None:
    """Every parameter the model stores: for MoE all routed experts (a model card's "total"), plus the
    input embedding unless tied. The same as total_params for a dense model; total_params (N + embedding)
    counts for MoE only the experts a token uses (the "active" or "activated" size)."""
    if not d.moe:
        return total_params(d)
    n = params_from_dims(d, all_experts=True)
    if n is None:
        return None
    return n + (0 if d.tied else d.hidden * d.vocab)


def _active_params(given: float, dims: ModelDims, warnings: list[RunWarning], source: str = "cli") -> Fact:
    """N for an MoE model given --params: 6N must count the parameters a token uses (top-k routed and
    shared experts), which only the dims can tell apart from the total."""
    active = params_from_dims(dims)
    if active is None:
        dims_named = ", ".join(map(flag, ("layers", "hidden", "heads", "ffn_hidden", "vocab")))
        raise LogparseError(
            f"{flag('params')} with {dims.experts} experts (top-{dims.topk}): 6N must count only the active "
            f"parameters, and that takes the model's dims: add {dims_named}, or use an MoE {flag('model')} preset"
        )
    if abs(given - active) / active <= 0.02:
        return Fact(given, source)
    every = params_from_dims(dims, all_experts=True)
    warnings.append(
        RunWarning(
            f"{flag('params', f'{given:,.4g}')} is not the active count: with {dims.experts} experts, top-{dims.topk}, the dims give "
            f"{active:,.4g} active parameters ({every:,.4g} with every expert); 6N counts the active ones",
            "params_not_active",
        )
    )
    return Fact(
        active, "derived", f"active parameters of {dims.experts} experts, top-{dims.topk}, from the dims"
    )


def dense_layers_from_freq(freq: str, layers: int | None) -> int | None:
    """Megatron's --moe-layer-freq: 1 (every layer MoE), k (every k-th), a list like [0,0,1,...] or
    a pattern like ([0]*3+[1]*58); 0 marks a dense layer."""
    text = freq.strip().strip("'\"").replace(" ", "")
    if text.isdigit():
        k = int(text)
        return None if not layers or k < 1 else layers - layers // k
    zeros = 0
    for piece in text.strip("()").split("+"):
        m = regex.fullmatch(r"\[([01](?:,[01])*)\](?:\*(\d+))?", piece)
        if m is None:
            return None
        times = int(m.group(2) or 1)
        zeros += m.group(1).split(",").count("0") * times
    return zeros


def shard_of_preset(trainable: float, gpus: int) -> str | None:
    """The preset whose total size is `trainable` x `gpus` (within 2%): FSDP / ZeRO-3 print one shard."""
    for name in presets():
        total = all_params(preset_dims(name))
        if total and abs(trainable * gpus - total) / total < 0.02:
            return name
    return None


def resolve_model(
    opts: Options, facts: dict[str, Fact], warnings: list[RunWarning]
) -> tuple[ModelDims, dict[str, Fact]]:
    """Dims from, in order: the command line, a preset, the log; then N. Returns the dims and their facts."""
    pre = preset(opts.model) if opts.model else {}
    chosen = _dims_by_precedence(opts, pre, facts, warnings)
    _drop_dims_printed_but_off(chosen, facts)
    values = {k: f.value for k, f in chosen.items()}
    dims = ModelDims(**{k: v for k, v in values.items() if k in ModelDims.__dataclass_fields__})
    params = _params(opts, pre, dims, chosen, facts, warnings)
    if isinstance(params, tuple):  # a shard's count, or a preset's count exactly: its dims replace all
        return params
    if params is not None:
        chosen["params"] = params
        dims = ModelDims(**{**dims.__dict__, "params": float(params.value)})
    _check_preset_against_log(opts, pre, dims, facts, warnings)
    return dims, chosen


def _dims_by_precedence(
    opts: Options, pre: Table, facts: dict[str, Fact], warnings: list[RunWarning]
) -> dict[str, Fact]:
    chosen: dict[str, Fact] = {}
    for field, (cli_name, log_name) in _FIELDS.items():
        cli_value = getattr(opts, cli_name) if cli_name else None
        if cli_value is not None:
            value = cli_value == "gated" if field == "swiglu" else cli_value
            chosen[field] = Fact(value, opts.source(cli_name), opts.said(cli_name))
        elif field in pre:
            chosen[field] = Fact(pre[field], "preset", opts.model or "")
        elif log_name in facts:
            chosen[field] = facts[log_name]
    if "vocab" not in chosen and "vocab_size" in facts:
        chosen["vocab"] = facts["vocab_size"]
        warnings.append(
            RunWarning(
                f"the LM head's vocabulary is taken as the unpadded {facts['vocab_size'].value} "
                "(the log gives no padded size)",
                "vocab_unpadded",
            )
        )
    return chosen


def log_dims(facts: dict[str, Fact]) -> dict[str, Fact]:
    """The dims the log's own facts state, by model field (as `resolve_model` would take them without
    options or a preset): those printed with their defaults for a feature that is off left out, and with
    grouped-query attention off, one KV head per attention head (Megatron prints num_query_groups anyway)."""
    stated = {field: facts[log_name] for field, (_, log_name) in _FIELDS.items() if log_name in facts}
    _drop_dims_printed_but_off(stated, facts)
    gqa, heads = facts.get("group_query_attention"), facts.get("num_attention_heads")
    if gqa is not None and not gqa.value and heads is not None and "kv_heads" not in stated:
        stated["kv_heads"] = Fact(
            heads.value, "log", f"{gqa.detail}: no grouped-query attention, {heads.detail}"
        )
    return {k: f for k, f in stated.items() if f.source == "log" and f.value is not None}


def _drop_dims_printed_but_off(chosen: dict[str, Fact], facts: dict[str, Fact]) -> None:
    """Megatron prints MLA, MoE and GQA dims with their defaults when the feature is off; and derives the
    dense layers of an MoE model from its --moe-layer-freq."""
    mla = facts.get("multi_latent_attention")
    if mla is not None and not mla.value:
        for k in ("q_lora_rank", "kv_lora_rank", "qk_head_dim", "qk_pos_emb_head_dim", "v_head_dim"):
            if k in chosen and chosen[k].source == "log":
                del chosen[k]
    if not (chosen.get("experts") and chosen["experts"].value):
        for k in ("topk", "moe_ffn_hidden", "shared_expert_ffn", "dense_layers"):
            if k in chosen and chosen[k].source == "log":
                del chosen[k]
    gqa = facts.get("group_query_attention")
    if "kv_heads" in chosen and chosen["kv_heads"].source == "log" and gqa is not None and not gqa.value:
        del chosen["kv_heads"]
    if "dense_layers" not in chosen and "moe_layer_freq" in facts and "experts" in chosen:
        layers = chosen["layers"].value if "layers" in chosen else None
        dense = dense_layers_from_freq(str(facts["moe_layer_freq"].value), layers)
        if dense is not None:
            chosen["dense_layers"] = Fact(dense, "derived", f"moe_layer_freq {facts['moe_layer_freq'].value}")


def _params(
    opts: Options,
    pre: Table,
    dims: ModelDims,
    chosen: dict[str, Fact],
    facts: dict[str, Fact],
    warnings: list[RunWarning],
) -> Fact | tuple[ModelDims, dict[str, Fact]] | None:
    """N (without the input embedding): the command line's, the preset's, the framework's own, derived from
    the dims, or the log's total or trainable count with a warning."""
    if opts.params is not None and dims.moe:
        return _active_params(float(opts.params), dims, warnings, opts.source("params"))
    if opts.params is not None:
        return Fact(float(opts.params), opts.source("params"))
    if "params" in pre:
        return Fact(float(pre["params"]), "preset", opts.model or "")
    n = params_from_dims(dims)
    given = any(cli is not None and getattr(opts, cli) is not None for cli, _ in _FIELDS.values())
    matched = None if (pre or n is not None or given) else preset_of_count(facts)
    if matched is not None:
        # the log's count is a preset's, digit for digit: its dims, so that the headline counts as palm does
        name, pdims, why = matched
        chosen_dims = {k: Fact(v, "preset", why) for k, v in preset(name).items() if k in _FIELDS}
        return pdims, {**chosen_dims, "params": Fact(pdims.params, "preset", why)}
    if "params" in facts and not pre:
        return facts["params"]  # the framework's own N (nanoGPT: without position embedding)
    if n is not None:
        srcs = sorted({f.source for f in chosen.values()})
        return Fact(n, "derived", f"from layers, hidden, heads, ffn, vocab ({'/'.join(srcs)})")
    # (a total the log does not state, derived from its trainable count, is read as that count: it may be a shard's)
    if "total_params" in facts and facts["total_params"].source != "derived":
        f = facts["total_params"]
        warnings.append(
            RunWarning(
                f"N is the log's total parameter count {f.value:,.0f}, which includes the input embedding: pass "
                f"{flag('model')} or {flag('params')} N (without the input embedding) for an exact MFU",
                "params_from_log",
            )
        )
        return Fact(float(f.value), "log", f"total parameters, {f.detail}")
    if "trainable_params" in facts:
        return _trainable_params(facts, warnings)
    return None


def preset_of_count(facts: dict[str, Fact]) -> tuple[str, ModelDims, str] | None:
    """The one preset whose parameter count the log states exactly: its total (embedding included; for a
    mixture of experts every expert) as a total or trainable count, or its N (without the input embedding)
    as the framework's own N. Returns the preset's name, its dims and the sentence that says so; None when
    the log states none, or no preset or more than one has it. Exactly, not within a margin: a count near
    a preset's may be another model (a changed vocabulary, another depth)."""
    stated = [
        (facts[key], total)
        for key, total in (("total_params", True), ("trainable_params", True), ("params", False))
        if key in facts and isinstance(facts[key].value, (int, float)) and facts[key].value
    ]
    if not stated:
        return None
    found = []
    for name in presets():
        try:
            dims = preset_dims(name)
        except (TypeError, ValueError):  # a preset this build cannot size
            continue
        for fact, total in stated:
            count = all_params(dims) if total else dims.params
            if count is not None and float(fact.value) == count:
                found.append((name, dims, fact))
                break
    if len({name for name, _, _ in found}) != 1:
        return None
    name, dims, fact = found[0]
    return name, dims, f"{float(fact.value):,.0f} parameters is exactly {name}'s count"


def _trainable_params(
    facts: dict[str, Fact], warnings: list[RunWarning]
) -> Fact | tuple[ModelDims, dict[str, Fact]]:
    f = facts["trainable_params"]
    gpus = facts.get("gpus")
    shard = shard_of_preset(float(f.value), int(gpus.value)) if gpus and gpus.value > 1 else None
    if shard is not None:
        pdims = preset_dims(shard)
        warnings.append(
            RunWarning(
                f"the log's trainable parameter count {f.value:,} is one shard: x {gpus.value} GPUs it is "
                f"{shard}'s {all_params(pdims):,.0f} (FSDP / ZeRO-3 print per-rank counts); using "
                f"{shard}'s dims. Pass {flag('model')} or {flag('params')} to override",
                "params_sharded",
            )
        )
        return pdims, {"params": Fact(pdims.params, "derived", f"{shard}: trainable x GPUs, {f.detail}")}
    warnings.append(
        RunWarning(
            f"N is the log's trainable parameter count {f.value:,}, which includes the input embedding "
            f"(and under FSDP/ZeRO-3 is one shard's count): pass {flag('params')} N (without the input embedding) "
            "for an exact MFU",
            "params_from_log",
        )
    )
    return Fact(float(f.value), "log", f"trainable parameters, {f.detail}")


def _check_preset_against_log(
    opts: Options, pre: Table, dims: ModelDims, facts: dict[str, Fact], warnings: list[RunWarning]
) -> None:
    stated = facts.get("total_params")
    if stated is None or not pre or dims.params is None:
        return
    expected = all_params(dims)
    if expected and abs(stated.value - expected) / expected > 0.02:
        warnings.append(
            RunWarning(
                f"the log's model has {stated.value:,} parameters ({stated.detail}) but preset {opts.model} has "
                f"{expected:,.0f}: is {flag('model')} right?",
                "model_mismatch",
            )
        )
