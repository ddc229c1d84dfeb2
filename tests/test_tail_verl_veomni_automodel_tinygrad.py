"""verl, VeOmni, NeMo-Automodel and tinygrad: every printed number of their public excerpts
is read, into the column the framework's own code gives it, and the four sets claim no other framework's log.

The expected values come from this file's own reading of each line (a split on the framework's separators, the
keys mapped by the tables below, written from the frameworks' source: see the comments in patterns/<set>.toml),
not from logparse. tests/data/public/SOURCES_verl_veomni_automodel_tinygrad.toml holds the values read by hand; this file checks that no
printed number is dropped or split.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pytest

from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA = Path(__file__).resolve().parent / "data"
PUBLIC = DATA / "public"
MINE = ("verl", "veomni", "nemo_automodel", "tinygrad")
H4 = tomllib.loads((PUBLIC / "SOURCES_verl_veomni_automodel_tinygrad.toml").read_text())["excerpt"]


def x_column(key: str) -> str:
    """The column a key without a canonical one is kept in (keymap.column_name: x_ + the key in snake case)."""
    return "x_" + re.sub(r"[^a-z0-9]+", "_", key.lower().replace("-", "_")).strip("_")


# verl (verl/trainer/ppo/metric_utils.py, verl/workers/fsdp_workers.py, verl/trainer/fsdp_sft_trainer.py): key ->
# (column, factor); "(1e-4)" keys are printed times 1e4
VERL = {
    "timing_s/step": ("step_time_s", 1.0),
    "perf/time_per_step": ("step_time_s", 1.0),
    "perf/throughput": ("tokens_per_s_per_gpu", 1.0),
    "perf/total_num_tokens": ("tokens_per_step", 1.0),
    "perf/mfu/actor": ("reported_mfu", 1.0),
    "perf/max_memory_allocated_gb": ("memory_max_allocated_gib", 1.0),
    "perf/max_memory_reserved_gb": ("memory_max_reserved_gib", 1.0),
    "actor/lr": ("lr", 1.0),
    "actor/lr(1e-4)": ("lr", 1e-4),
    "critic/lr(1e-4)": ("x_critic_lr", 1e-4),
    "actor/grad_norm": ("grad_norm", 1.0),
    "train/loss": ("loss", 1.0),
    "train/lr(1e-3)": ("lr", 1e-3),
    "train/time(s)": ("step_time_s", 1.0),
    "val/loss": ("eval_loss", 1.0),
}


def read_verl(line: str) -> dict[str, float]:
    """verl/utils/logger/aggregate_logger.py: "step:N" then "key:value" joined by " - "."""
    if " - " not in line or "step:" not in line.split(" - ")[0]:
        return {}
    parts = line.split(" - ")[1:]
    if all(p.startswith(("val-core/", "val-aux/", "val/test_score/")) for p in parts):
        return {}  # the validation before training (ray_trainer.py): an eval event, not a step
    out: dict[str, float] = {"step": float(line.split(" - ")[0].rsplit("step:", 1)[1])}
    for part in parts:
        key, _, value = part.strip().rpartition(":")
        value = re.sub(r"^np\.\w+\((.*)\)$", r"\1", value)
        column, factor = VERL.get(key, (x_column(key), 1.0))
        out.setdefault(column, float(value) * factor)  # a key printed twice: the first is kept
    return out


TINYGRAD = {  # examples/mlperf/model_train.py: "<value> <name>" -> (column, factor)
    "ms run": ("step_time_s", 1e-3),
    "s run": ("step_time_s", 1.0),
    "s step": ("step_time_s", 1.0),
    "loss": ("loss", 1.0),
    "LR": ("lr", 1.0),
    "grad_norm": ("grad_norm", 1.0),
    "GFLOPS": ("reported_tflops_cluster", 1e-3),
    "% MFU": ("reported_mfu", 1e-2),
}


def read_tinygrad(line: str) -> dict[str, float]:
    step, _, rest = line.strip().partition(" ")
    out: dict[str, float] = {"step": float(step)}
    for part in rest.split(", "):
        value, _, name = part.strip().partition(" ")
        if name.endswith("% MFU"):
            value, name = value.rstrip("%"), "% MFU"
        device = re.fullmatch(r"ms [A-Z][A-Z0-9_]*(?::\d+)?(?: \* (\d+))?", name)
        if device:  # the device time, "ms AMD * 8"
            out["x_device_ms"] = float(value)
            if device.group(1):
                out["x_devices"] = float(device.group(1))
            continue
        column, factor = TINYGRAD.get(name, (x_column(name), 1.0))
        out[column] = float(value) * factor
    return out


AUTOMODEL = {  # nemo_automodel/recipes/llm/train_ft.py log_train_metrics
    "loss": "loss",
    "grad_norm": "grad_norm",
    "lr": "lr",
    "mem": "memory_max_allocated_gib",
    "tps": "tokens_per_s",
    "time": "step_time_s",
}


def read_automodel(line: str) -> dict[str, float]:
    parts = line.split(" | ")
    start = next(i for i, p in enumerate(parts) if re.search(r"(?:^|:)(?:\[val\] )?step \d+$", p))
    val = "[val]" in parts[start]
    out: dict[str, float] = {"step": float(parts[start].rsplit(" ", 1)[1])}
    for part in parts[start + 1 :]:
        key, _, value = part.strip().partition(" ")
        key = key.rstrip(":")
        value = value.replace(" GiB", "").rstrip("s")
        per_gpu = re.fullmatch(r"([\d.]+)\(([\d.]+)/gpu\)", value)
        if per_gpu:
            value = per_gpu.group(1)
            out["x_tps_per_gpu"] = float(per_gpu.group(2))
        if val:
            if key == "loss":
                out["eval_loss"] = float(value)
            continue
        out[AUTOMODEL.get(key, x_column(key))] = float(value)
    return out


VEOMNI = {"loss": "loss", "total_loss": "loss", "grad_norm": "grad_norm", "lr": "lr"}


def read_veomni(line: str) -> dict[str, float]:
    """tqdm's bar "Epoch e/E: p%|bar| n/N [elapsed<left, rate, postfix]", the postfix "key: value, ..."."""
    head, _, tail = line.partition("| ")
    n = tail.split("/", 1)[0].strip()
    inside = tail.split("[", 1)[1].rstrip("]")
    elapsed, rate, *postfix = inside.split(", ")
    if n == "0":
        return {}
    out: dict[str, float] = {"step": float(n), "epoch_index": float(head.split()[1].split("/")[0]) - 1}
    m, s = elapsed.split("<")[0].split(":")[-2:]
    out["progress_elapsed_s"] = 60.0 * float(m) + float(s)
    out["progress_s_per_it"] = float(rate.strip().removesuffix("s/it"))
    for part in postfix:
        key, _, value = part.partition(": ")
        out[VEOMNI.get(key, x_column(key))] = float(value)
    return out


READERS = {
    "verl": read_verl,
    "tinygrad": read_tinygrad,
    "nemo_automodel": read_automodel,
    "veomni": read_veomni,
}


def _close(got, want: float) -> bool:
    return (
        got is not None
        and not (isinstance(got, float) and math.isnan(got))
        and math.isclose(float(got), want, rel_tol=1e-9, abs_tol=1e-15)
    )


@pytest.mark.parametrize("name", sorted(H4))
def test_every_printed_number_is_read(name: str) -> None:
    """Each step line's numbers, read by this file's split of the line, are in the frame row of that line."""
    fmt = H4[name]["format"]
    reader = READERS[fmt]
    parsed = parse_log(str(PUBLIC / f"{name}.log"), load_sets())
    assert parsed.format == fmt
    rows = parsed.rows[parsed.rows["kind"] == "step"] if "kind" in parsed.rows else parsed.rows
    checked = 0
    for n, line in enumerate((PUBLIC / f"{name}.log").read_text().splitlines(), 1):
        if fmt == "verl" and "step:" in line:
            line = line[line.index("step:") :]  # behind a tqdm bar or Ray's "(TaskRunner pid=N)" prefix
        try:
            want = reader(line)
        except (ValueError, IndexError, StopIteration):
            want = {}  # not a step line (a warning, a checkpoint line, an eval header)
        if not want:
            continue
        hit = rows[rows["line"] == n]
        assert len(hit) == 1, f"line {n}: no step row"
        row = hit.iloc[0]
        for column, value in want.items():
            assert column in row.index, f"line {n}: no column {column}"
            assert _close(row[column], value), f"line {n}: {column} is {row[column]!r}, printed {value!r}"
            checked += 1
    assert checked > 0 or H4[name].get("expect", {}).get("no_rows")


def test_scaled_lr_of_verl_2024() -> None:
    """verl's 2024 'actor/lr(1e-4):0.010' (fsdp_workers.py: lr * 1e4) is lr = 1e-6, not 0.010."""
    parsed = parse_log(str(PUBLIC / "verl_quickstart_ppo_2024.log"), load_sets())
    lr = parsed.rows[parsed.rows["kind"] == "step"]["lr"].tolist()
    assert lr == pytest.approx([1e-6, 1e-6], rel=1e-12)


def _other_logs() -> list[Path]:
    """Every public excerpt, peer log and capture of another framework."""
    mine = set(H4)
    logs = [p for p in PUBLIC.glob("*.log") if p.stem not in mine]
    logs += sorted((DATA / "peers").rglob("*.log"))
    # captures of these frameworks (captures/veomni: VeOmni's start-up lines) are theirs to claim
    logs += [p for p in (DATA / "captures").rglob("*.log") if p.parent.name not in MINE]
    return sorted(logs)


@pytest.mark.parametrize(
    "text",
    [
        # verl: only the validation before training, no training step yet
        "step:0 - val-core/openai/gsm8k/acc/mean@1:0.508\n",
        # tinygrad: a step line cut off mid-way by a crash
        "    5 4.36 s run, 11.9375 loss, 0.0000000\n",
        # NeMo-Automodel: a line whose values are not numbers
        "step 3 | epoch 0 | loss nan | grad_norm inf | lr 1.00e-05 | mem 24.06 GiB | tps 31346.32(3918.29/gpu) | num_label_tokens 1\n",
    ],
)
def test_odd_input_gives_a_reading_or_one_line_error(text: str, tmp_path: Path) -> None:
    """A log of these sets that is odd still gives rows, or one `error:` line and exit 1: never a traceback."""
    from click.testing import CliRunner

    from logparse.cli import cli

    log = tmp_path / "odd.log"
    log.write_text(text)
    result = CliRunner().invoke(cli, ["analyze", str(log), "--out", str(tmp_path / "out")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    if result.exit_code != 0:
        errors = [ln for ln in result.output.splitlines() if ln.startswith("error:")]
        assert len(errors) == 1, result.output
