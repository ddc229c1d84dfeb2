"""Model facts: presets, command-line dims and the log's own dims, merged with provenance."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import LogparseError
from .flops import ModelDims, params_from_dims
from .resolve import Fact, Options

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
    "swiglu": (None, "swiglu"),
    "experts": (None, "num_experts"),
    "topk": (None, "moe_router_topk"),
}


@lru_cache(maxsize=1)
def presets() -> dict[str, dict[str, Any]]:
    with open(Path(__file__).with_name("models.toml"), "rb") as fh:
        return tomllib.load(fh)


def preset(name: str) -> dict[str, Any]:
    key = name.strip().lower()
    if key not in presets():
        raise LogparseError(f"unknown model preset {name!r}; known: {', '.join(sorted(presets()))}")
    return presets()[key]


def resolve_model(
    opts: Options, facts: dict[str, Fact], warnings: list[str]
) -> tuple[ModelDims, dict[str, Fact]]:
    """Dims from, in order: the command line, a preset, the log. Returns the dims and their facts."""
    chosen: dict[str, Fact] = {}
    pre = preset(opts.model) if opts.model else {}
    for field, (cli_name, log_name) in _FIELDS.items():
        cli_value = getattr(opts, cli_name) if cli_name else None
        if cli_value is not None:
            chosen[field] = Fact(cli_value, "cli")
        elif field in pre:
            chosen[field] = Fact(pre[field], "preset", opts.model or "")
        elif log_name in facts:
            chosen[field] = facts[log_name]
    if "vocab" not in chosen and "vocab_size" in facts:
        chosen["vocab"] = facts["vocab_size"]
    gqa = facts.get("group_query_attention")
    if "kv_heads" in chosen and chosen["kv_heads"].source == "log" and gqa is not None and not gqa.value:
        del chosen["kv_heads"]  # Megatron prints num_query_groups even when GQA is off
    values = {k: f.value for k, f in chosen.items()}
    dims = ModelDims(**{k: v for k, v in values.items() if k in ModelDims.__dataclass_fields__})
    if opts.params is not None:
        chosen["params"] = Fact(float(opts.params), "cli")
    elif "params" in pre:
        chosen["params"] = Fact(float(pre["params"]), "preset", opts.model or "")
    else:
        n = params_from_dims(dims)
        if n is not None:
            srcs = sorted({f.source for f in chosen.values()})
            chosen["params"] = Fact(
                n, "derived", f"from layers, hidden, heads, ffn, vocab ({'/'.join(srcs)})"
            )
        elif "trainable_params" in facts:
            f = facts["trainable_params"]
            chosen["params"] = Fact(float(f.value), "log", f"trainable parameters, {f.detail}")
            warnings.append(
                f"N is the log's trainable parameter count {f.value:,}, which includes the input embedding "
                "(and under FSDP/ZeRO-3 is one shard's count): pass --params N (without the input embedding) "
                "for an exact MFU"
            )
    if "params" in chosen:
        dims = ModelDims(**{**dims.__dict__, "params": float(chosen["params"].value)})
    return dims, chosen
