"""What the inferred reading (logparse/patterns/infer.py) makes of a step record's values: keys and values joined
by slashes, a timestamp's date joined to its time by a colon, a clock of the day, a duration in days, hours and
minutes, a line of evaluation metrics alone. Each log is a few lines built from a framework's own format string
(cited beside it) with values chosen in the test; the expected values are those values, as the format prints
them."""

from __future__ import annotations

from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets


def frame(path, without: str | None = None):
    """The frame of a log; `without`: a set taken away (the reading of the lines where no set knows them)."""
    return parse_log(str(path), {name: ps for name, ps in load_sets().items() if name != without})


def steps_of(parsed) -> list[int]:
    rows = parsed.rows
    return [int(s) for s in rows.loc[rows["kind"] == "step", "step"]]


def row_at(parsed, line: int) -> dict:
    rows = parsed.rows
    hit = rows[rows["line"] == line]
    assert len(hit) == 1, f"no single row at line {line}"
    return hit.iloc[0].to_dict()


def evals(parsed) -> list[dict]:
    ev = parsed.events
    return [] if ev.empty else ev[ev["event"] == "eval"].to_dict("records")


def test_a_date_joined_to_its_time_by_a_colon(write_log):
    # sockeye/log.py: '[%(asctime)s:%(levelname)s:%(name)s:%(funcName)s] %(message)s', datefmt "%Y-%m-%d:%H:%M:%S";
    # sockeye/training.py Speedometer (1.x): "Epoch[%d] Batch [%d]\tSpeed: %.2f samples/sec %.2f tokens/sec %.2f
    # updates/sec\t%s" with the metrics as name=value
    lines = [
        f"[2019-03-17:14:{20 + i}:{10 * i:02d}:INFO:sockeye.training:__call__] Epoch[0] Batch [{50 * (i + 1)}]"
        f"\tSpeed: 6{i}.50 samples/sec 195{i}.00 tokens/sec 1.2{i} updates/sec\tperplexity={40 - i}.5"
        for i in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [50, 100, 150, 200]
    # 14:21:10 - 14:20:00 and 14:23:30 - 14:20:00
    assert row_at(parsed, 2)["timestamp"] - row_at(parsed, 1)["timestamp"] == 70.0
    assert row_at(parsed, 4)["timestamp"] - row_at(parsed, 1)["timestamp"] == 210.0
    assert row_at(parsed, 1)["samples_per_s"] == 60.5


def test_the_cost_a_trainer_prints_is_the_loss_and_its_validations_are_events(write_log):
    # Marian src/training/scheduler.h: "Ep. {} : Up. {} : Sen. {} : Cost {:.8f} : Time {:.2f}s : {:.2f} words/s"
    # and, per validator, "[valid] Ep. {} : Up. {} : {} : {} : {}" (metric, value, "new best" or the stalls),
    # behind its logger's "[%Y-%m-%d %T] "
    lines = [
        f"[2021-07-17 12:{10 + i}:00] Ep. 1 : Up. {1000 * i} : Sen. {i * 50},000 : Cost {6 - i / 10:.8f} : "
        f"Time 60.00s : 3000.00 words/s"
        for i in (1, 2, 3)
    ]
    lines += [
        "[2021-07-17 12:14:00] [valid] Ep. 1 : Up. 3000 : cross-entropy : 130.97 : new best",
        "[2021-07-17 12:14:30] [valid] Ep. 1 : Up. 3000 : perplexity : 187.458 : new best",
        "[2021-07-17 12:15:00] Ep. 1 : Up. 4000 : Sen. 200,000 : Cost 5.60000000 : Time 60.00s : 3000.00 words/s",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000, 4000]
    assert row_at(parsed, 1)["loss"] == 5.9 and row_at(parsed, 6)["loss"] == 5.6
    assert [e["line"] for e in evals(parsed)] == [4, 5]


def test_keys_joined_by_slashes_pair_with_values_joined_by_slashes(write_log):
    # GluonNLP scripts/question_answering/run_squad.py: 'Epoch: {}, Batch: {}/{}, Loss span/answer/total={:.4f}/{:.4f}/
    # {:.4f}, LR={:.8f}, grad_norm={:.4f}. Time cost={:.2f}, Throughput={:.2f} samples/s ETA={:.2f}h' behind
    # '%(asctime)s - %(name)s - %(levelname)s - '; the total is the loss (the loss rule's total)
    lines = [
        f"2020-07-11 00:{30 + i}:00,000 - root - INFO - Epoch: 1, Batch: {300 * i}/8164, Loss span/answer/total="
        f"0.7{i}00/0.1{i}00/0.8{2 * i}00, LR=0.0000{i}868, grad_norm=2{i}.5925. Time cost=90.67, Throughput=52.94 "
        f"samples/s ETA=1.70h"
        for i in (1, 2, 3)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [300, 600, 900]
    first = row_at(parsed, 1)
    assert first["loss"] == 0.82 and first["lr"] == 1.868e-05 and first["grad_norm"] == 21.5925
    assert row_at(parsed, 3)["loss"] == 0.86  # 0.7300 + 0.1300: the total, not its parts


def test_a_counter_and_its_total_under_keys_joined_by_a_slash(write_log):
    # ms-swift swift/trainers/mixin.py: logs['global_step/max_steps'] = f'{self.state.global_step}/{max_steps}' in
    # the dict it prints: the counter and its total, as when the pair stood as one key
    lines = [
        f"{{'loss': '{2 - s / 100:.4f}', 'learning_rate': '1e-05', 'global_step/max_steps': '{s}/100'}}"
        for s in (10, 20, 30)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"), without="hf_trainer")
    assert parsed.format == "generic"
    assert steps_of(parsed) == [10, 20, 30]
    assert row_at(parsed, 2)["progress_total"] == 100 and row_at(parsed, 2)["loss"] == 1.8
