"""Facts a log states in its own words at start-up, in any log (patterns/stated.toml, the device lines of
patterns/devices.toml, torchtune's recipe line): the GPUs, the device, the model's dims, the sequence length, the
batch, parameter counts and the FLOPs per token the training code counts itself, each a fact of source `log`
with its line; a framework's own line outranks a free-form one, an option outranks both.

The two runs that state everything MFU needs, read with no option but the hardware where the log names none: a
real nanochat `base_train` on CPU (tests/data/captures/nanochat/, its checkpoint metadata the truth), and a custom
loop that prints its devices and its config on one line. Expected figures are worked out by hand here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import logparse
from logparse.cli import cli
from logparse.steps import runfacts
from tests.conftest import ROOT

NANOCHAT = ROOT / "tests" / "data" / "captures" / "nanochat"
TORCHTUNE = ROOT / "tests" / "data" / "captures" / "torchtune"
H100_BF16 = 989e12  # specs/hardware.toml h100-sxm, dense bf16
A100_BF16 = 312e12


def analyze_cli(log: Path, out: Path, *options: str) -> dict:
    res = CliRunner().invoke(cli, ["analyze", str(log), "--out", str(out), "--quiet", *options])
    assert res.exit_code == 0, res.output
    return json.loads((out / "summary.json").read_text())


def unknown_codes(log: Path, **options) -> list[str]:
    return [w.code for w in logparse.resolve(str(log), **options).warnings if w.code.endswith("_unknown")]


# ------------------------------------------------------------------------------------------ nanochat, for real


def test_nanochat_states_its_gpus_dims_batch_and_flops_per_token(tmp_path):
    meta = json.loads((NANOCHAT / "base_train_cpu.meta_000030.json").read_text())
    cfg = meta["model_config"]
    log = NANOCHAT / "base_train_cpu.log"
    s = analyze_cli(log, tmp_path / "out", "--hw", "h100")
    assert (s["gpus"], s["gpus_source"]) == (1, "log")  # "Distributed world size: 1"
    assert (
        s["hardware"]["name"] == "h100-sxm" and s["hardware"]["name_source"] == "cli"
    )  # the log names no GPU
    model = s["model"]
    assert (model["layers"], model["hidden"], model["heads"], model["kv_heads"], model["vocab"]) == (
        cfg["n_layer"], cfg["n_embd"], cfg["n_head"], cfg["n_kv_head"], cfg["vocab_size"]
    )  # fmt: skip
    assert model["seq_len"] == cfg["sequence_len"] == meta["max_seq_len"] == 128
    # "Total batch size 1,024 => gradient accumulation steps: 2": the total batch counted in tokens
    assert s["tokens_per_step"] == meta["total_batch_size"] == 1024
    assert s["facts"]["grad_accum"]["value"] == 1024 // (meta["device_batch_size"] * meta["max_seq_len"]) == 2
    # the log's own count, used as its convention, and logparse's palm count from the same dims beside it
    assert s["formula"] == "log" and s["flops_per_token"] == pytest.approx(4.325664e6, rel=1e-5)
    stated = s["flops_stated"]
    assert stated["used"] and stated["formula"] == "palm"
    # palm on the log's dims: N = L (4 h^2 + 2 h) + L 2 h (4 h) + h V + h (plain MLP, no GQA), 6N + 12 L h T
    L, h, V, T = 2, 128, 2048, 128
    n = L * (4 * h * h + 2 * h) + L * 2 * h * 4 * h + h * V + h
    assert stated["from_dims"] == pytest.approx(6 * n + 12 * L * h * T, rel=1e-5)
    assert "agrees" in stated["check"]
    assert unknown_codes(log, hw="h100") == []
    # MFU of each step from the tokens/s its own line prints: one GPU, the log's FLOPs per token, the H100's peak
    printed = {
        int(m[1]): float(m[2].replace(",", ""))
        for m in re.finditer(r"^step (\d+)/\d+ .*?\| tok/sec: ([\d,]+) \|", log.read_text(), re.M)
    }
    steps = logparse.analyze(str(log), hw="h100").steps.set_index("step")
    for step, tok_s in printed.items():
        assert steps.at[step, "mfu"] == pytest.approx(4.325664e6 * tok_s / H100_BF16, rel=1e-6), step


def test_nanochat_on_a_gpu_needs_no_option(tmp_path):
    # the statements of the CPU capture above as base_train.py prints them on a GPU, which adds its device:
    # `print0(f"GPU: {gpu_device_name} | Peak FLOPS (BF16): {gpu_peak_flops:.2e}")` (scripts/base_train.py, when
    # device_type == "cuda"), then its steps (scripts/base_train.py:567, the format synonyms.toml cites)
    head = [
        "Autodetected device type: cuda",
        "2026-12-05 10:04:19,488 - nanochat.common - INFO - Distributed world size: 1",
        "GPU: NVIDIA H100 80GB HBM3 | Peak FLOPS (BF16): 9.89e+14",
        "Vocab size: 2,048",
        "Model config:",
        "{",
        '  "sequence_len": 128,',
        '  "vocab_size": 2048,',
        '  "n_layer": 2,',
        '  "n_head": 2,',
        '  "n_kv_head": 2,',
        '  "n_embd": 128,',
        '  "window_pattern": "L"',
        "}",
        "Estimated FLOPs per token: 4.325664e+06",
        "Total batch size 1,024 => gradient accumulation steps: 2",
    ]
    tok_s = [180_100, 201_350, 200_900, 201_720, 199_980]
    steps = [
        f"step {i:05d}/00030 ({i / 30 * 100:.2f}%) | loss: {7.6 - i / 100:.6f} | lrm: 0.03 | dt: {1024 / t * 1000:.2f}ms | "
        f"tok/sec: {t:,} | bf16_mfu: 0.00 | epoch: 1 | total time: 0.00m"
        for i, t in enumerate(tok_s, start=1)
    ]
    log = tmp_path / "base_train.log"
    log.write_text("\n".join([*head, *steps]) + "\n")
    s = analyze_cli(log, tmp_path / "out")
    assert (s["gpus"], s["gpus_source"]) == (1, "log")
    assert s["hardware"]["name"] == "h100-sxm" and s["hardware"]["name_source"] == "log"
    model = s["model"]
    assert (model["layers"], model["hidden"], model["heads"], model["kv_heads"], model["vocab"]) == (
        2,
        128,
        2,
        2,
        2048,
    )
    assert model["seq_len"] == 128 and s["tokens_per_step"] == 1024
    assert s["formula"] == "log" and s["flops_per_token"] == pytest.approx(4.325664e6, rel=1e-6)
    assert unknown_codes(log) == []
    got = logparse.analyze(str(log)).steps.set_index("step")["mfu"]
    for i, t in enumerate(
        tok_s, start=1
    ):  # one GPU: the log's FLOPs per token x its tokens/s / the H100's peak
        assert got[i] == pytest.approx(4.325664e6 * t / H100_BF16, rel=1e-9), i


# ------------------------------------------------------------------------------------------ a custom loop

CUSTOM = [
    "2025-06-02 09:14:01 INFO Using 4 x NVIDIA A100-SXM4-80GB",
    "2025-06-02 09:14:01 INFO config: model=llama-1b seq_len=2048 global_batch=64 layers=16 hidden=2048 heads=16 "
    "kv_heads=8 vocab=32000",
    "2025-06-02 09:14:07 INFO loaded 1,024 shards",
    "step 10 | loss 3.21 | 1391.7 ms | 94,181 tok/s",
    "step 20 | loss 3.14 | 1190.2 ms | 110,126 tok/s",
    "step 30 | loss 3.07 | 1182.4 ms | 110,853 tok/s",
    "step 40 | loss 3.00 | 1183.0 ms | 110,796 tok/s",
    "step 50 | loss 2.93 | 1181.8 ms | 110,909 tok/s",
    "step 60 | loss 2.86 | 1184.6 ms | 110,647 tok/s",
]


def test_custom_loop_states_its_gpus_device_and_config(tmp_path):
    log = tmp_path / "custom.log"
    log.write_text("\n".join(CUSTOM) + "\n")
    s = analyze_cli(log, tmp_path / "out")
    assert (s["gpus"], s["gpus_source"]) == (4, "log")
    hw = s["hardware"]
    assert (
        hw["name"] == "a100" and hw["name_source"] == "log" and "NVIDIA A100-SXM4-80GB" in hw["name_detail"]
    )
    model = s["model"]
    L, h, heads, kv, V, T = 16, 2048, 16, 8, 32000, 2048
    assert (model["layers"], model["hidden"], model["heads"], model["kv_heads"], model["vocab"]) == (
        L,
        h,
        heads,
        kv,
        V,
    )
    assert model["seq_len"] == T and s["facts"]["global_batch_size"]["value"] == 64
    assert s["tokens_per_step"] == 64 * 2048 == 131072
    assert unknown_codes(log) == []
    # palm: N = L (h (h + 2 kv hd) + h h + 2 h) + L 2 h 4h + h V + h (GQA, a plain 4h MLP: no width or gating stated)
    hd = h // heads
    n = L * (h * (h + 2 * kv * hd) + h * h + 2 * h) + L * 2 * h * 4 * h + h * V + h
    fpt = 6 * n + 12 * L * h * T
    assert s["formula"] == "palm" and s["flops_per_token"] == pytest.approx(fpt, rel=1e-5)
    steps = logparse.analyze(str(log)).steps.set_index("step")
    for line in CUSTOM[3:]:
        step, tok_s = int(line.split()[1]), float(line.split("|")[3].split()[0].replace(",", ""))
        assert steps.at[step, "mfu"] == pytest.approx(fpt * tok_s / 4 / A100_BF16, rel=1e-6)


# ------------------------------------------------------------------------------------------ torchtune, one device


def test_torchtune_single_device_recipe_is_one_gpu():
    log = TORCHTUNE / "torchtune_stdout_cpu.log"
    run = logparse.resolve(str(log))
    # "Running FullFinetuneRecipeSingleDevice with resolved config:" (line 2)
    assert (
        run.facts["gpus"].value == 1
        and run.facts["gpus"].source == "log"
        and "line 2" in run.facts["gpus"].detail
    )
    truth = [
        json.loads(x) for x in (TORCHTUNE / "torchtune_stdout_cpu.metrics.jsonl").read_text().splitlines()
    ]
    steps = run.steps.set_index("step")
    for rec in truth:  # the cluster's tokens/s is the one GPU's, as the metric logger printed it
        printed = float(rec["tokens_per_second_per_gpu__printed"])
        assert (
            steps.at[rec["step"], "tokens_per_s"] == printed == steps.at[rec["step"], "tokens_per_s_per_gpu"]
        )
    assert "gpus_unknown" not in [w.code for w in run.warnings]


# ------------------------------------------------------------------------------------------ each form, in any log
# A nanoGPT log (a framework's: its set reads its own lines) with one start-up statement more: the statement is
# read by the stated-facts set, not only in the logs no framework's set reads.

NANOGPT_STEPS = [f"iter {i}: loss {4.2 - i / 100:.4f}, time 250.00ms, mfu 30.00%" for i in range(0, 60, 10)]


def nanogpt_run(tmp_path: Path, *head: str, **options):
    log = tmp_path / "train.log"
    log.write_text("\n".join([*head, *NANOGPT_STEPS]) + "\n")
    return logparse.resolve(str(log), **options)


def stated(run, *names: str) -> dict:
    return {n: run.facts[n].value for n in names if n in run.facts}


DIMS = ("num_layers", "num_attention_heads", "hidden_size", "seq_len")
FORMS = {
    "json_one_line": ['2025-06-02 09:14:01,123 - train - INFO - model config: {"n_layer": 4, "n_head": 8, '
                      '"n_embd": 512, "block_size": 256}'],
    "json_over_lines": ["Model config:", "{", '  "sequence_len": 256,', '  "vocab_size": 50304,', '  "n_layer": 4,',
                        '  "n_head": 8,', '  "n_embd": 512,', '  "window_pattern": "L"', "}"],
    "yaml": ["model:", "  n_layer: 4", "  n_head: 8", "  n_embd: 512", "data:", "  seq_len: 256"],
    "dict": ["config: {'n_layer': 4, 'n_head': 8, 'n_embd': 512, 'block_size': 256, 'dropout': 0.0}"],
    "repr": ["model: GPTConfig(block_size=256, vocab_size=50304, n_layer=4, n_head=8, n_embd=512, bias=False)"],
    "key_value_pairs": ["[2025-06-02 09:14:01] config: model=gpt-small seq_len=256 layers=4 heads=8 hidden=512"],
    "key_colon_value": ["Number of layers: 4", "n_head: 8", "Hidden size: 512", "Sequence length: 256"],
    "markdown_backticks": ["- number of layers: `4`", "- n_head: `8`", "- hidden size: `512`", "- block_size: `256`"],
    "command_line": ["python train.py --n_layer=4 --n_head 8 --n_embd 512 --block_size 256 --compile"],
    "command_continued": ["./train \\", "  --n-layer 4 \\", "  --n-head 8 \\", "  --n-embd 512 \\", "  --block-size 256 \\", "  --compile"],
}  # fmt: skip


@pytest.mark.parametrize("form", FORMS)
def test_a_config_echo_in_any_form_states_the_dims(tmp_path, form):
    run = nanogpt_run(tmp_path, *FORMS[form])
    assert run.parsed.format == "nanogpt"
    assert stated(run, *DIMS) == {
        "num_layers": 4,
        "num_attention_heads": 8,
        "hidden_size": 512,
        "seq_len": 256,
    }
    assert all(run.facts[n].source == "log" and "stated." in run.facts[n].detail for n in DIMS)


def test_an_option_with_a_list_of_numbers_states_no_count(tmp_path):
    # mlcommons/training_results_v0.5 NCF's run_and_time.sh: the widths of the layers after one option
    run = nanogpt_run(
        tmp_path,
        "+ python -m torch.distributed.launch --nproc_per_node=16 ncf.py /data/ml-20m -l 0.0045 -b 1048576 "
        "--layers 256 256 128 64 -f 64 --seed 4315 --n_embd 512",
    )
    assert "num_layers" not in run.facts
    assert stated(run, "hidden_size") == {"hidden_size": 512}


def test_a_world_size_line_behind_a_logger_prefix(tmp_path):
    run = nanogpt_run(
        tmp_path, "2025-06-02 09:14:01,123 - nanochat.common - INFO - Distributed world size: 4"
    )
    assert (run.facts["gpus"].value, run.facts["gpus"].source) == (4, "log")
    assert "line 1 (stated.config_line)" in run.facts["gpus"].detail


@pytest.mark.parametrize(
    "line, want",
    [
        ("Number of parameters: 1.2B", {"total_params": 1_200_000_000}),
        ("total params: 124.4M", {"total_params": 124_400_000}),
        ("total params: 124,439,808", {"total_params": 124_439_808}),
        # karpathy/ng-video-lecture gpt.py: print(sum(...)/1e6, 'M parameters'), kept by the loops copied from it
        ("0.209729 M parameters", {"total_params": 209_729}),
        ("2025-09-17 14:31:33,476 - INFO - 1.27 M parameters", {"total_params": 1_270_000}),
        (  # peft's print_trainable_parameters
            "trainable params: 4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622",
            {"trainable_params": 4_194_304, "total_params": 6_742_609_920},
        ),
    ],
)
def test_parameter_counts(tmp_path, line, want):
    assert stated(nanogpt_run(tmp_path, line), "total_params", "trainable_params") == want


def test_total_batch_and_gradient_accumulation(tmp_path):
    run = nanogpt_run(tmp_path, "Total batch size 524,288 => gradient accumulation steps: 8")
    assert stated(run, "tokens_per_step", "grad_accum") == {"tokens_per_step": 524_288, "grad_accum": 8}
    assert set(run.steps["tokens_per_step"]) == {524_288.0}


@pytest.mark.parametrize(
    "head, micro",
    [
        # choijun9040/vlm_project's distillation banner: the loader's batch, then the batch an update sees
        (["  batch_size:     2", "  effective_batch:16"], 2),
        (["batch_size: 8", "world_size: 4"], 8),  # several processes: the per-process batch
        (["batch_size: 8", "global_batch_size: 12"], None),  # no whole multiple: not the micro batch's
    ],
)
def test_a_bare_batch_size_beside_a_larger_global_one_is_the_micro_batch(tmp_path, head, micro):
    run = nanogpt_run(tmp_path, *head)
    assert stated(run, "micro_batch_size").get("micro_batch_size") == micro


@pytest.mark.parametrize(
    "line",
    ["Estimated FLOPs per token: 1.500000e+09", "FLOPs per step: 7.3728e+13"],  # 1.5e9 x 49,152 tokens
)
def test_the_logs_flops_per_token_make_mfu_without_the_model(tmp_path, line):
    log = tmp_path / "train.log"
    log.write_text("\n".join(["tokens per iteration will be: 49,152", line, *NANOGPT_STEPS]) + "\n")
    a = logparse.analyze(str(log), gpus=1, hw="h100")
    s = a.summary
    assert s["formula"] == "log" and s["flops_per_token"] == pytest.approx(1.5e9)
    # no dims stated: nothing to check the count against, and no model size asked for
    assert s["flops_stated"]["from_dims"] is None and "model_unknown" not in [w.code for w in a.run.warnings]
    timed = a.steps[a.steps["step"] > 0]  # (iter 0's time is before the first step's work)
    expected = 1.5e9 * 49_152 / 0.25 / H100_BF16
    assert timed["mfu"].tolist() == pytest.approx([expected] * len(timed), rel=1e-9)


def test_an_option_wins_over_the_logs_flops_per_token(tmp_path):
    head = ["tokens per iteration will be: 49,152", "Estimated FLOPs per token: 1.5e+09", "n_layer = 12",
            "n_head = 12", "n_embd = 768", "block_size = 1024", "found vocab_size = 50304 (inside meta.pkl)"]  # fmt: skip
    log = tmp_path / "train.log"
    log.write_text("\n".join([*head, *NANOGPT_STEPS]) + "\n")
    s = logparse.analyze(str(log), gpus=1, hw="h100", formula="palm").summary
    assert s["formula"] == "palm" and not s["flops_stated"]["used"]
    assert s["flops_per_token"] == pytest.approx(s["flops_stated"]["from_dims"], rel=1e-5)


@pytest.mark.parametrize(
    "line, want",
    [
        # InternLM/InternEvo internlm/initialize/launch.py: the parallel sizes as `Key: value` items of a sentence
        (
            "2023-09-05 11:47:51,006 INFO launch.py:354 in launch -- Distributed environment is initialized, "
            "data parallel size: 4, pipeline parallel size: 2, tensor parallel size: 2",
            {"data_parallel_size": 4, "pipeline_parallel_size": 2, "tensor_parallel_size": 2, "gpus": 16},
        ),
        # tests/data/captures/torchrun/ddp.py: print(f"world size {world}, {len(loader)} steps an epoch on each rank, ...")
        ("world size 4, 40 steps an epoch on each rank, 160 steps", {"world_size": 4, "gpus": 4}),
        ("num_gpus 8, seed 1234", {"world_size": 8, "gpus": 8}),
        # mmcv/runner/epoch_based_runner.py: logger.info('workflow: %s, max: %d epochs', workflow, self._max_epochs)
        (
            "2021-08-17 16:49:31,759 - mmcls - INFO - workflow: [('train', 1)], max: 90 epochs",
            {"num_epochs": 90},
        ),
        # ultralytics/engine/trainer.py: f"Starting training for {self.epochs} epochs..." (YOLOv5's train.py too)
        ("Starting training for 300 epochs...", {"num_epochs": 300}),
        # ultralytics/utils/torch_utils.py model_info: f"{name} summary{fused}: {n_l:,} layers, {n_p:,} parameters, ..."
        (
            "YOLOv8s summary: 225 layers, 11,166,560 parameters, 11,166,544 gradients, 28.8 GFLOPs",
            {"total_params": 11_166_560},
        ),
        # bentrevett/pytorch-seq2seq: print(f'The model has {count_parameters(model):,} trainable parameters')
        ("The model has 7,855,876 trainable parameters", {"trainable_params": 7_855_876}),
        # timm train.py: f'Learning rate ({args.lr}) calculated from base learning rate ({args.lr_base}) and effective
        # global batch size ({global_batch_size}) with {args.lr_base_scale} scaling.'
        (
            "Learning rate (0.025) calculated from base learning rate (0.1) and effective global batch size (64) "
            "with linear scaling.",
            {"global_batch_size": 64},
        ),
    ],
)
def test_a_setting_stated_inside_a_sentence(tmp_path, line, want):
    run = nanogpt_run(tmp_path, line)
    assert stated(run, *want) == want
    # (the GPUs: the product of the parallel sizes, or the world size)
    stated_here = [n for n in want if n != "gpus"]
    assert all(run.facts[n].source == "log" and "line 1 (stated." in run.facts[n].detail for n in stated_here)


@pytest.mark.parametrize(
    "line, want",
    [
        # accelerate/state.py AcceleratorState.__repr__: f"Num processes: {self.num_processes}" (one per device)
        ("Num processes: 8", {"world_size": 8, "gpus": 8}),
        ("2024-05-01 10:00:00,000 - train - INFO - Total GPUs: 16", {"world_size": 16, "gpus": 16}),
        ("2024-05-01 10:00:00 INFO Training with 4 GPUs", {"gpu_count": 4, "gpus": 4}),
        # print(f"Number of GPUs available: {torch.cuda.device_count()}"), a start-up check of many scripts
        ("Number of GPUs available: 2", {"gpu_count": 2, "gpus": 2}),
        ("GPU count: 8", {"gpu_count": 8, "gpus": 8}),
        ("Number of epochs: 20", {"num_epochs": 20}),
        ("05/01/2024 10:00:00 - INFO - __main__ - Total training steps: 1200", {"train_iters": 1200}),
        ("Model params: 124.4M", {"total_params": 124_400_000}),
        # an argparse `--epoch` among other settings, read as range(args.epoch) (a recommender's Namespace echo)
        (
            "Namespace(optimizer='Adam', lr_rate=0.001, batch_size=500, hiddenDim=100, epoch=1000, early_stop=50)",
            {"num_epochs": 1000},
        ),
        # beside n_epochs it is the epoch to start from (eriklindernoren/PyTorch-GAN: --epoch "epoch to start
        # training from", --n_epochs "number of epochs of training")
        ("Namespace(b1=0.5, batch_size=1, epoch=10, lr=0.0002, n_epochs=200)", {"num_epochs": 200}),
        ("python train_classification.py --nepoch 250 --batchSize 32", {"num_epochs": 250}),
        # erturkkadir/deprem train.py: print(f"Batch: {BATCH_SIZE}  |  Seq len: {SEQ_LEN}  |  Embed: {EMBED}")
        ("Batch: 4  |  Seq len: 512  |  Embed: 1176", {"seq_len": 512}),
        (
            "GPUs: 8 | Seq len: 2048 | Layers: 12",
            {"gpu_count": 8, "gpus": 8, "seq_len": 2048, "num_layers": 12},
        ),
        # a loop with accumulation: print(f'  total optimizer steps: {total_steps}  (warmup: {warmup_steps})')
        ("  total optimizer steps: 1006  (warmup: 100)", {"train_iters": 1006}),
    ],
)
def test_the_common_ways_a_log_states_its_gpus_epochs_and_size(tmp_path, line, want):
    run = nanogpt_run(tmp_path, line)
    assert stated(run, *want) == want


@pytest.mark.parametrize(
    "line",
    [
        "10 epochs completed in 0.002 hours.",  # ultralytics' end of training: how many ran, after them
        "Saving a checkpoint every 5 epochs",
        "lr drops by 10x after 30 epochs, again after 60 epochs",
        "YOLOv8n summary: 129 layers",  # the model's modules, no transformer's layers
        "epoch 3, iter 100",  # one word and a number: a position, not a setting
        "Freezing layers 12",
        "warmup epochs: 5, eval batch size: 16",  # another quantity's (a warmup's, an evaluation's)
        "Model (3) loaded",
        # nanoGPT model.py configure_optimizers: the parameters of each optimizer group, parts of the model
        "num decayed parameter tensors: 15, with 122,880 parameters",
        "num non-decayed parameter tensors: 5, with 320 parameters",
        "Freezing the backbone (23,456 parameters)",
        # a step record's values between `|`: a piece of Megatron's iteration line that a hard wrap cut
        "te: 1.200E-07 | global batch size:  2048 | lm loss: 1.100492E+01 | loss scale: 2",
        "Namespace(batch_size=8, epoch=0, lr=0.1)",  # the epoch a resumable script starts from
        "python train.py --gpus 0 --lr 0.1",  # the id of the device to use
    ],
)
def test_numbers_in_a_sentence_that_state_no_setting(tmp_path, line):
    run = nanogpt_run(tmp_path, line)
    facts = {"num_epochs", "num_layers", "total_params", "global_batch_size", "world_size", "gpus"}
    # (a batch size of no scope the line does state makes the global batch of a one-process log, said so)
    stated_here = {
        name for name, fact in run.facts.items() if not fact.detail.endswith(runfacts.ONE_PROCESS_BATCH)
    }
    assert not facts & stated_here


def test_a_parameter_count_stated_rounded_then_in_full_is_the_full_one(tmp_path):
    # a DDP GPT-2 loop's banner: "Model: GPT-2 small (124M parameters)" then "  Total parameters: 124,439,808"
    run = nanogpt_run(tmp_path, "Model: GPT-2 small (124M parameters)", "  Total parameters: 124,439,808")
    assert stated(run, "total_params") == {"total_params": 124_439_808}
    # (another model's count after it is no fuller statement of the first)
    run = nanogpt_run(tmp_path, "Model: GPT-2 small (124M parameters)", "Teacher parameters: 355,000,000")
    assert stated(run, "total_params") == {"total_params": 124_000_000}


def test_counts_that_sum_to_a_stated_total_are_its_parts(tmp_path):
    # Le-Dai/advertisement_recommendation's logs/train.log: the model's count, then its sparse and dense parts
    prefix = "05/21/26 16:19:11 - 0:00:04 - "
    run = nanogpt_run(
        tmp_path,
        prefix + "Total parameters: 160,955,137",
        prefix + "Sparse params: 96 tensors, 158,453,312 parameters (Adagrad lr=0.05)",
        prefix + "Dense params: 380 tensors, 2,501,825 parameters (AdamW lr=0.0001)",
    )
    assert stated(run, "total_params") == {"total_params": 160_955_137}


def test_a_setting_of_the_evaluation_in_a_config_echo_is_no_evaluation(tmp_path):
    # DDAD's main.py echoes its config's test settings before training, then print(" Num params: ", n)
    lines = ["Training...", "config.model.test_trajectoy_steps=250 , config.data.test_batch_size=16"]
    lines += [
        " Num params:  32952707",
        *(f"Epoch {e} | Loss: {900 - e}.661865234375" for e in range(25, 200, 25)),
    ]
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n")
    run = logparse.resolve(str(log))
    assert stated(run, "total_params") == {"total_params": 32_952_707}


def test_a_fact_a_step_line_states_right_after_an_evaluation_is_the_runs(tmp_path):
    # TsinghuaAI/CPM-2-Finetune: 'epoch {:3d}/{:3d} | global iteration {:8d}/{:8d} | ...' with an evaluation line
    # 'iteration 50 |  eval_loss: ...' between them: the epochs planned, read off the last step's line, stand
    lines = []
    for it in range(20, 120, 10):
        lines.append(
            f"epoch   0/ 10 | global iteration {it:8d}/    3402 | learning rate 3e-06 | lm loss 7.{it} | "
            "loss scale 512.0 |"
        )
        if it % 50 == 0:
            lines.append(
                f"iteration {it} |  eval_loss: 6.{it}83274198713756 | eval acc(mrr): 0.24293154761904762"
            )
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n")
    run = logparse.resolve(str(log))
    assert stated(run, "num_epochs", "train_iters") == {"num_epochs": 10, "train_iters": 3402}


def test_tokens_per_step_over_the_sequence_length_is_the_global_batch(tmp_path):
    # a GPT-2 course loop's config block: "  Batch size: 32", "  Sequence length: 256", "  Tokens per batch: 8192"
    run = nanogpt_run(tmp_path, "Configuration:", "  Sequence length: 256", "  Tokens per batch: 8192")
    assert run.facts["global_batch_size"].value == 8192 // 256
    assert run.facts["global_batch_size"].source == "derived"
    # (tokens that no whole number of sequences make state no batch)
    run = nanogpt_run(tmp_path, "Configuration:", "  Sequence length: 300", "  Tokens per batch: 8192")
    assert "global_batch_size" not in run.facts


def test_a_statement_after_the_last_step_is_not_the_runs(tmp_path):
    # ultralytics validates the best checkpoint after training, its layers fused: the summary it prints then is of
    # that model (72 layers, fewer parameters), not of the one trained
    before = "YOLOv8n summary: 129 layers, 3,011,238 parameters, 3,011,222 gradients, 8.2 GFLOPs"
    after = "YOLOv8n summary (fused): 72 layers, 3,006,038 parameters, 0 gradients, 8.1 GFLOPs"
    log = tmp_path / "train.log"
    log.write_text("\n".join([before, *NANOGPT_STEPS, "Validating best.pt...", after]) + "\n")
    run = logparse.resolve(str(log))
    assert (run.facts["total_params"].value, run.facts["total_params"].detail) == (
        3_011_238,
        "line 1 (stated.config_counted)",
    )
    assert "fact_repeated" not in [w.code for w in run.warnings]


def test_an_evaluations_header_states_nothing_of_the_run():
    # PaddleNLP's Trainer (tests/data/public): "***** Running Evaluation *****" then "  Pre device batch size = 32" (sic),
    # the evaluation's batch; the run's is "Instantaneous batch size per device = 8" in the training header, when
    # the log has it
    public = ROOT / "tests" / "data" / "public"
    run = logparse.resolve(
        str(public / "paddlenlp_2022_early_stop_end.log")
    )  # from the middle: no training header
    assert "micro_batch_size" not in run.facts
    run = logparse.resolve(str(public / "paddlenlp_2022_epoch_form_eval_ckpt.log"))
    assert (run.facts["micro_batch_size"].value, run.facts["micro_batch_size"].detail) == (
        8,
        "line 4 (paddlenlp.header_value)",
    )
    assert not [w for w in run.warnings if "micro_batch_size" in w]


def test_a_dataset_splits_epochs_are_not_the_runs():
    # Megatron's index builder (megatron/data/gpt_dataset.py _build_index_mappings) plans the passes over each split:
    # "    total number of epochs: 10", then 530 and 22018 (tests/data/peers/superbench/megatron_deepspeed.log)
    run = logparse.resolve(str(ROOT / "tests" / "data" / "peers" / "superbench" / "megatron_deepspeed.log"))
    assert "num_epochs" not in run.facts
    assert not [w for w in run.warnings if "num_epochs" in w]


# ------------------------------------------------------------------------------------------ precedence


def test_the_frameworks_own_line_outranks_a_free_form_one(tmp_path):
    # nanoGPT's own config line says block_size = 1024; a later JSON echo says 512: the framework's is used, and said
    run = nanogpt_run(tmp_path, "block_size = 1024", 'data config: {"block_size": 512}')
    assert (run.facts["seq_len"].value, run.facts["seq_len"].detail) == (1024, "line 1 (nanogpt.config)")
    said = [w for w in run.warnings if w.code == "fact_repeated"]
    assert len(said) == 1 and "512 at line 2 (stated.config_dict)" in said[0] and "1024 at line 1" in said[0]


def test_an_option_outranks_every_stated_value(tmp_path):
    run = nanogpt_run(tmp_path, "Sequence length: 256", seq_len=2048)
    assert (run.facts["seq_len"].value, run.facts["seq_len"].source) == (2048, "cli")
    assert [w.code for w in run.warnings if "sequence length" in w] == ["option_differs"]


def test_a_stated_world_size_outranks_a_device_count(tmp_path):
    # the devices a node's process sees (8) are not the job's processes (16 over two nodes)
    run = nanogpt_run(tmp_path, "GPUs: 8 x NVIDIA H100 80GB HBM3", "world_size=16 rank=0")
    assert run.facts["gpus"].value == 16


def test_a_device_without_a_count_is_no_gpu_count(tmp_path):
    # rank 0 of a torchrun job prints cuda:0 on any number of GPUs
    run = nanogpt_run(tmp_path, "device: cuda:0", "Using device: cuda:0")
    assert "gpus" not in run.facts and "gpu_count" not in run.facts


def test_a_step_print_that_names_a_config_key_stays_a_step(tmp_path):
    # the training script's own step prints beside nanoGPT's lines: read as steps (the generic reading, tried before
    # the stated facts), never as the run's sequence length
    prints = [f"step {i} | loss {4.1 - i / 100:.4f} | seq_len: 1024" for i in range(0, 60, 10)]
    log = tmp_path / "train.log"
    log.write_text(
        "\n".join(line for pair in zip(NANOGPT_STEPS, prints, strict=True) for line in pair) + "\n"
    )
    run = logparse.resolve(str(log))
    assert "seq_len" not in run.facts and run.steps["x_seq_len"].tolist() == [1024] * 6
    assert run.parsed.lines["unmatched"] == 0


def test_a_config_value_that_is_no_number_states_no_fact(tmp_path):
    # a word, a placeholder, and -1, a config's "not set" (Lightning's max_epochs: -1, transformers' max_steps: -1),
    # in a custom loop's log (a word once made a NaN world size, and the analysis stopped on it)
    log = tmp_path / "train.log"
    head = ["world_size: auto", "seq_len=${SEQ_LEN} n_layer=auto", "max_steps: -1",
            '{"num_epochs": -1, "vocab_size": "unknown"}']  # fmt: skip
    steps = [f"step {i} | loss {4.0 - i / 100:.2f} | dt 250.0ms | tok/s 50,000" for i in range(1, 6)]
    log.write_text("\n".join([*head, *steps]) + "\n")
    a = logparse.analyze(str(log))
    assert not {"gpus", "seq_len", "num_layers", "train_iters", "num_epochs", "vocab_size"} & set(a.run.facts)
    assert a.summary["gpus"] is None


@pytest.mark.parametrize(
    "head, micro",
    [
        # PaddlePaddle's print_arguments (`-----------  Configuration Arguments -----------` then `%s: %s` per
        # argument, sorted): one process, so its bare batch size is the micro batch
        (["-----------  Configuration Arguments -----------", "batch_size: 32", "use_gpu: 1"], 32),
        # several processes stated: a loop's bare batch size is its data loader's, one process's batch
        (["Distributed world size: 4", "batch_size: 32"], 32),
        # a global batch the log states equal to it, one process, no accumulation: the two are one
        (["batch_size: 32", "global_batch_size: 32", "gradient_accumulation_steps: 1"], 32),
        # equal to it beside several processes: one of the two figures is not the micro batch
        (["Distributed world size: 4", "batch_size: 32", "global_batch_size: 32"], None),
    ],
)
def test_a_bare_batch_size_is_the_micro_batch_and_makes_no_global_batch_over_several_processes(
    tmp_path, head, micro
):
    run = nanogpt_run(tmp_path, *head)
    assert run.facts["batch_size"].value == 32 and run.facts["batch_size"].source == "log"
    assert stated(run, "micro_batch_size").get("micro_batch_size") == micro
    if any("world size" in line for line in head):
        # (and no global batch is made of it: over several processes it is not known)
        assert "global_batch_size" not in run.facts or run.facts["global_batch_size"].source == "log"


def test_the_micro_batch_times_the_gpus_and_the_accumulation_the_log_states_is_the_global_batch(tmp_path):
    # a Lightning-style loop's echo: a DataLoader's `micro_batch_size: 4` and `accumulate: 4`; 8 devices given:
    # 4 x 8 x 4 = 128 sequences an optimizer step, by hand
    head = ("micro_batch_size: 4", "gradient_accumulation_steps: 4")
    run = nanogpt_run(tmp_path, *head, gpus=8)
    assert (run.facts["global_batch_size"].value, run.facts["global_batch_size"].source) == (128, "derived")
    assert "global_batch_derived" in [w.code for w in run.warnings]
    # no accumulation stated: whether the loop accumulated is not known, so neither is the global batch
    run = nanogpt_run(tmp_path, "micro_batch_size: 4", gpus=8)
    assert "global_batch_size" not in run.facts
    # a model split over GPUs: the data-parallel ranks are not the GPUs
    run = nanogpt_run(tmp_path, *head, "tensor_parallel_size: 2", gpus=8)
    assert "global_batch_size" not in run.facts
    # a batch of no scope is the micro batch of one process only: on 8 GPUs it may be either
    run = nanogpt_run(tmp_path, "batch_size: 4", "gradient_accumulation_steps: 4", gpus=8)
    assert "global_batch_size" not in run.facts
    run = nanogpt_run(tmp_path, "batch_size: 4", "gradient_accumulation_steps: 4", gpus=1)
    assert run.facts["global_batch_size"].value == 4 * 4


@pytest.mark.parametrize(
    ("line", "want"),
    [
        # kimiyoung/transformer-xl pytorch/train.py logs its arguments as `    - {} : {}`
        ("    - max_step : 200000", {"train_iters": 200000}),
        ("    - tgt_len : 150", {"seq_len": 150}),
        ("    - n_token : 267735", {"vocab_size": 267735}),
        # facebookresearch/DPR train_dense_encoder.py logger.info(" Total updates=%d", total_updates)
        (" Total updates=88320", {"train_iters": 88320}),
        # facebookresearch/mae main_pretrain.py prints its args one `key: value` a line (accum_iter: 4)
        ("accum_iter: 4", {"grad_accum": 4}),
        # a name in the singular where the table has the plural: deepinsight/insightface arcface_torch's config dump
        # (`key + " " * num_space + str(value)`)
        ("total_step               3318320", {"train_iters": 3318320}),
        ("num_layer: 12", {"num_layers": 12}),
    ],
)
def test_config_names_of_their_own_projects(tmp_path, line, want):
    run = nanogpt_run(tmp_path, "args:", line)
    assert stated(run, *want) == want


def test_a_batch_of_no_scope_in_a_one_process_log_with_no_accumulation_is_the_global_batch(tmp_path):
    # a custom loop's echo `batch_size: 32`, no world size, no accumulation: the optimizer step's batch is 32
    run = nanogpt_run(tmp_path, "batch_size: 32")
    assert (run.facts["global_batch_size"].value, run.facts["global_batch_size"].source) == (32, "derived")
    assert "global_batch_derived" in [w.code for w in run.warnings]
    # accumulation stated, or several processes: the batch of no scope is not the step's
    run = nanogpt_run(tmp_path, "batch_size: 32", "gradient_accumulation_steps: 4")
    assert "global_batch_size" not in run.facts
    run = nanogpt_run(tmp_path, "batch_size: 32", "world_size: 4")
    assert "global_batch_size" not in run.facts
    # several GPUs given: the batch may be either, the derived global batch and its warning go
    run = nanogpt_run(tmp_path, "batch_size: 32", gpus=8)
    assert "global_batch_size" not in run.facts
    assert "global_batch_derived" not in [w.code for w in run.warnings]


def test_the_ranks_nccls_own_lines_show_are_the_world_size(tmp_path):
    comm = "node-{n}:{pid}:{pid} [{dev}] NCCL INFO comm 0x8a6e3d0 rank {rank} nranks {size} cudaDev {dev} busId 7000 - Init COMPLETE"
    # a tensor-parallel group of 8, the world's communicator of 16 and a pipeline pair: the world is the largest
    lines = [
        comm.format(n=0, pid=41532, dev=0, rank=0, size=8),
        comm.format(n=1, pid=41533, dev=0, rank=8, size=16),  # (a rank other than 0 of the world's: not read)
        comm.format(n=0, pid=41532, dev=0, rank=0, size=16),
        comm.format(n=0, pid=41532, dev=0, rank=0, size=2),
    ]
    run = nanogpt_run(tmp_path, *lines)
    assert (run.facts["world_size"].value, run.facts["world_size"].source) == (16, "log")
    assert "nccl_ranks" not in run.facts and "nccl_process" not in run.facts
    # a world size the log states wins
    run = nanogpt_run(tmp_path, "world_size: 32", *lines)
    assert run.facts["world_size"].value == 32


def test_the_processes_whose_nccl_rings_connect_are_ranks(tmp_path):
    # KylerRussell/CTM-Transformer's two processes: each prints NCCL's channel lines and, once, its rings connected
    channel = "archlinux:{pid}:{pid} [{dev}] NCCL INFO Channel 00 : {dev}[{dev}] -> {other}[{other}] via SHM/direct/direct"
    rings = "archlinux:{pid}:{pid} [{dev}] NCCL INFO Connected all rings, use ring PXN 0 GDR 1"
    lines = [
        form.format(pid=611046 + dev, dev=dev, other=1 - dev) for form in (channel, rings) for dev in (0, 1)
    ]
    run = nanogpt_run(tmp_path, *lines)
    assert run.facts["world_size"].value == 2
    # one process's lines alone say nothing of the others; nor do the channel lines alone
    run = nanogpt_run(tmp_path, *lines[::2])
    assert "world_size" not in run.facts
    run = nanogpt_run(tmp_path, *lines[:2])
    assert "world_size" not in run.facts


def test_a_parameter_count_stated_in_spanish(tmp_path):
    # a Spanish ViT notebook on CIFAR-10: print(f"Número de parámetros: {n:,}") before its epochs
    run = nanogpt_run(tmp_path, "Número de parámetros: 20,986,938")
    assert stated(run, "total_params") == {"total_params": 20_986_938}


# ------------------------------------------------------------------------------------ a trainable count alone
def test_a_trainable_count_alone_is_the_models_size_with_one_process_and_said_so(tmp_path):
    run = nanogpt_run(tmp_path, "Trainable parameters: 13,607,618")
    total = run.facts["total_params"]
    assert total.value == 13_607_618 == run.facts["trainable_params"].value
    assert total.source == "derived" and "the only one the log states" in total.detail


def test_a_trainable_count_of_several_processes_or_beside_a_total_is_no_more_than_it_says(tmp_path):
    # (with several processes a trainable count may be one shard's: FSDP prints per-rank counts)
    run = nanogpt_run(tmp_path, "world_size: 4", "Trainable parameters: 13,607,618")
    assert "total_params" not in run.facts and run.facts["trainable_params"].value == 13_607_618
    run = nanogpt_run(
        tmp_path, "trainable params: 4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622"
    )
    assert run.facts["total_params"].value == 6_742_609_920 and run.facts["total_params"].source == "log"
