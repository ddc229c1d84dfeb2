"""Custom training loops read through the generic reading, and mlx-lm's own set.

Truth: tests/data/captures/mlx_lm/ holds two real mlx-lm runs (capture.py there), each beside the JSONL its
TrainingCallback wrote (the trainer's unrounded values); expectations are those values at the precision mlx-lm
prints them (mlx_lm/tuner/trainer.py and cli_ui.py, cited in patterns/mlx_lm.toml). Single lines below are
public lines (source in the comment) with their values read by hand.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from logparse import api
from logparse.frame.assemble import parse_log
from logparse.patterns import sets as patterns

CAPTURES = Path(__file__).resolve().parent / "data" / "captures" / "mlx_lm"
GB = 1e9 / 2**30  # mlx-lm prints mx.get_peak_memory() / 1e9


def facts_events(path: Path):
    parsed = parse_log(str(path), patterns.load_sets())
    return {k: v[0].value for k, v in parsed.facts.items()}, parsed.events


def truth(name: str, kind: str) -> list[dict]:
    rows = [json.loads(line) for line in (CAPTURES / f"{name}.truth.jsonl").read_text().splitlines()]
    return [r for r in rows if r["kind"] == kind]


def check_classic(a) -> None:
    """Every report of classic.log at mlx-lm's printed precision (trainer.py: loss .3f, lr .3e, It/sec .3f,
    Tokens/sec .3f, Trained Tokens whole, Peak mem .3f GB)."""
    assert a.summary["format"] == "mlx_lm"
    steps = a.steps.set_index("step")
    t = truth("classic", "train")
    assert list(steps.index) == [r["iteration"] for r in t] == list(range(5, 61, 5))
    for r in t:
        row = steps.loc[r["iteration"]]
        assert row["loss"] == pytest.approx(float(f"{r['train_loss']:.3f}"), rel=1e-12)
        assert row["lr"] == pytest.approx(float(f"{r['learning_rate']:.3e}"), rel=1e-12)
        assert row["step_time_s"] == pytest.approx(1 / float(f"{r['iterations_per_second']:.3f}"), rel=1e-12)
        assert row["tokens_per_s"] == pytest.approx(float(f"{r['tokens_per_second']:.3f}"), rel=1e-12)
        assert row["consumed_tokens"] == r["trained_tokens"]
        assert row["memory_gib"] == pytest.approx(float(f"{r['peak_memory']:.3f}") * GB, rel=1e-12)


def test_mlx_lm_classic_capture_every_report():
    a = api.analyze(CAPTURES / "classic.log")
    check_classic(a)
    assert facts_events(CAPTURES / "classic.log")[0]["train_iters"] == 60  # "Starting training..., iters: 60"
    assert a.summary["status"] == "complete"


def test_mlx_lm_classic_validations_and_saves_are_events():
    """`Iter 1: Val loss 6.196, Val took 0.641s` is an eval event at the printed Iter (the callback gets it - 1),
    not a step row; the saves at 30 and 60 are checkpoint events."""
    _, events = facts_events(CAPTURES / "classic.log")
    ev = events[events["event"] == "eval"]
    vt = truth("classic", "val")
    assert ev["step"].tolist() == [r["iteration"] + 1 for r in vt] == [1, 20, 40, 60]
    assert ev["eval_loss"].tolist() == [float(f"{r['val_loss']:.3f}") for r in vt]
    # "Iter 30: Saved adapter weights to ...", "Iter 60: ...", then "Saved final weights to ..."
    saves = events[events["event"] == "checkpoint_save"]
    assert saves["step"].tolist()[:2] == [30, 60] and len(saves) == 3
    assert 1 not in set(api.analyze(CAPTURES / "classic.log").steps["step"])


def test_mlx_lm_v032_table_capture():
    """mlx-lm 0.32's rich table (colour codes as rich wrote them): loss .3f, tok/s whole with separators,
    trained tokens in thousands to 0.1k; validations and saves are events; the progress bar gives the total."""
    a = api.analyze(CAPTURES / "table.log")
    assert a.summary["format"] == "mlx_lm"
    steps = a.steps.set_index("step")
    t = truth("table", "train")
    assert list(steps.index) == [r["iteration"] for r in t]
    for r in t:
        row = steps.loc[r["iteration"]]
        assert row["loss"] == pytest.approx(float(f"{r['train_loss']:.3f}"), rel=1e-12)
        assert row["tokens_per_s"] == float(f"{r['tokens_per_second']:.0f}")
        assert row["consumed_tokens"] == pytest.approx(
            float(f"{r['trained_tokens'] / 1000:.1f}") * 1000, rel=1e-12
        )
    facts, events = facts_events(CAPTURES / "table.log")
    ev = events[events["event"] == "eval"]
    assert ev["step"].tolist() == [r["iteration"] + 1 for r in truth("table", "val")]
    assert ev["eval_loss"].tolist() == [float(f"{r['val_loss']:.3f}") for r in truth("table", "val")]
    assert events[events["event"] == "checkpoint_save"]["step"].tolist() == [30, 60]
    assert facts["train_iters"] == 60


# ------------------------------------------------------------------------------------------------
# the usual wrappers around the same capture: each reads the same


def wrapped(kind: str, text: str) -> str | bytes:
    lines = text.splitlines(keepends=True)
    if kind == "crlf":
        return text.replace("\n", "\r\n").encode()
    if kind == "colour":  # the loss coloured as a terminal logger would
        return text.replace("Train loss ", "Train loss \x1b[32m").replace(", Learning", "\x1b[0m, Learning")
    prefix = {"rank0": "[rank0]: ", "default0": "[default0]:", "slurm": " 0: ", "host": "node01: "}[kind]
    return "".join(prefix + line for line in lines)


@pytest.mark.parametrize("kind", ["rank0", "default0", "slurm", "host", "crlf", "colour"])
def test_mlx_lm_capture_through_wrappers(kind, write_log):
    text = (CAPTURES / "classic.log").read_text()
    check_classic(api.analyze(write_log(wrapped(kind, text))))


def test_mlx_lm_capture_gzipped(tmp_path):
    path = tmp_path / "classic.log.gz"
    path.write_bytes(gzip.compress((CAPTURES / "classic.log").read_bytes()))
    check_classic(api.analyze(path))


def test_mlx_lm_capture_cut_mid_line(write_log):
    """Cut inside the save line after step 30: the steps before it read as in the whole log."""
    text = (CAPTURES / "classic.log").read_text()
    cut = text[: text.index("Saved adapter weights") + 10]
    a = api.analyze(write_log(cut))
    whole = api.analyze(CAPTURES / "classic.log").steps.set_index("step")
    got = a.steps.set_index("step")
    assert list(got.index) == list(range(5, 31, 5))
    for col in ("loss", "lr", "step_time_s", "tokens_per_s", "consumed_tokens", "memory_gib"):
        assert list(got[col]) == list(whole.loc[got.index, col])


# ------------------------------------------------------------------------------------------------
# public lines, values read by hand


def values(set_name: str, line: str) -> dict:
    hit = patterns.load_sets()[set_name].match(line)
    assert hit is not None, line
    return {k: v for k, v in hit[1].items() if not k.startswith("__")}


@pytest.mark.parametrize(
    "line,want",
    [
        # ml-explore/mlx-examples#210 (2023-12, before Learning Rate and Trained Tokens)
        (
            "Iter 10: Train loss 3.608, It/sec 0.015, Tokens/sec 1.425",
            {"step": 10, "loss": 3.608, "step_time_s": 1 / 0.015, "tokens_per_s": 1.425},
        ),
        # Blaizzy/mlx-vlm#795 (mlx-vlm's copy of the trainer)
        (
            "Iter 36: Train loss 4.040, Learning Rate 2.000e-08, It/sec 1.472, Tokens/sec 67.707, Trained Tokens 1656, Peak mem 5.094 GB",
            {
                "step": 36,
                "loss": 4.04,
                "lr": 2e-8,
                "step_time_s": 1 / 1.472,
                "tokens_per_s": 67.707,
                "consumed_tokens": 1656.0,
                "memory_gib": 5.094 * GB,
            },
        ),
    ],
)
def test_mlx_lm_public_lines(line, want):
    got = values("mlx_lm", line)
    for key, value in want.items():
        assert got.get(key) == pytest.approx(value, rel=1e-12), (key, got)


# ------------------------------------------------------------------------------------------------
# PyTorch's word_language_model loop (patterns/word_lm.toml)

PUBLIC = Path(__file__).resolve().parent / "data" / "public"


def test_word_lm_steps_numbered_across_epochs():
    """zihangdai/mos#12: '| epoch  73 |   400/ 1106 batches | ...': epochs count from 1 (main.py's
    range(1, epochs + 1)), so step = 72 x 1106 + 400; ms/batch 112.86 is 0.11286 s a step."""
    a = api.analyze(PUBLIC / "word_lm_mos_issue12_epochs73_74.log")
    assert a.summary["format"] == "word_lm"
    steps = a.steps.set_index("step")
    assert list(steps.index) == [72 * 1106 + b for b in (400, 600, 800, 1000)] + [
        73 * 1106 + b for b in (200, 400, 600, 800, 1000)
    ]
    assert steps.loc[80032, "step_time_s"] == pytest.approx(0.11286, rel=1e-12)
    assert steps.loc[81738, "loss"] == 3.65


@pytest.mark.parametrize("kind", ["rank0", "slurm", "host", "crlf"])
def test_word_lm_through_wrappers(kind, write_log):
    text = (PUBLIC / "word_lm_mos_issue12_epochs73_74.log").read_text()
    a = api.analyze(write_log(wrapped(kind, text)))
    assert a.summary["format"] == "word_lm"
    assert list(a.steps["loss"]) == [3.57, 3.59, 3.63, 3.65, 3.69, 3.58, 3.60, 3.62, 3.65]


# ------------------------------------------------------------------------------------------------
# the generic reading of real custom-loop lines (logparse/synonyms.toml)

LINGUA_LINE = (  # a public lingua log, rank 0 at step 2
    "0: INFO    24-10-19 18:47:38.911112 - 0:00:50 - step: 2  acc: 0  loss: 12.2032  grad: 1.08e+01  flops: 1.97e+14"
    "  wps: 1.83e+04  iter:  0.8907  data: 0.0015  lr: 6.00e-07  mem: 59%  pow: 398.257 W"
)


@pytest.mark.parametrize(
    "line,want,absent",
    [
        # PrimeIntellect-ai/prime-rl#20 ("before"): mfu 337.59 is a percentage; `[Rank 0]` is kept as x_rank (the
        # process, for compose.py), `[INFO]` is no column
        (
            "03:22:14 [INFO] [TRAIN] [Rank 0] step: 289, loss: 0.4310, tokens_per_second: 76477.73, mfu: 337.59",
            {"step": 289, "loss": 0.431, "tokens_per_s": 76477.73, "reported_mfu": 3.3759, "x_rank": 0.0},
            ["x_info"],
        ),
        # ml-explore/mlx-lm#330, read by the generic set as a loop that copies mlx-lm's print would be:
        # Trained Tokens is the running total; Peak mem is SI GB in mlx-lm (get_peak_memory() / 1e9; the mlx_lm
        # set reads it so: test_mlx_lm_public_lines), and the key model knows that printer by the keys of its line
        # (synonyms.toml [[decimal.printers]]): 9.707e9 bytes, where another loop's "GB" is read as GiB
        (
            "Iter 10: Train loss 2.662, Learning Rate 1.000e-05, It/sec 0.490, Tokens/sec 161.374, Trained Tokens 3290, Peak mem 9.707 GB",
            {
                "step": 10,
                "loss": 2.662,
                "lr": 1e-5,
                "step_time_s": 1 / 0.49,
                "tokens_per_s": 161.374,
                "consumed_tokens": 3290.0,
                "memory_gib": 9.707e9 / 2**30,
            },
            ["x_trained_tokens"],
        ),
        # the Annotated Transformer's print read by the generic set (a copy-task run):
        # "Tokens / Sec" is one key, tokens/s (its "Sec" alone was read as a step time of 943.6 s)
        (
            "Epoch Step:      1 | Accumulation Step:   2 | Loss:   3.36 | Tokens / Sec:   943.6 | Learning Rate: 5.5e-06",
            {"step": 1, "loss": 3.36, "tokens_per_s": 943.6, "lr": 5.5e-6},
            ["step_time_s", "x_sec"],
        ),
        # lingua's line without its set: grad is the gradient norm; `mem: 59%` is a share of the device, not GiB,
        # so it is kept as x_mem_pct (was a malformed memory_gib); INFO glued to the date is no column
        (
            LINGUA_LINE,
            {"step": 2, "loss": 12.2032, "grad_norm": 10.8, "lr": 6e-7, "x_mem_pct": 59.0, "x_wps": 18300.0},
            ["x_info", "memory_gib"],
        ),
    ],
)
def test_generic_reads_real_loop_lines(line, want, absent):
    got = values("generic", line)
    for key, value in want.items():
        assert got.get(key) == pytest.approx(value, rel=1e-12), (key, got)
    for key in absent:
        assert key not in got, (key, got)
    raw = patterns.load_sets()["generic"].match(line)[1]
    assert not raw.problems, raw.problems  # no value the line's unit could not hold


def test_lingua_excerpt_both_ranks_kept_apart():
    """The lingua excerpt's two ranks: each step has rank 0's and rank 1's line (loss differs by rank)."""
    a = api.analyze(PUBLIC / "lingua_llama1b_2xa100_steps1_3.log")
    assert a.summary["format"] == "lingua"
    assert sorted(set(a.steps["step"])) == [1, 2, 3]


# ------------------------------------------------------------------------------------------------
# the generic reading's real captures (tests/data/captures/custom, truth in test_tail_generic.py) through wrappers

CUSTOM = Path(__file__).resolve().parent / "data" / "captures" / "custom"


@pytest.mark.parametrize("style", ["pipe", "logging"])
@pytest.mark.parametrize("kind", ["rank0", "default0", "slurm", "host", "crlf", "colour"])
def test_custom_loop_captures_through_wrappers(style, kind, write_log):
    """Every step, value and clock reading of the plain log; the logging capture's asctime clock too (a
    `[rank0]:` prefix leaves a space before it, a `node01: ` label stays in the text)."""
    text = (CUSTOM / f"{style}.log").read_text()
    if kind == "colour":
        text = text.replace("loss", "\x1b[1mloss\x1b[0m")
    base = api.analyze(CUSTOM / f"{style}.log").steps
    got = api.analyze(write_log(text if kind == "colour" else wrapped(kind, text))).steps
    cols = [c for c in ("step", "loss", "lr", "step_time_s", "tokens_per_s", "timestamp") if c in base]
    assert got[cols].reset_index(drop=True).equals(base[cols].reset_index(drop=True))


def test_custom_loop_capture_gzipped(tmp_path):
    path = tmp_path / "logging.log.gz"
    path.write_bytes(gzip.compress((CUSTOM / "logging.log").read_bytes()))
    base = api.analyze(CUSTOM / "logging.log").steps
    got = api.analyze(path).steps
    assert got[["step", "loss", "timestamp", "step_time_s"]].equals(
        base[["step", "loss", "timestamp", "step_time_s"]]
    )


def test_epoch_step_brackets_numbered_across_epochs():
    """'    Epoch [2/10], Step [200/600], Loss: 0.1208' (a notebook's indented output): epochs from 1, so the run's
    step is (2 - 1) x 600 + 200 = 800."""
    a = api.analyze(PUBLIC / "epoch_step_brackets_cnn_mnist_notebook.log")
    assert a.summary["format"] == "epoch_step_brackets"
    steps = a.steps.set_index("step")
    assert list(steps.index) == list(range(100, 1801, 100))
    assert steps.loc[800, "loss"] == 0.1208 and steps.loc[1800, "loss"] == 0.0612


@pytest.mark.parametrize("kind", ["rank0", "slurm", "host", "crlf"])
def test_mlx_lm_v032_table_through_wrappers(kind, write_log):
    """The v0.32 table (rich's colour codes kept) behind a launcher prefix or with CRLF ends reads the same."""
    base = api.analyze(CAPTURES / "table.log").steps
    got = api.analyze(write_log(wrapped(kind, (CAPTURES / "table.log").read_text()))).steps
    cols = ["step", "loss", "tokens_per_s", "consumed_tokens"]
    assert got[cols].reset_index(drop=True).equals(base[cols].reset_index(drop=True))
