"""The generic reading a custom loop does not outgrow.

Truth: the three logs in tests/data/captures/custom/ were printed by a real CPU training loop (capture.py
there), which wrote each step's values at full precision to a JSONL beside each log; expectations are those
values at the precision the loop printed them. The single lines below are read by hand.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from logparse import api
from logparse.cli import cli
from logparse.patterns import keymap
from logparse.patterns import sets as patterns
from tests.conftest import ROOT

CAPTURES = Path(__file__).resolve().parent / "data" / "captures" / "custom"


def truth(style: str) -> list[dict]:
    return [json.loads(line) for line in (CAPTURES / f"{style}.truth.jsonl").read_text().splitlines()]


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


# ------------------------------------------------------------------------------------------------
# real captures, read through detection (no --format)


def test_value_then_unit_pairs_and_thousands_separators_from_a_real_loop():
    """`step 10/40 | loss 4.969 | 6.0 ms/step | 84,752 tok/s`: every step, the loss at 3 decimals, the step
    time at 0.1 ms, tokens/s whole (84,752 is 84752, never 84)."""
    a = api.analyze(CAPTURES / "pipe.log")
    assert a.summary["format"] == "generic"
    steps = a.steps.set_index("step")
    t = truth("pipe")
    assert list(steps.index) == [r["step"] for r in t]
    for r in t:
        row = steps.loc[r["step"]]
        assert row["loss"] == pytest.approx(float(f"{r['loss']:.3f}"), rel=1e-12)
        assert row["step_time_s"] == pytest.approx(float(f"{r['step_time_s'] * 1000:.1f}") / 1000, rel=1e-12)
        assert row["tokens_per_s"] == float(f"{r['tokens_per_s']:.0f}")
    assert a.summary["generic"]["mapped"] == {
        "loss": "loss",
        "ms/step": "step_time_s",
        "tok/s": "tokens_per_s",
    }


def test_python_logging_loop_global_step_and_timestamps_as_the_clock():
    """`2026-12-01 19:46:46,692 - INFO - __main__ - global_step=20 loss=2.3778 lr=1.00e-03`, every 2 steps,
    no timing printed: the steps are read, and each step's time is the time between two logged lines
    (printed to the millisecond) over the 2 steps between them."""
    a = api.analyze(CAPTURES / "logging.log")
    assert a.summary["format"] == "generic"
    t = [r for r in truth("logging") if "t_log" in r]
    steps = a.steps.set_index("step")
    assert list(steps.index) == [r["step"] for r in t] == list(range(2, 41, 2))
    for prev, r in zip(t, t[1:], strict=False):
        row = steps.loc[r["step"]]
        assert row["loss"] == pytest.approx(float(f"{r['loss']:.4f}"), rel=1e-12)
        assert row["lr"] == pytest.approx(float(f"{r['lr']:.2e}"), rel=1e-12)
        # asctime truncates to the millisecond; the loop took t_log just before logger.info
        assert row["step_time_s"] == pytest.approx((r["t_log"] - prev["t_log"]) / 2, abs=0.0011)
    assert a.summary["steps"]["step_time_source"] == "timestamps of consecutive step lines"


def test_tqdm_postfix_dict_from_a_real_loop():
    """A tqdm bar drawn at every update, `set_postfix(loss=..., lr=...)`: the bar position is the step, the
    postfix values are tqdm's 3 significant digits (tqdm.format_num), the rate its smoothed it/s."""
    a = api.analyze(CAPTURES / "tqdm.log")
    assert a.summary["format"] == "generic"
    steps = a.steps.set_index("step")
    t = truth("tqdm")
    assert list(steps.index) == [r["step"] for r in t]
    for r in t:
        assert steps.loc[r["step"], "loss"] == pytest.approx(float(f"{r['loss']:.3g}"), rel=1e-12)
        assert steps.loc[r["step"], "lr"] == pytest.approx(r["lr"], rel=1e-12)
    assert (steps["step_time_s"] > 0).all()


# ------------------------------------------------------------------------------------------------
# single lines, values read by hand


def generic_values(line: str) -> dict:
    ps = patterns.load_sets()["generic"]
    hit = ps.match(line)
    assert hit is not None, line
    return {k: v for k, v in hit[1].items() if not k.startswith("__")}


@pytest.mark.parametrize(
    "line,want",
    [
        # a custom loop's line
        (
            "step 10/1000 | loss 11.701 | 2862.9 ms/step | 22,892 tok/s",
            {
                "step": 10,
                "progress_total": 1000,
                "loss": 11.701,
                "step_time_s": 2.8629,
                "tokens_per_s": 22892.0,
            },
        ),
        ("step 3 | loss 2.0 | 0.097s/it", {"step": 3, "loss": 2.0, "step_time_s": 0.097}),
        ("iter 5 | loss 2.0 | 1.2 it/s", {"step": 5, "loss": 2.0, "step_time_s": 1 / 1.2}),
        ("step 7 loss 3.1 15ms/step", {"step": 7, "loss": 3.1, "step_time_s": 0.015}),
        # llm.c train_gpt2.py:842's shape: a bare `ms` is the step time
        (
            "step    5/50 | train loss 5.123456 | norm 1.2345 | lr 1.00e-04 | (123.45 ms | 4150 tok/s)",
            {
                "step": 5,
                "loss": 5.123456,
                "grad_norm": 1.2345,
                "lr": 1e-4,
                "step_time_s": 0.12345,
                "tokens_per_s": 4150.0,
            },
        ),
        # nanochat base_train.py:567's shape: `tok/sec: {tok_per_sec:,}`, bf16_mfu in percent
        (
            "step 00200/35280 (0.57%) | loss: 5.147944 | lrm: 1.00 | dt: 558.89ms | tok/sec: 58,679 | bf16_mfu: 0.00",
            {"step": 200, "loss": 5.147944, "x_lrm": 1.0, "step_time_s": 0.55889, "tokens_per_s": 58679.0},
        ),
        # counters
        ("num_updates=200 loss=3.2", {"step": 200, "loss": 3.2}),
        ("update 4 | loss 3.2", {"step": 4, "loss": 3.2}),
        ("Step 5 | loss:6.30 grad-norm:0.539", {"step": 5, "loss": 6.3, "grad_norm": 0.539}),
        # scaled keys (verl prints values in the unit its key names)
        ("step:3 - lr(1e-4):0.010 - kl(1e-3):0.5", {"step": 3, "lr": 1e-6, "x_kl": 5e-4}),
        # timestamps as the clock: ISO with an offset, accelerate's MM/DD/YYYY, a bracketed one
        ("2024-05-01T10:00:00+08:00 step: 5 loss:2.5", {"timestamp": 1714528800.0, "step": 5, "loss": 2.5}),
        (
            "12/01/2026 18:20:38 - INFO - __main__ - epoch 0 step 10: loss 4.0595 lr 2.222e-03 step_time 0.047s",
            {"timestamp": 1796149238.0, "step": 10, "loss": 4.0595, "lr": 2.222e-3, "step_time_s": 0.047},
        ),
        ("[2024-05-01 10:00:00] step 5 | loss 2.5", {"timestamp": 1714557600.0, "step": 5, "loss": 2.5}),
        # a tqdm postfix
        (
            " 10%|#         | 10/100 [00:01<00:09, 5.2it/s, loss=2.31, lr=1e-4]",
            {"step": 10, "progress_total": 100, "loss": 2.31, "lr": 1e-4, "step_time_s": 1 / 5.2},
        ),
    ],
)
def test_generic_lines(line, want):
    got = generic_values(line)
    for key, value in want.items():
        assert got.get(key) == pytest.approx(value, rel=1e-12), (key, got)


def test_an_unknown_numeric_key_is_always_kept_and_listed(write_log):
    log = write_log(
        "".join(
            f"step {i} | loss {3 - i / 10:.2f} | ppl {i}.5 | 1,234 widgets/s | z-score 0.{i}\n"
            for i in range(1, 6)
        )
    )
    a = api.analyze(log)
    assert list(a.steps["step"]) == [1, 2, 3, 4, 5]
    assert list(a.steps["x_ppl"]) == [1.5, 2.5, 3.5, 4.5, 5.5]
    assert list(a.steps["x_z_score"]) == [0.1, 0.2, 0.3, 0.4, 0.5]
    assert (
        list(a.steps["x_widgets_s"]) == [1234.0] * 5
    )  # a value with a unit no synonym knows: the unit is its key
    assert a.summary["generic"]["kept"] == {
        "ppl": "x_ppl",
        "widgets/s": "x_widgets_s",
        "z-score": "x_z_score",
    }


def test_scaled_key():
    assert keymap.scaled_key("lr(1e-4)") == ("lr", 1e-4)
    assert keymap.scaled_key("loss") == ("loss", 1.0)
    assert keymap.scaled_key("time(ms)") == ("time(ms)", 1.0)  # a unit, not a scale
    km = keymap.load()
    m = km.lookup("it/s", "step")
    assert m.column == "step_time_s" and m.convert("4") == 0.25
    assert km.lookup("ms/step", "step").convert("2862.9") == pytest.approx(2.8629)
    assert km.lookup("lr(1e-4)", "step").convert("0.010") == pytest.approx(1e-6)


# ------------------------------------------------------------------------------------------------
# patterns new / patterns test


def test_patterns_new_keeps_thousands_separators_and_units_whole(tmp_path):
    """On the real pipe.log, the written set reads `36,471 tok/s` as 36471 tokens/s and `14.0 ms/step` as
    0.014 s, shows what it read for the first lines, and passes its own test."""
    out = tmp_path / "mine.toml"
    res = run("patterns", "new", str(CAPTURES / "pipe.log"), "-o", str(out))
    assert res.exit_code == 0, res.output
    # the first step line of pipe.log is line 2: "step 1/40 | loss 5.543 | 14.0 ms/step | 36,471 tok/s"
    assert (
        "line 2: step=1, progress_total=40, loss=5.543, step_time_s=0.014, tokens_per_s=36471" in res.output
    )
    assert "warning" not in res.output
    assert run("patterns", "test", str(tmp_path)).exit_code == 0
    steps = api.parse(CAPTURES / "pipe.log", patterns=(str(tmp_path),), format="mine").set_index("step")
    for r in truth("pipe"):
        assert steps.loc[r["step"], "tokens_per_s"] == float(f"{r['tokens_per_s']:.0f}")
        assert steps.loc[r["step"], "step_time_s"] == pytest.approx(
            float(f"{r['step_time_s'] * 1000:.1f}") / 1000
        )


def test_patterns_new_makes_a_leading_timestamp_the_clock(tmp_path):
    """On the real logging.log (asctime to the millisecond, no timing printed), the written set reads the
    timestamp, so its step times come from the clock as the generic reading's do."""
    out = tmp_path / "lg.toml"
    res = run("patterns", "new", str(CAPTURES / "logging.log"), "-o", str(out))
    assert res.exit_code == 0, res.output
    # line 2 of logging.log: "2026-12-01 19:46:46,524 - INFO - __main__ - global_step=2 loss=5.5330 lr=2.00e-04"
    assert "line 2: timestamp=2026-12-01T19:46:46.524+00:00, step=2, loss=5.533, lr=0.0002" in res.output
    assert run("patterns", "test", str(tmp_path)).exit_code == 0
    a = api.analyze(CAPTURES / "logging.log", patterns=(str(tmp_path),), format="lg")
    assert a.summary["steps"]["step_time_source"] == "timestamps of consecutive step lines"
    assert list(a.steps["step"]) == list(range(2, 41, 2))


BROKEN = r"""
[format]
name = "broken"
detect = ['^step \d+/\d+ \|']

[[line]]
name = "step"
kind = "step"
# reads the digits before the thousands separator only
regex = '''^step (?P<step>\d+)/\d+ \| loss (?P<loss>[\d.]+) \| (?P<ms>[\d.]+) ms/step \| (?P<tps>\d+)'''
fields.ms = { column = "step_time_s", scale = 0.001 }
fields.tps = { column = "tokens_per_s", scope = "global" }

[[sample]]  # tests/data/captures/custom/pipe.log line 2, with the value the broken regex reads
line = "step 1/40 | loss 5.543 | 14.0 ms/step | 36,471 tok/s"
expect = { step = 1, loss = 5.543, tokens_per_s = 36.0 }
"""


def test_patterns_test_fails_a_set_that_splits_a_number(tmp_path):
    (tmp_path / "broken.toml").write_text(BROKEN)
    res = run("patterns", "test", str(tmp_path))
    assert res.exit_code == 1
    assert "'tps' reads '36' of the number '36,471' printed there" in res.output
    assert "Traceback" not in res.output
    # the loader's own check (expected values only) still loads it: the reading is the user's to fix
    assert patterns.sample_failures(patterns.load_file(tmp_path / "broken.toml")) == []


# ------------------------------------------------------------------------------------------------
# detection refuses documents that quote a few log lines


def test_a_readme_is_not_a_training_log():
    """This repo's README quotes one NeMo line among its prose: refused in one line, exit 1."""
    res = CliRunner().invoke(cli, ["analyze", str(ROOT / "README.md")])
    assert res.exit_code == 1
    assert res.stdout == ""
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("error: ")
    assert "README.md: not a training log: 1 of " in res.stderr
    assert "look like step lines (nemo), quoted in a markdown document" in res.stderr
    assert "Traceback" not in res.stderr


def test_explain_says_why_a_document_is_refused():
    """`patterns explain` on the README gives the refusal's reason, not 'no pattern set recognises it'."""
    res = CliRunner().invoke(cli, ["patterns", "explain", str(ROOT / "README.md")])
    assert res.exit_code == 0
    first = res.stdout.splitlines()[0]
    assert "not a training log" in first and "quoted in a markdown document" in first
    assert "no pattern set recognises" not in res.stdout


def test_a_guide_quoting_a_run_of_steps_is_refused(tmp_path):
    """docs/writing-a-pattern-set.md quotes five fairseq-shaped lines in a code fence: a markdown document."""
    res = CliRunner().invoke(
        cli, ["parse", str(ROOT / "docs" / "writing-a-pattern-set.md"), "-o", str(tmp_path / "x.csv")]
    )
    assert res.exit_code == 1 and "not a training log" in res.stderr and "markdown" in res.stderr


def test_a_log_that_prints_markdown_between_its_steps_reads(write_log):
    """A loop that prints a sampled answer (a heading, a fenced program) after each step: its step lines stand
    outside the fences and form a run, under STRAY_SHARE of its lines; a log, not a document quoting steps."""
    lines = []
    for s in range(1, 41):
        lines.append(f"step {s} | loss {0.5 - s / 1000:.4f} | reward {0.1 + s / 100:.3f} | lr 1.0e-06")
        lines += [
            "# Solution",
            "We can solve the problem step by step with a short program below.",
            "```python",
        ]
        lines += [f"    x{k} = compute_value(x{max(k - 1, 0)}, data[{k}])" for k in range(15)]
        lines += ["```", "The answer follows from the loop above, which sums every value in order."]
    a = api.analyze(write_log("\n".join(lines) + "\n"))
    assert list(a.steps["step"]) == list(range(1, 41))
    assert list(a.steps["loss"]) == [round(0.5 - s / 1000, 4) for s in range(1, 41)]


def test_format_reads_a_refused_file_anyway(tmp_path):
    """With --format the user gets the reading they asked for: the README's NeMo list line, 3 steps."""
    out = tmp_path / "x.csv"
    res = CliRunner().invoke(cli, ["parse", str(ROOT / "README.md"), "--format", "nemo", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text().count("\n") == 1 + 3


PROSE = (
    "This document describes how the training service schedules its jobs and what it logs.\n"
    "Each job writes one console log per attempt, and the operators read them when a run slows down.\n"
    "A typical line from a healthy run looks like the one below, printed once per logging interval.\n"
)


def test_prose_with_one_quoted_step_line_is_refused(write_log, sample):
    line = sample("megatron_llama2-7b_8xh100.log").read_text().splitlines()[54]  # its iteration 1
    doc = write_log(PROSE * 10 + line + "\n" + PROSE * 10, "notes.txt")
    res = CliRunner().invoke(cli, ["analyze", str(doc)])
    assert res.exit_code == 1
    assert (
        "notes.txt: not a training log: 1 of 61 lines look like step lines (megatron), none form a run"
        in res.stderr
    )


@pytest.mark.parametrize("family", ["megatron", "generic"])
def test_a_short_note_quoting_a_step_line_is_refused(write_log, sample, family):
    """Seven lines of prose around one quoted step line: a share of a short file's lines, but no run of steps."""
    if family == "megatron":
        line = sample("megatron_llama2-7b_8xh100.log").read_text().splitlines()[54]  # its iteration 1
    else:
        line = "step 10 | loss 2.5000 | lr 3.0e-04 | 512.0 ms/step"  # a custom loop's print, read by no set
    doc = write_log(PROSE + line + "\n" + PROSE + PROSE[: PROSE.index("\n") + 1], "notes.txt")
    res = CliRunner().invoke(cli, ["analyze", str(doc)])
    assert res.exit_code == 1
    assert (
        f"notes.txt: not a training log: 1 of 8 lines look like step lines ({family}), none form a run"
        in res.stderr
    )


def test_a_short_excerpt_of_step_lines_still_reads(write_log):
    """Two step lines and two warning sentences: a pasted excerpt, not a note."""
    lines = [
        "step 10 | loss 2.5000 | lr 3.0e-04 | 512.0 ms/step",
        "The learning rate scheduler was stepped before the optimizer was, so check the order of the calls.",
        "step 20 | loss 2.2500 | lr 3.0e-04 | 510.0 ms/step",
        "Gradients were clipped on this step because their norm went over the limit that was set.",
    ]
    assert list(api.analyze(write_log("\n".join(lines) + "\n")).steps["step"]) == [10, 20]


def test_a_log_whose_head_is_prose_reads_by_the_steps_after_it(write_log):
    """A loop that prints its data's text before training (more lines than detection's head), then its steps:
    the steps detection found after the head make it a log, not a document quoting lines."""
    prose = [
        f"Sample {i}: the river ran past the mill and the children walked home along it." for i in range(5200)
    ]
    steps = [f"step {s} | loss {3 - s / 1000:.4f} | lr 3.0e-04 | 512.0 ms/step" for s in range(10, 110, 10)]
    a = api.analyze(write_log("\n".join(prose + steps) + "\n"))
    assert list(a.steps["step"]) == list(range(10, 110, 10))


def test_a_log_that_crashed_after_its_first_step_still_reads(write_log, sample):
    """55 lines of Megatron's start-up, then one iteration line: a real short log, read."""
    lines = sample("megatron_llama2-7b_8xh100.log").read_text().splitlines()[:55]
    a = api.analyze(write_log("\n".join(lines) + "\n"))
    assert list(a.steps["step"]) == [1]


# ------------------------------------------------------------------------------------------------
# speed without a different reading: key map lines read by layout, detection behind one literal search


def _same_values(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if a.keys() != b.keys():
        return False
    return all(
        x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y))
        for x, y in ((a[k], b[k]) for k in a)
    )


def test_reading_by_layout_gives_what_the_regexes_give():
    """Every record of the custom-loop captures and of the generic sample logs, through every generic line:
    the values read from a remembered layout equal those of the regex search and findall."""
    from dataclasses import replace

    from logparse.read.reader import read_records
    from tests.conftest import SAMPLES

    generic = patterns.load_sets()["generic"]
    logs = sorted(CAPTURES.glob("*.log")) + sorted(SAMPLES.glob("generic_*.log"))
    for spec in generic.lines:
        assert spec._by_layout
        by_layout, plain = replace(spec, _layouts={}), replace(spec, _layouts={})
        plain.__dict__["_by_layout"] = False
        for log in logs:
            for rec in read_records(str(log)):
                assert _same_values(by_layout.match(rec.text), plain.match(rec.text)), (spec.name, rec.text)


def test_a_class_digit_range_treats_digits_alike_and_a_range_ending_at_a_digit_does_not():
    """sets._digits_alike: the 0-9 of a class goes (every digit alike), not a 0 or 9 that ends another range."""
    from logparse.patterns.sets import _digits_alike

    assert _digits_alike(r"^  (?P<key>[a-z_][a-z0-9_]*) \d{2}") == r"^  (?P<key>[a-z_][a-z_]*) "
    assert "0" in _digits_alike(r"[+-0-9]")  # (+ to 0, then - and 9: a 0 is told from a 5)
    assert "9" in _digits_alike(r"[0-9-x]") and "5" in _digits_alike(r"[0-5]")
    assert "1" in _digits_alike(r"(a)\1") and "0" in _digits_alike(r"\[0-9\]")  # (a backreference, a literal)


def test_lines_that_read_by_layout_for_a_class_range_read_as_their_regexes():
    """The shipped lines that read by layout because a class's 0-9 treats digits alike (Megatron's and GPT-NeoX's
    argument lines, DeepSpeed's config, ...): read from a remembered layout, every record of the shipped and public
    logs gives what the regex search gives."""
    from dataclasses import replace

    import regex

    from logparse.read.reader import read_records
    from tests.conftest import SAMPLES

    def old_rule(spec) -> bool:
        sources = [spec.regex_src] + ([spec.pairs_src] if spec.pairs_src is not None else [])
        return not any(regex.search(r"\d", regex.sub(r"\\d|\{\d*,?\d*\}", "", src)) for src in sources)

    specs = [
        sp for ps in patterns.load_sets().values() for sp in ps.lines if sp._by_layout and not old_rule(sp)
    ]
    assert len(specs) >= 10
    logs = sorted(SAMPLES.glob("*.log")) + sorted((CAPTURES.parent.parent / "public").glob("*.log"))
    texts = list(dict.fromkeys(r.text for log in logs for r in read_records(str(log))))
    matched = 0
    for spec in specs:
        by_layout, plain = replace(spec, _layouts={}), replace(spec, _layouts={})
        plain.__dict__["_by_layout"] = False
        for text in texts:
            want = plain.match(text)
            assert _same_values(by_layout.match(text), want), (spec.qualname, text)
            matched += want is not None
    assert matched > 100


def test_detection_scores_are_those_of_every_detect_regex():
    """patterns.detect (one literal search, then only the sets whose literals a line holds) scores each set
    as trying every set's detect regexes on every line does."""
    from logparse.read.reader import read_records
    from tests.conftest import SAMPLES

    sets = patterns.load_sets()
    families = {n: ps for n, ps in sets.items() if ps.role == "family"}
    logs = sorted(SAMPLES.glob("*.log"))[:12] + sorted(CAPTURES.glob("*.log")) + [ROOT / "README.md"]
    for log in logs:
        texts = [r.text for r in read_records(str(log))][:5000]
        want = {n: sum(ps._detect_hits(t) for t in texts) for n, ps in families.items()}
        found = patterns.detect(texts, sets)
        if any(want.values()):
            assert found.scores == want, log.name
        else:
            assert found is None or found.name not in families, log.name
