"""torchtune: two REAL CPU runs (tests/data/captures/torchtune/, README.md there), held to torchtune's own record.

- torchtune_stdout_cpu.log: the StdoutLogger's `Step N | key:value ...` lines, glued to the tqdm bar they
  follow; the truth is torchtune_stdout_cpu.metrics.jsonl, every payload the recipe gave the logger (with the
  value as printed), written beside the console by tee_logger.py.
- torchtune_disklogger_cpu.log: a DiskLogger run, whose console holds only the bar `1|5|Loss: ...`; the truth is
  the DiskLogger's own file, torchtune_disklogger_cpu.disklogger.txt (read here by splitting, not by logparse).
Both runs: 2 epochs of 14 optimizer steps, gradient_accumulation_steps 2, batch_size 2 (config.yaml).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import logparse
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets

HERE = Path(__file__).resolve().parent / "data" / "captures" / "torchtune"
STDOUT = HERE / "torchtune_stdout_cpu.log"
DISK = HERE / "torchtune_disklogger_cpu.log"


def jsonl_truth() -> dict[int, dict]:
    return {r["step"]: r for r in map(json.loads, (HERE / "torchtune_stdout_cpu.metrics.jsonl").open())}


def disk_truth() -> dict[int, dict[str, float]]:
    """DiskLogger lines 'Step 5 | loss:5.69 lr:0.0019 ... ', split by hand."""
    out = {}
    for line in (HERE / "torchtune_disklogger_cpu.disklogger.txt").read_text().splitlines():
        head, _, rest = line.partition(" | ")
        out[int(head.split()[1])] = {k: float(v) for k, v in (kv.split(":") for kv in rest.split())}
    return out


def test_both_logs_are_detected_as_torchtune():
    sets = load_sets()
    for path in (STDOUT, DISK):
        assert parse_log(str(path), sets).format == "torchtune", path.name


def test_stdout_every_optimizer_step_and_every_printed_value():
    truth = jsonl_truth()
    assert sorted(truth) == list(range(1, 29))  # 2 epochs x 14 optimizer steps (59 samples / 2 / 2)
    steps = logparse.resolve(STDOUT).all_steps
    assert steps["step"].tolist() == sorted(truth)
    rows = steps.set_index("step")
    columns = {
        "loss": "loss",
        "lr": "lr",
        "grad_norm": "grad_norm",
        # tokens_per_second_per_gpu: this rank's tokens / seconds since the last log (per GPU)
        "tokens_per_s_per_gpu": "tokens_per_second_per_gpu",
    }
    for step, rec in truth.items():
        for column, key in columns.items():
            assert rows.at[step, column] == float(rec[f"{key}__printed"]), (step, column)
    # the per-GPU figure is never taken as the cluster's, but a single-device recipe's one GPU is the whole job
    # ("Running FullFinetuneRecipeSingleDevice with resolved config:"): the cluster's tokens/s is the GPU's
    assert (steps["tokens_per_s"] == steps["tokens_per_s_per_gpu"]).all()


def test_stdout_config_facts_from_the_resolved_config():
    facts = logparse.resolve(STDOUT).facts
    # config.yaml: batch_size 2, gradient_accumulation_steps 2, epochs 2; model llama2(num_layers=2, ...)
    want = {"micro_batch_size": 2, "grad_accum": 2, "num_epochs": 2, "log_interval": 1, "num_layers": 2,
            "hidden_size": 64, "num_attention_heads": 4, "num_query_groups": 4, "vocab_size": 256}  # fmt: skip
    assert {k: facts[k].value for k in want} == want


def test_disklogger_console_bar_gives_every_step_and_its_loss():
    truth = disk_truth()
    assert sorted(truth) == list(range(1, 29))
    steps = logparse.resolve(DISK).all_steps
    assert steps["step"].tolist() == sorted(truth)
    rows = steps.set_index("step")
    for step, rec in truth.items():
        # v0.6.1's bar prints str(loss), the same float the DiskLogger writes
        assert rows.at[step, "loss"] == rec["loss"], step
    assert set(rows["progress_total"].dropna()) == {14}  # optimizer steps per epoch


def test_disklogger_stale_redraw_does_not_renumber_a_step():
    """pbar.update(1) redraws with the previous description ('1|5|Loss: ...  6/14' after '1|5 ... 5/14'):
    the step is the one the description names, so steps 5 and 6 each keep their own loss."""
    text = DISK.read_text()
    assert "1|5|Loss: 5.692927360534668:  43%|" in text  # the stale redraw is in the capture (n = 6)
    rows = logparse.resolve(DISK).all_steps.set_index("step")
    truth = disk_truth()
    assert truth[5]["loss"] == 5.692927360534668 and truth[6]["loss"] != truth[5]["loss"]
    assert (rows.at[5, "loss"], rows.at[6, "loss"]) == (truth[5]["loss"], truth[6]["loss"])


@pytest.mark.parametrize("path", [STDOUT, DISK], ids=["stdout", "disklogger"])
def test_no_value_is_malformed(path):
    parsed = parse_log(str(path), load_sets())
    assert parsed.lines["malformed"] == 0


def test_public_multinode_bar_resolves_to_one_row_per_optimizer_step():
    """pytorch/torchtune PR #2620 (tests/data/public, SOURCES_torchtune_llmc.toml): the bar drawn twice per step."""
    path = Path(__file__).resolve().parent / "data" / "public" / "torchtune_pr2620_multinode_bar.log"
    rows = logparse.resolve(path).all_steps
    assert rows["step"].tolist() == list(range(25, 32))
    assert rows.set_index("step").at[26, "loss"] == 1.2436443567276  # as printed on lines 2 and 3


def test_steps_csv_keeps_every_printed_digit(tmp_path):
    """torchtune prints float32 values in full (`loss:5.674245357513428`): steps.csv writes them digit for digit
    (12 significant digits would cut them), while a derived or converted figure keeps 12 (no 18.000700000000002)."""
    import csv
    import re

    from click.testing import CliRunner

    from logparse.cli import cli

    log = HERE / "torchtune_stdout_cpu.log"
    printed = {int(s): v for s, v in re.findall(r"Step (\d+) \| loss:(\S+)", log.read_text())}
    out = tmp_path / "steps.csv"
    res = CliRunner().invoke(cli, ["parse", str(log), "-o", str(out)])
    assert res.exit_code == 0, res.output
    rows = {int(r["step"]): r for r in csv.DictReader(out.open())}
    assert {s: rows[s]["loss"] for s in printed} == printed
    megatron = tmp_path / "m.csv"
    root = Path(__file__).resolve().parents[1]
    CliRunner().invoke(
        cli, ["parse", str(root / "sample_logs" / "megatron_llama2-7b_8xh100.log"), "-o", str(megatron)]
    )
    # line 57 of the log prints "elapsed time per iteration (ms): 18000.7": 18.0007 s, not 18.000700000000002
    assert "18.0007" in {r["step_time_s"] for r in csv.DictReader(megatron.open())}
