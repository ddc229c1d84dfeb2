"""Custom training loops: the generic pattern set, its synonym table, `patterns explain` on a log no set
recognises, and `patterns new`. The three generic_*_cpu.log captures were printed by a real training loop
(sample_logs/capture_custom_loop.py), which wrote every value it printed at full precision beside them."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from logparse import api
from logparse.cli import cli
from logparse.core.errors import PatternError, UnrecognisedLog
from logparse.frame.assemble import parse_log
from logparse.patterns import keymap
from logparse.patterns import sets as patterns
from tests.conftest import ROOT, SAMPLES

GIB = 2.0**30


def truth(style: str) -> dict:
    return json.loads((SAMPLES / f"generic_{style}_cpu.truth.json").read_text())


def printed(value: float, fmt: str, scale: float = 1.0) -> float:
    """The value as the script printed it, read back (e.g. dt in ms with 2 decimals, in seconds)."""
    return float(format(value * scale, fmt)) / scale


# per style: column -> (truth key, format the script printed it with, scale it printed it at)
PRINTED = {
    "pipe": {
        "loss": ("loss", ".6f", 1),
        "lr": ("lr", ".4e", 1),
        "grad_norm": ("grad_norm", ".4f", 1),
        "step_time_s": ("step_time_s", ".2f", 1000),
        "tokens_per_s": ("tokens_per_s", ".2f", 1),
    },
    "kv": {
        "loss": ("loss", ".4f", 1),
        "lr": ("lr", ".3e", 1),
        "grad_norm": ("grad_norm", ".3f", 1),
        "step_time_s": ("step_time_s", ".4f", 1),
        "samples_per_s": ("samples_per_s", ".1f", 1),
    },
    "bracket": {
        "loss": ("loss", ".4f", 1),
        "lr": ("lr", ".2e", 1),
        "grad_norm": ("grad_norm", ".2f", 1),
        "step_time_s": ("step_time_s", ".2f", 1000),
        "tokens_per_s": ("tokens_per_s", ".0f", 1),
        "reported_mfu": ("mfu", ".2f", 100),
    },
    # json.dumps prints the shortest repr that reads back to the same float: the values exactly
    "json": {
        "loss": ("loss", ".17g", 1),
        "lr": ("lr", ".17g", 1),
        "grad_norm": ("grad_norm", ".17g", 1),
        "step_time_s": ("step_time_s", ".17g", 1),
        "tokens_per_s": ("tokens_per_s", ".17g", 1),
    },
}

FACTS = {
    "pipe": {
        "global_batch_size": 16,
        "micro_batch_size": 8,
        "seq_len": 32,
        "grad_accum": 2,
        "num_layers": 2,
        "hidden_size": 64,
        "num_attention_heads": 4,
        "vocab_size": 256,
        "train_iters": 120,
        "total_params": 101888,
    },
    "kv": {
        "micro_batch_size": 8,
        "seq_len": 32,
        "grad_accum": 2,
        "num_layers": 2,
        "hidden_size": 64,
        "vocab_size": 256,
        "train_iters": 100,
    },
    "bracket": {"seq_len": 32, "grad_accum": 2, "num_layers": 2, "hidden_size": 64, "train_iters": 80},
    "json": {
        "global_batch_size": 16,
        "micro_batch_size": 8,
        "seq_len": 32,
        "grad_accum": 2,
        "num_layers": 2,
        "hidden_size": 64,
        "vocab_size": 256,
        "train_iters": 60,
    },
}


@pytest.mark.parametrize("style", ["pipe", "kv", "bracket", "json"])
def test_each_custom_loop_log_comes_out_step_by_step(style):
    t = truth(style)
    a = api.analyze(SAMPLES / f"generic_{style}_cpu.log")
    s = a.summary
    assert s["format"] == "generic" and s["formats"] == ["generic", "common", "devices", "stated"]
    steps = a.steps.set_index("step")
    assert list(steps.index) == [r["step"] for r in t["steps"]]  # every step, in order, nothing extra
    for rec in t["steps"]:
        row = steps.loc[rec["step"]]
        for column, (key, fmt, scale) in PRINTED[style].items():
            want = printed(rec[key], fmt, scale)  # mfu: printed in percent, read as a fraction
            assert row[column] == pytest.approx(want, rel=1e-12), (style, rec["step"], column)
    if style == "kv":
        # this loop prints ru_maxrss * 1024 / 1e9 as "GB"; the key model reads GB as GiB, as most training code
        # means it (synonyms.toml [rules] memory): the printed figure, in GiB (7.4% above this loop's bytes)
        mem = steps["memory_gib"]
        assert mem.iloc[-1] == pytest.approx(printed(t["steps"][-1]["memory_gb"], ".2f"), rel=1e-12)
    # an evaluation's own line (`[step 20] val_loss: 2.9139`) is an eval event at its step, never a step row; its
    # loss is the eval_loss of that step's row, and no other row has one
    events = a.run.parsed.events
    evals = events[events["event"] == "eval"] if not events.empty else events
    assert len(evals) == len(t["evals"])
    for ev, (_, got) in zip(t["evals"], evals.iterrows(), strict=True):
        assert got["step"] == ev["step"]
        assert got["eval_loss"] == pytest.approx(printed(ev["eval_loss"], ".4f"))
    evaluated = steps["eval_loss"].dropna() if "eval_loss" in steps else steps.iloc[0:0, 0]
    assert list(evaluated.index) == [ev["step"] for ev in t["evals"]]
    assert list(evaluated) == pytest.approx([printed(ev["eval_loss"], ".4f") for ev in t["evals"]])
    for fact, value in FACTS[style].items():
        assert a.run.facts[fact].value == value, fact
        assert a.run.facts[fact].source == "log"
    generic = s["generic"]
    assert {k: v for k, v in generic["mapped"].items() if v == "loss"} == {"loss": "loss"}
    assert set(generic["mapped"].values()) >= set(PRINTED[style])
    assert "seq_len" in generic["facts"].values()
    assert any("generic pattern set" in n for n in s["notes"])
    assert s["lines"]["malformed"] == 0


def test_the_summary_lists_what_the_synonym_table_mapped():
    s = api.analyze(SAMPLES / "generic_pipe_cpu.log").summary["generic"]
    assert s["mapped"] == {
        "loss": "loss",
        "lr": "lr",
        "norm": "grad_norm",
        "dt": "step_time_s",
        "tok/sec": "tokens_per_s",
    }
    assert s["facts"]["block_size" if "block_size" in s["facts"] else "seq_len"] == "seq_len"
    assert s["kept"] == {}


def test_unknown_numeric_keys_are_kept_as_extra_columns(write_log):
    log = write_log(
        "".join(
            f"step {i} | loss {5 - i * 0.1:.4f} | ppl {math.exp(5 - i * 0.1):.2f} | aux_z 1e-3 | "
            f"data_wait 3ms | dt {20 + i}ms | note ok\n"
            for i in range(1, 11)
        )
    )
    a = api.analyze(log)
    assert list(a.steps["step"]) == list(range(1, 11))
    assert a.steps["x_ppl"].iloc[0] == pytest.approx(math.exp(4.9), abs=0.005)
    assert a.steps["x_aux_z"].iloc[0] == 1e-3
    assert a.steps["x_data_wait_ms"].iloc[0] == 3.0  # the unit goes into the name, the number stays
    assert a.steps["step_time_s"].iloc[0] == pytest.approx(0.021)
    assert a.summary["generic"]["kept"] == {"ppl": "x_ppl", "aux_z": "x_aux_z", "data_wait": "x_data_wait_ms"}


@pytest.mark.parametrize(
    "text,units,key_unit,value",
    [
        ("12.3ms", "time", None, 0.0123),
        ("12.3 ms", "time", None, 0.0123),
        ("1.5", "time", "ms", 0.0015),
        ("0.90m", "time", None, 54.0),
        ("2", "time", None, 2.0),
        ("41.2%", "percent", None, 0.412),
        ("41.2", "percent", None, 0.412),  # a bare value above 1 is a percentage
        ("0.41", "percent", None, 0.41),
        ("0.41", "percent", "%", 0.0041),
        # binary, as the code that prints them divides (synonyms.toml [rules] memory): detectron2 "max_mem: 1962M"
        # (max_memory_allocated() / 1024 / 1024), DeepSpeed "MaxMemAllocated=9.02GB" (/ 1024**3)
        ("1.5GB", "memory", None, 1.5),
        ("1962M", "memory", None, 1962 / 1024),
        ("12977Mb", "memory", None, 12977 / 1024),
        ("9760.3 MB", "memory", None, 9760.3 / 1024),
        ("512MiB", "memory", None, 0.5),
        ("300", "memory", "mb", 300 / 1024),
        ("5.2/23.7 GiB", "memory", None, 5.2),  # used of the device's total: the first
        ("12", "memory", None, 12.0),  # a bare figure is GiB (a pattern set's field; the key model: below)
        ("123,456", "count", None, 123456.0),
        ("12.5K", "count", None, 12500.0),
        ("nan", None, None, None),
    ],
)
def test_values_are_read_with_their_units(text, units, key_unit, value):
    got = keymap.to_quantity(text, units, key_unit)
    if value is None:
        assert math.isnan(got)
    else:
        assert got == pytest.approx(value, rel=1e-12)


def test_synonyms_and_units_in_keys():
    km = keymap.load()
    assert km.lookup("Grad-Norm:", "step").column == "grad_norm"
    assert km.lookup("Tokens per Sec", "step").column == "tokens_per_s"
    assert km.lookup("tok/s/gpu", "step").column == "tokens_per_s_per_gpu"  # scope from the key
    m = km.lookup("dt_ms", "step")
    assert (m.column, m.key_unit) == ("step_time_s", "ms")
    m = km.lookup("iter time (ms)", "step")
    assert (m.column, m.key_unit) == ("step_time_s", "ms")
    assert km.lookup("mem_gb", "step").key_unit == "gb"
    assert km.lookup("block_size", "config").column == "seq_len"
    assert km.lookup("block_size", "step") is None  # config keys are not step columns
    # ambiguous (micro in nanoGPT, global elsewhere): a fact of its own, never the micro or the global batch
    assert km.lookup("batch_size", "config").column == "batch_size"
    with pytest.raises(ValueError):
        keymap.to_quantity("12GB", "time")


def test_the_synonym_table_is_checked(tmp_path):
    bad = tmp_path / "syn.toml"
    bad.write_text('[step.los]\nkeys = ["loss"]\n')
    with pytest.raises(PatternError, match="unknown column 'los'"):
        keymap.load(bad)
    bad.write_text('[step.loss]\nkeys = ["x"]\n[step.lr]\nkeys = ["x"]\n')
    with pytest.raises(PatternError, match="already mapped"):
        keymap.load(bad)
    ps = tmp_path / "mine.toml"
    ps.write_text(
        '[format]\nname = "mine"\ndetect = ["^s "]\n[[line]]\nname = "s"\nkind = "step"\n'
        "regex = '^s (?P<step>\\d+)'\npairs = '(?P<key>\\w+)=(?P<value>\\S+)'\nkeymap = \"nope.toml\"\n"
        '[[sample]]\nline = "s 1 loss=2"\nexpect = { step = 1 }\n'
    )
    with pytest.raises(PatternError, match="cannot read the key map"):
        patterns.load_file(ps)


def test_generic_never_wins_over_a_real_set():
    sets = patterns.load_sets()
    assert sets["generic"].role == "fallback"
    logs = sorted(SAMPLES.glob("*.log")) + sorted((ROOT / "tests/data/public").glob("*.log"))
    for log in logs:
        if log.name.startswith("generic_"):
            continue
        try:
            parsed = parse_log(str(log), sets)
        except UnrecognisedLog:  # an excerpt with no framework line: the generic reading does not claim it
            continue
        assert "generic" not in parsed.formats, log.name
        assert "generic" not in parsed.detection.scores, log.name


def test_a_framework_line_anywhere_beats_the_generic_reading(write_log):
    lines = [f"step {i} | loss {3 - i / 100:.4f} | dt 12.0ms" for i in range(1, 200)]
    lines.insert(150, "iter 150: loss 1.5000, time 12.00ms, mfu 10.00%")
    parsed = api.resolve(write_log("\n".join(lines) + "\n")).parsed
    assert parsed.formats[0] == "nanogpt"


def test_a_long_preamble_before_the_framework_lines_still_finds_the_framework(write_log, sample):
    preamble = "".join(f"step {i} | warmup probe {i}.0\n" for i in range(6000))
    log = write_log(preamble + sample("nanogpt_gpt2_8xa100.log").read_text())
    assert api.resolve(log).parsed.formats[0] == "nanogpt"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


EPOCH_BATCH = "".join(
    f"Epoch 1 | batch {i}/500 | loss {2.5 - i / 1000:.4f} | acc {0.5 + i / 10000:.3f} | 12.5 samples/s\n"
    for i in range(10, 210, 10)
)
# a counter no word names and that grows by no regular stride: no step record the log's shapes can show
ROUNDS = (3, 7, 8, 15, 16, 30, 31, 55)
UNRECOGNISED = "".join(f"[{r}] | loss {2.5 - r / 100:.4f} | acc {0.5 + r / 1000:.3f}\n" for r in ROUNDS)


def test_a_log_of_a_layout_no_set_knows_is_read_from_its_own_lines(write_log):
    # two epochs of 500 batches, every 100th printed: the position within the epoch counts the batches done
    # (it reaches 500/500), the epoch counts from 1
    lines = [
        f"Epoch {e} | batch {b}/500 | loss {3 - (e * 500 + b) / 1000:.4f} | acc 0.5{b // 100} | 12.5 samples/s"
        for e in (1, 2)
        for b in range(100, 600, 100)
    ]
    log = write_log("starting\n" + "\n".join(lines) + "\nsaving model\n")
    parsed = api.resolve(log).parsed
    assert parsed.format == "generic"
    rows = parsed.rows
    assert list(rows["step"]) == [100, 200, 300, 400, 500] * 2  # the batch within the epoch, as printed ...
    assert list(rows["epoch_index"]) == [0] * 5 + [1] * 5  # ... of epoch 1, then 2 (counted from 0) ...
    assert set(rows["progress_total"]) == {500}  # ... of 500
    assert list(rows["loss"]) == [
        round(3 - (e * 500 + b) / 1000, 4) for e in (1, 2) for b in range(100, 600, 100)
    ]
    assert list(api.parse(log)["step"]) == list(range(100, 1100, 100))  # (epoch - 1) x 500 + batch
    res = run("patterns", "explain", str(log))
    assert "loss -> loss" in res.output and "acc -> x_acc" in res.output


def test_explain_on_a_log_no_set_recognises(write_log):
    log = write_log("starting\n" + UNRECOGNISED + "saving model\n")
    assert run("analyze", str(log)).exit_code == 1
    res = run("patterns", "explain", str(log))
    assert res.exit_code == 0
    out = res.output
    assert "no pattern set recognises it" in out
    assert "most common line shapes" in out and "[#] | loss # | acc #" in out
    assert "look like step lines" in out and "3..55" in out
    assert "loss -> loss" in out and "acc -> kept as x_acc" in out
    assert f"logparse patterns new {log} -o mine.toml" in out


def test_explain_without_any_step_shape_still_answers(write_log):
    log = write_log("hello\nworld\nhello\n")
    res = run("patterns", "explain", str(log))
    assert res.exit_code == 0 and "nothing here looks like a per-step line" in res.output


def test_explain_on_a_generic_log_lists_the_mapping():
    res = run("patterns", "explain", str(SAMPLES / "generic_bracket_cpu.log"))
    assert res.exit_code == 0
    assert "generic.step" in res.output and "dt_ms -> step_time_s" in res.output
    assert "logparse patterns new" in res.output


@pytest.mark.parametrize("style", ["bracket", "kv"])
def test_patterns_new_writes_a_set_that_passes_its_tests_and_reads_every_step(tmp_path, style):
    log = SAMPLES / f"generic_{style}_cpu.log"
    out = tmp_path / "mine.toml"
    res = run("patterns", "new", str(log), "-o", str(out))
    assert res.exit_code == 0, res.output
    assert "--format mine" in res.output
    assert run("patterns", "test", str(tmp_path)).exit_code == 0
    ps = patterns.load_file(out)
    assert ps.name == "mine" and ps.samples and all(s.keymap is None for s in ps.lines)
    t = truth(style)
    a = api.analyze(log, patterns=(str(tmp_path),), format="mine")
    assert a.summary["format"] == "mine" and "generic" not in a.summary
    steps = a.steps.set_index("step")
    assert list(steps.index) == [r["step"] for r in t["steps"]]
    for rec in t["steps"]:
        assert steps.loc[rec["step"], "loss"] == pytest.approx(printed(rec["loss"], ".4f"), rel=1e-12)
        key, fmt, scale = PRINTED[style]["step_time_s"]
        assert steps.loc[rec["step"], "step_time_s"] == pytest.approx(
            printed(rec[key], fmt, scale), rel=1e-12
        )
    events = a.run.parsed.events  # the written set reads the evaluations as events too
    evals = events[events["event"] == "eval"] if not events.empty else events
    assert [int(s) for s in evals["step"]] == [ev["step"] for ev in t["evals"]] if t["evals"] else evals.empty
    for ev, (_, got) in zip(t["evals"], evals.iterrows(), strict=True):
        assert got["eval_loss"] == pytest.approx(printed(ev["eval_loss"], ".4f"))
    assert a.run.facts["seq_len"].value == 32


def test_patterns_new_on_an_unrecognised_log(tmp_path, write_log):
    log = write_log(EPOCH_BATCH)
    out = tmp_path / "sets" / "epochs.toml"
    out.parent.mkdir()
    assert run("patterns", "new", str(log), "-o", str(out)).exit_code == 0
    assert run("patterns", "test", str(out.parent)).exit_code == 0
    steps = api.parse(log, patterns=(str(out.parent),), format="epochs")
    assert list(steps["step"]) == list(range(10, 210, 10))
    assert list(steps["loss"]) == [round(2.5 - i / 1000, 4) for i in range(10, 210, 10)]
    assert steps["x_acc"].notna().all()


def test_patterns_new_refuses_politely(tmp_path, write_log):
    log = write_log(EPOCH_BATCH)
    out = tmp_path / "mine.toml"
    out.write_text("")
    res = CliRunner().invoke(cli, ["patterns", "new", str(log), "-o", str(out)])
    assert res.exit_code == 2 and "exists; pass --force" in res.output
    res = CliRunner().invoke(cli, ["patterns", "new", str(log), "-o", str(tmp_path / "megatron.toml")])
    assert res.exit_code == 2 and "shipped pattern set" in res.output
    res = CliRunner().invoke(
        cli, ["patterns", "new", str(write_log("a\nb\n", "x.log")), "-o", str(tmp_path / "x.toml")]
    )
    assert res.exit_code == 1 and "no line shape repeats" in res.output
    assert "Traceback" not in res.output


def test_a_value_the_table_skips_is_said_in_the_generic_block(write_log):
    # thuml/Time-Series-Library: print('\tspeed: {:.4f}s/iter; left time: {:.4f}s'.format(speed, left_time)) after
    # each "\titers: ..." line; the time left is an estimate, no value of the step, and the summary says so
    lines = []
    for k in range(4):
        lines += [
            f"\titers: {100 * (k + 1)}, epoch: 1 | loss: 0.16{k}2218",
            f"\tspeed: 0.06{k}7s/iter; left time: {493.4 - 9 * k:.4f}s",
        ]
    keys = api.analyze(write_log("\n".join(lines) + "\n")).summary["generic"]["keys"]
    assert keys["left time"]["kind"] == "skipped"
    assert keys["left time"]["why"].startswith("the time left to the end of training")
    assert keys["s/iter"]["column"] == "step_time_s"
