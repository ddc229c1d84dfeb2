"""A gated MLP (SwiGLU) read from the log for MaxText, NeMo 1 and nanotron, so the FLOPs count three MLP matmuls.

Truth: each sample log's .truth.json (stable_mfu 0.45) is written by the generator that made the log, outside
logparse. The gated reading comes from each framework's source (cited in the pattern sets): MaxText's
mlp_activations with two entries (layers/linears.py MlpBlock multiplies the branches), NeMo's activation
swiglu (mlp.py glu_activation_family), nanotron's LlamaConfig (models/llama.py MLP gate_up_proj).
"""

from __future__ import annotations

import json

import pytest

from logparse.core.errors import PatternError
from logparse.patterns import sets
from logparse.read.reader import clean_text
from tests.conftest import SAMPLES, run_apart

LOGS = {
    # log: (the line that states the MLP, as summary.json's detail names it)
    "maxtext_llama2-7b_8xh100.log": "line 14 (maxtext.config_param)",
    "nemo1_llama2-7b_8xh100.log": "line 40 (nemo.hydra_config)",
    "nanotron_llama2-7b_8xh100.log": "(nanotron.llama_config)",
}


def _summary(log: str, tmp_path) -> dict:
    res = run_apart(
        ["analyze", str(SAMPLES / log), "--gpus", "8", "--hw", "h100", "--out", str(tmp_path), "-q"]
    )
    assert res.exit_code == 0, res.output
    return json.loads((tmp_path / "summary.json").read_text())


@pytest.mark.parametrize("log", sorted(LOGS))
def test_the_mlp_is_gated_from_the_log_and_the_stable_mfu_is_the_generators(log, tmp_path):
    summary = _summary(log, tmp_path)
    mlp = summary["facts"]["mlp"]
    assert mlp["value"] == "gated"
    assert mlp["source"] == "log"
    assert LOGS[log] in mlp["detail"]
    truth = json.loads((SAMPLES / log.replace(".log", ".truth.json")).read_text())["stable_mfu"]
    assert truth == 0.45
    assert summary["stable"]["mfu_mean"] == pytest.approx(truth, rel=0.01)


def _config_value(set_name: str, line: str) -> dict:
    ps = sets.load_file(SAMPLES.parent / "patterns" / f"{set_name}.toml")
    text, _, _ = clean_text(line)
    hit = ps.match(text)
    assert hit is not None, line
    return hit[1]


@pytest.mark.parametrize(
    "line, gated",
    [
        ("Config param mlp_activations: ['silu', 'linear']", True),
        ("Config param mlp_activations: ['gelu', 'linear']", True),  # gated GELU (linears.py l.593 comment)
        ("Config param mlp_activations: ['gelu']", False),  # gpt3-6b.yml: mlp_activations: ["gelu"]
        ("Config param mlp_activations: ('relu',)", False),  # MlpBlock's default, a 1-tuple
    ],
)
def test_maxtext_two_activations_are_gated_one_is_plain(line, gated):
    assert _config_value("maxtext", line).get("swiglu") is gated


@pytest.mark.parametrize(
    "name, gated",
    # mlp.py l.102-111 supported_activations; l.148 glu_activation_family (gated)
    [
        ("gelu", False),
        ("approx-gelu", False),
        ("squared-relu", False),
        ("geglu", True),
        ("reglu", True),
        ("swiglu", True),
        ("fast-geglu", True),
        ("fast-swiglu", True),
        ("fast-reglu", True),
    ],
)
def test_nemo_activation_names_map_to_gated_or_plain(name, gated):
    assert _config_value("nemo", f"      activation: {name}").get("swiglu") is gated


def test_true_when_on_a_field_that_is_not_bool_is_one_clear_error(tmp_path):
    bad = (
        (SAMPLES.parent / "patterns" / "maxtext.toml")
        .read_text()
        .replace(
            'fields.mlp_activations = { column = "swiglu", type = "bool",',
            'fields.mlp_activations = { column = "swiglu", type = "str",',
        )
    )
    path = tmp_path / "maxtext.toml"
    path.write_text(bad)
    with pytest.raises(PatternError, match='true_when applies to type = "bool" fields'):
        sets.load_file(path)
