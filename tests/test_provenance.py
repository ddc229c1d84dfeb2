"""Where facts come from: each fact in summary.json names where it came from (the command line,
a run folder's logparse.toml, the log, a preset), an option that replaces what the log states says so with
both values, the MLP's gating is a choice with its source, and the report's footer puts each source beside
its own fact."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLES, run_apart

MEGATRON = SAMPLES / "megatron_llama2-7b_8xh100.log"


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


# ------------------------------------------------------------------------------------------------
# 1. a sidecar's options are the sidecar's, not the command line's


def _sidecar_run(tmp_path: Path, toml: str) -> dict:
    """The summary of the Megatron sample run by `logparse batch` from a run folder whose logparse.toml is `toml`."""
    runs = tmp_path / "runs"
    (runs / "a").mkdir(parents=True)
    shutil.copy(MEGATRON, runs / "a" / "train.log")
    (runs / "a" / "logparse.toml").write_text(toml)
    out = tmp_path / "out"
    res = run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.stderr
    return _summary(out / "train")


def test_a_sidecars_options_are_named_as_the_sidecars(tmp_path):
    s = _sidecar_run(
        tmp_path,
        'hw = "b200"\ngpus = 8\ndtype = "bf16"\nseq_len = 4096\nmodel = "llama2-7b"\nglobal_batch = 128\n',
    )
    hw = s["hardware"]
    # nobody typed --hw: the device is the sidecar's, said as the sidecar says it
    assert hw["name"].startswith("b200")
    assert hw["name_source"] == "sidecar"
    assert hw["name_detail"] == 'logparse.toml: hw = "b200"'
    assert hw["dtype_source"] == "sidecar"
    assert s["gpus_source"] == "sidecar"
    assert s["facts"]["seq_len"]["source"] == "sidecar"
    assert s["facts"]["global_batch_size"]["source"] == "sidecar"
    assert s["model"]["sources"]["layers"] == "preset"  # the preset's dims, the preset named by the sidecar


def test_a_sidecars_peak_is_the_sidecars(tmp_path):
    hw = _sidecar_run(tmp_path, "peak_tflops = 500\n")["hardware"]
    assert (hw["peak_tflops_per_gpu"], hw["name_source"]) == (500, "sidecar")
    assert hw["name_detail"] == "logparse.toml: peak_tflops = 500.0"


# ------------------------------------------------------------------------------------------------
# 2. an option that replaces a dim the log states says so, naming both values


def _warnings(*args: str, tmp: Path) -> tuple[dict, list[str]]:
    res = run_apart(["analyze", *args, "--json", "--out", str(tmp)])
    assert res.exit_code == 0, res.stderr
    s = json.loads(res.stdout)
    return s, [w for w in s["warnings"]]


def test_a_preset_that_replaces_the_logs_dims_warns_with_both_values(tmp_path):
    # the log's own argument dump (sample_logs/megatron_llama2-7b_8xh100.log): ffn_hidden_size 11008,
    # padded vocab 32000, group_query_attention False (32 heads, so 32 KV heads); llama3-8b's preset
    # (specs/models.toml, from Meta's config.json) has 14336, 128256 and 8
    s, warnings = _warnings(str(MEGATRON), "--hw", "h100", "--model", "llama3-8b", tmp=tmp_path)
    said = [w for w in warnings if w.startswith("--model llama3-8b replaces dims the log states")]
    assert len(said) == 1, warnings
    for both in (
        "ffn_hidden 14336 (the log: 11008",
        "vocab 128256 (the log: 32000",
        "kv_heads 8 (the log: 32",
    ):
        assert both in said[0]
    assert s["model"]["ffn_hidden"] == 14336  # the option still wins


def test_the_logs_own_model_as_a_preset_warns_nothing(tmp_path):
    _, warnings = _warnings(str(MEGATRON), "--hw", "h100", "--model", "llama2-7b", tmp=tmp_path)
    assert not [w for w in warnings if "the log states" in w], warnings


def test_each_dim_flag_that_replaces_the_logs_warns_with_both_values(tmp_path):
    _, warnings = _warnings(
        str(MEGATRON),
        "--hw",
        "h100",
        "--ffn-hidden",
        "14336",
        "--vocab",
        "32000",
        "--layers",
        "32",
        tmp=tmp_path,
    )
    differs = [w for w in warnings if "but the log states" in w]
    assert differs == [
        "--ffn-hidden 14336 but the log states ffn_hidden 11008 (line 10 (megatron.argument)); using --ffn-hidden 14336"
    ]  # --vocab 32000 and --layers 32 are what the log says: no word


# ------------------------------------------------------------------------------------------------
# 3. the MLP's kind is a choice (--mlp gated|plain), said with its source

# Grok-1 (xai-org/grok-1 model.py; specs/models.toml): 64 layers, hidden 6144, 48 heads, 8 KV heads,
# ffn 32768, vocab 131072, 8 experts, top-2, a gated MLP (three matrices). FLOPs per token by the formula
# of NVIDIA dgxc-benchmarking's grok1 README (tests/data/public/moe_grok1_dgxc_mfu_formula.log, Megatron-LM's
# num_floating_point_operations): 12 L h^2 (1 + g/a + s/2h) + 18 L ffn h topK + 6 V h, at s = 8192 (the log's)
L, H, A, G, FFN, V, K, S = 64, 6144, 48, 8, 32768, 131072, 2, 8192
ATTENTION = 12 * L * H**2 * (1 + G / A + S / H / 2)  # 53,150,220,288 as the README prints it
GATED_MLP = 18 * L * FFN * H * K  # 3 matrices x 6 FLOPs per MAC: 463,856,467,968 as printed
PLAIN_MLP = 12 * L * FFN * H * K  # 2 matrices
LOGITS = 6 * V * H
GROK = ["--layers", "64", "--hidden", "6144", "--heads", "48", "--kv-heads", "8", "--ffn-hidden", "32768"]
GROK += ["--vocab", "131072", "--experts", "8", "--topk", "2"]
TORCHTITAN = SAMPLES / "torchtitan_llama3-8b_8xh100.log"  # seq len 8192, no MLP kind in the log
# a peak that keeps a 314B model's MFU on an 8B run's throughput below 100%: only ratios are checked
COMMON = [str(TORCHTITAN), "--peak-tflops", "10000", "--formula", "megatron"]


def test_grok1_dims_with_mlp_gated_count_as_the_preset_and_the_readme(tmp_path):
    assert round(ATTENTION) == 53_150_220_288 and GATED_MLP == 463_856_467_968
    preset, _ = _warnings(*COMMON, "--model", "grok-1", tmp=tmp_path / "p")
    gated, _ = _warnings(*COMMON, *GROK, "--mlp", "gated", tmp=tmp_path / "g")
    expected = ATTENTION + GATED_MLP + LOGITS
    assert gated["flops_per_token"] == pytest.approx(expected, rel=1e-5)
    assert preset["flops_per_token"] == pytest.approx(expected, rel=1e-5)
    assert gated["stable"]["mfu_mean"] == pytest.approx(preset["stable"]["mfu_mean"], rel=1e-4)
    assert gated["facts"]["mlp"] == {"value": "gated", "source": "cli", "detail": "--mlp gated"}
    assert preset["facts"]["mlp"]["value"] == "gated" and preset["facts"]["mlp"]["source"] == "preset"


def test_explicit_dims_without_mlp_are_counted_plain_and_say_so(tmp_path):
    plain, warnings = _warnings(*COMMON, *GROK, tmp=tmp_path / "d")
    assert plain["flops_per_token"] == pytest.approx(ATTENTION + PLAIN_MLP + LOGITS, rel=1e-5)
    assert plain["facts"]["mlp"]["value"] == "plain" and plain["facts"]["mlp"]["source"] == "default"
    assert any(
        w.startswith("--ffn-hidden 32768: the MLP is counted as plain") and "--mlp gated" in w
        for w in warnings
    )
    # the published relation: plain / gated FLOPs, so MFU, is (attention + 12 + logits) / (attention + 18 + logits)
    explicit, _ = _warnings(*COMMON, *GROK, "--mlp", "plain", tmp=tmp_path / "e")
    assert (
        explicit["facts"]["mlp"]["source"] == "cli"
        and explicit["flops_per_token"] == plain["flops_per_token"]
    )
    assert not [w for w in _warnings(*COMMON, *GROK, "--mlp", "plain", tmp=tmp_path / "f")[1] if "mlp" in w]


def test_mlp_plain_against_a_logs_swiglu_warns(tmp_path):
    _, warnings = _warnings(str(MEGATRON), "--hw", "h100", "--mlp", "plain", tmp=tmp_path)
    assert any(w.startswith("--mlp plain but the log states a gated MLP (line 40") for w in warnings), (
        warnings
    )


def test_mlp_is_a_sidecar_and_api_option_too():
    import logparse
    from logparse.core.options import checked

    assert checked("mlp", "gated") == "gated"
    a = logparse.analyze(
        str(TORCHTITAN),
        peak_tflops=10000,
        formula="megatron",
        mlp="gated",
        **{
            "layers": 64,
            "hidden": 6144,
            "heads": 48,
            "kv_heads": 8,
            "ffn_hidden": 32768,
            "vocab": 131072,
            "experts": 8,
            "topk": 2,
        },
    )
    assert a.summary["flops_per_token"] == pytest.approx(ATTENTION + GATED_MLP + LOGITS, rel=1e-5)


# ------------------------------------------------------------------------------------------------
# 4. the report's footer: each source beside its own fact, the device named


def _footer(figures: list, tmp_path: Path, *args: str) -> str:
    """The footer report.png draws (its Text artist), from `logparse analyze` run in this process (`figures`:
    the conftest's `saved`)."""
    from click.testing import CliRunner

    from logparse.cli import cli

    res = CliRunner().invoke(cli, ["analyze", *args, "--out", str(tmp_path), "-q"])
    assert res.exit_code == 0, res.output
    (fig,) = figures
    (text,) = [t.get_text() for t in fig.texts if t.get_text().startswith("assumptions:")]
    return " ".join(text.split())  # wrapped at 170 characters: one line


def test_footer_names_the_device_and_says_each_source_beside_its_fact(saved, tmp_path):
    # the device and its peak from --hw (989 = half the H100 SXM datasheet's 1,979 "with sparsity" BF16),
    # the dtype from the log's own `bf16 ... True` argument
    footer = _footer(saved, tmp_path, str(MEGATRON), "--hw", "h100")
    assert "h100-sxm (--hw h100), bf16 (log): dense peak 989 TFLOPS/GPU (hardware table)" in footer
    assert "(log)" not in footer.split("bf16 (log)")[1].split(";")[0]  # the peak is not said to be the log's


def test_footer_says_a_peak_given_as_a_number_is_the_options(saved, tmp_path):
    footer = _footer(saved, tmp_path, str(MEGATRON), "--peak-tflops", "900")
    assert "dense peak 900 TFLOPS/GPU (--peak-tflops), bf16 (log)" in footer


def test_a_sidecars_dims_and_mlp_are_the_sidecars_and_warn_as_such(tmp_path):
    s = _sidecar_run(tmp_path, 'hw = "h100"\nffn_hidden = 14336\nmlp = "gated"\n')
    assert s["model"]["sources"]["ffn_hidden"] == "sidecar" and s["model"]["ffn_hidden"] == 14336
    assert s["facts"]["mlp"] == {
        "value": "gated",
        "source": "sidecar",
        "detail": 'logparse.toml: mlp = "gated"',
    }
    assert (
        "logparse.toml: ffn_hidden = 14336 but the log states ffn_hidden 11008 (line 10 (megatron.argument)); "
        "using logparse.toml: ffn_hidden = 14336"
    ) in s["warnings"]
