"""The summary's types (core/summary_types.py) say what summary.json really holds: on real summaries,
every key present is declared (at every depth), every required key is present, each value is of its
declared kind, and every declared key is seen in some summary (no stale field).

The summaries: every one recorded in tests/data/golden/outputs.json.gz (the output contract: every sample
and fixture log, with analyze's defaults and with --gpus 8 --hw h100), and a few analysed here with the
options that add blocks the record has no case of (--last gives `window`, --target-tokens `eta`)."""

from __future__ import annotations

import gzip
import json
import types
import typing
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from logparse.core.summary_types import Summary
from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "data" / "golden" / "outputs.json.gz"
LIVE = [  # (log, analyze keywords): blocks no recorded case has
    (
        "sample_logs/megatron_llama2-7b_8xh100.log",
        {"gpus": 8, "hw": "h100", "last": 1000, "target_tokens": 1e12},
    ),
    ("sample_logs/megatron_llama2-7b_8xh100.log", {"gpus": 8, "hw": "h100", "window": "20:100"}),
    ("tests/data/runfolders/hf_output_nolog", {}),  # a run folder: the folder block
    # a log whose parameter count is a preset's exactly: the model block says why its source is the preset
    ("sample_logs/torchtitan_llama3-8b_8xh100.log", {}),
    # a log that states its FLOPs per token (nanochat): the flops_stated block (recorded once the record is made again)
    ("tests/data/captures/nanochat/base_train_cpu.log", {"hw": "h100"}),
]


def _recorded() -> list[tuple[str, dict[str, Any]]]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as fh:
        golden = json.load(fh)
    return [(case, json.loads(out["summary"])) for case, out in golden.items() if "summary" in out]


def _live() -> list[tuple[str, dict[str, Any]]]:
    import logparse

    return [(f"{log}::{kw}", logparse.analyze(str(ROOT / log), **kw).summary) for log, kw in LIVE]


def check(value: Any, hint: Any, where: str, seen: set[str], problems: list[str]) -> None:
    """Append to `problems` where `value` is not of type `hint`; add each declared key met to `seen`
    (as "TypedDictName.key")."""
    origin = get_origin(hint)
    if hint is Any:
        return
    if origin in (Union, types.UnionType):
        options = get_args(hint)
        if value is None and type(None) in options:
            return
        kept = [h for h in options if h is not type(None)]
        if len(kept) != 1:  # only X | None is used
            problems.append(f"{where}: cannot check {hint}")
            return
        check(value, kept[0], where, seen, problems)
        return
    if is_typeddict(hint):
        if not isinstance(value, dict):
            problems.append(f"{where}: {type(value).__name__}, expected {hint.__name__}")
            return
        hints = get_type_hints(hint)
        for key in sorted(set(value) - set(hints)):
            problems.append(f"{where}.{key}: not declared in {hint.__name__}")
        for key in sorted(hint.__required_keys__ - set(value)):
            problems.append(f"{where}.{key}: required by {hint.__name__}, absent")
        for key, v in value.items():
            if key in hints:
                seen.add(f"{hint.__name__}.{key}")
                check(v, hints[key], f"{where}.{key}", seen, problems)
        return
    if origin is list:
        if not isinstance(value, list):
            problems.append(f"{where}: {type(value).__name__}, expected a list")
            return
        for i, v in enumerate(value):
            check(v, get_args(hint)[0], f"{where}[{i}]", seen, problems)
        return
    if origin is dict:
        if not isinstance(value, dict):
            problems.append(f"{where}: {type(value).__name__}, expected a dict")
            return
        for k, v in value.items():
            check(v, get_args(hint)[1], f"{where}[{k!r}]", seen, problems)
        return
    kinds = {float: (int, float), int: (int,), str: (str,), bool: (bool,)}[hint]  # JSON: 1e12 may read as int
    if not isinstance(value, kinds) or (hint is not bool and isinstance(value, bool)):
        problems.append(f"{where}: {value!r}, expected {hint.__name__}")


def _declared(td: Any, out: set[str]) -> set[str]:
    """Every "TypedDictName.key" reachable from `td`."""
    for key, hint in get_type_hints(td).items():
        out.add(f"{td.__name__}.{key}")
        stack = [hint]
        while stack:
            h = stack.pop()
            if is_typeddict(h):
                if not any(x.startswith(f"{h.__name__}.") for x in out):
                    _declared(h, out)
            else:
                stack.extend(a for a in get_args(h) if a is not type(None))
    return out


@pytest.fixture(scope="module")
def summaries() -> list[tuple[str, dict[str, Any]]]:
    return _recorded() + _live()


def test_every_summary_key_is_declared_and_every_required_key_present(summaries):
    seen: set[str] = set()
    problems: list[str] = []
    for case, s in summaries:
        check(s, Summary, case, seen, problems)
    assert problems == [], "\n".join(problems[:30])


def test_every_declared_key_is_seen_in_some_summary(summaries):
    seen: set[str] = set()
    for case, s in summaries:
        check(s, Summary, case, seen, [])
    assert sorted(_declared(Summary, set()) - seen) == []


def test_the_check_sees_an_undeclared_a_missing_and_a_mistyped_key():
    summary = _recorded()[0][1]
    summary["hardware"]["colour"] = "green"  # undeclared
    del summary["steps"]["count"]  # required
    summary["lines"]["total"] = "565"  # mistyped
    problems: list[str] = []
    check(summary, Summary, "s", set(), problems)
    assert sorted(problems) == [
        "s.hardware.colour: not declared in HardwarePart",
        "s.lines.total: '565', expected int",
        "s.steps.count: required by StepsPart, absent",
    ]


def test_the_types_are_only_annotations():
    """typing only: the module defines TypedDicts and nothing that runs."""
    import logparse.core.summary_types as st

    own = [v for v in vars(st).values() if isinstance(v, type) and v.__module__ == st.__name__]
    assert own and all(is_typeddict(t) for t in own)
    assert typing.get_origin(get_type_hints(Summary)["regimes"]) is list
