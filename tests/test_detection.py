"""Auto-detection: each framework's sample log and logs that mix families."""

from __future__ import annotations

from pathlib import Path

import pytest

from logparse import api
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets
from tests import synth
from tests.conftest import SAMPLES

DATA = Path(__file__).resolve().parent / "data"

FAMILY = {"hf": "hf_trainer", "nemo1": "nemo", "nemo2": "nemo"}


def expected_format(name: str) -> str | None:
    prefix = name.split("_")[0]
    return FAMILY.get(prefix, prefix)


@pytest.mark.parametrize("log", sorted(p.name for p in SAMPLES.glob("*.log")))
def test_each_sample_log_is_detected(log):
    parsed = api.resolve(SAMPLES / log).parsed
    assert parsed.formats[0] == expected_format(log)
    assert parsed.detection.confidence > 0.9


def test_megatron_deepspeed_logs_compose_both_sets(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=50, seed=1))
    mixed = []
    for line in text.splitlines():
        mixed.append(line)
        if " iteration " in line and "consumed samples" in line:
            step = int(line.split("iteration")[1].split("/")[0])
            mixed.append(
                f"[2024-09-03 16:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] step={step}, "
                f"skipped=0, lr=[0.0003, 0.0003], mom=[(0.9, 0.95), (0.9, 0.95)]"
            )
    mixed.insert(
        0, "[2024-09-03 15:52:00,000] [INFO] [config.py:988:print]   gradient_accumulation_steps .. 16"
    )
    a = api.analyze(str(write_log("\n".join(mixed) + "\n")), hw="h100")
    assert a.run.parsed.formats[:2] == ["megatron", "deepspeed"]
    assert len(a.steps) == 50 and a.steps["step"].is_unique  # one row per step, both lines merged
    assert a.steps["skipped_total"].notna().all() and a.steps["step_time_s"].notna().all()
    assert a.summary["lines"]["unmatched"] <= 10


def test_hf_trainer_with_a_deepspeed_config_dump(write_log, sample):
    text = sample("hf_trainer_ga4_cpu.log").read_text()
    ds = "".join(
        f"[2025-01-01 00:00:0{i},000] [INFO] [config.py:988:print]   {k} {'.' * (29 - len(k))} {v}\n"
        for i, (k, v) in enumerate(
            [("train_batch_size", 16), ("gradient_accumulation_steps", 4), ("zero_optimization_stage", 3)]
        )
    )
    a = api.resolve(str(write_log(ds + text)))
    assert a.parsed.formats[:2] == ["hf_trainer", "deepspeed"]
    assert a.facts["zero_stage"].value == 3 and a.facts["grad_accum"].value == 4
    assert list(a.steps["step"]) == [5 * i for i in range(1, 13)]


def test_summary_says_which_sets_and_how_sure(sample):
    s = api.analyze(sample("megatron_llama2-7b_8xh100.log"), hw="h100").summary
    assert s["format"] == "megatron" and s["formats"][0] == "megatron"
    assert s["detection"]["confidence"] == 1.0 and s["detection"]["scores"]["megatron"] > 0


def _claims() -> list[tuple[Path, tuple[str, ...]]]:
    """Each public excerpt, peer log and capture, with the sets of the families it is none of (both tail modules'
    lists of other frameworks' logs, each read once)."""
    from tests import test_tail_fairseq_paddlenlp_metriclogger as fairseq
    from tests import test_tail_verl_veomni_automodel_tinygrad as verl

    barred: dict[Path, tuple[str, ...]] = {}
    for module in (fairseq, verl):
        for path in module._other_logs():
            barred[path] = barred.get(path, ()) + module.MINE
    return sorted(barred.items())


CLAIMS = _claims()


@pytest.mark.parametrize("path,barred", CLAIMS, ids=[str(p.relative_to(DATA)) for p, _ in CLAIMS])
def test_no_framework_claims_another_frameworks_log(path: Path, barred: tuple[str, ...]) -> None:
    """No log of another framework is detected as fairseq, PaddleNLP, the MetricLogger, verl, VeOmni,
    NeMo-Automodel or tinygrad, nor read by one of their sets beside its own."""
    try:
        parsed = parse_log(str(path), load_sets())
    except Exception:  # a log no set recognises is refused: not claimed by these sets either
        return
    assert parsed.format not in barred, f"{path.name} detected as {parsed.format}"
    assert not set(barred) & set(parsed.formats or ()), path.name
