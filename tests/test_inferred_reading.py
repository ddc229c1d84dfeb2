"""The inferred reading (logparse/patterns/infer.py): a log no framework's set detects, read from its own repeated
lines. Each log here is a few lines built from a framework's own format string (cited beside it) with values
chosen in the test; the expected values are those values, as the format prints them."""

from __future__ import annotations

import math

import pytest

from logparse import api
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets
from tests.conftest import run_apart


def frame(path, without: str | None = None):
    """The frame of a log; `without`: a set taken away, for a framework's format the shipped sets name (the
    reading of the same lines where no set knows them)."""
    sets = {name: ps for name, ps in load_sets().items() if name != without}
    return parse_log(str(path), sets)


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


# ------------------------------------------------------------------------------------------------
# the counter


def test_mmengine_iteration_counter_in_brackets(write_log):
    # mmengine/runner/log_processor.py LogProcessor.get_log_after_iter, IterBasedTrainLoop: f"Iter({mode})
    # [{cur_iter:>{len(str(max_iters))}}/{max_iters}]  " then two-space joined `name: value` (lr `.4e`, the rest
    # `.4f`), behind MMLogger's '%m/%d %H:%M:%S - mmengine - INFO - ' (open-mmlab/mmaction2
    # docs/en/advanced_guides/customize_logging.md shows the line)
    lines = [
        f"12/05 10:02:{50 + i:02d} - mmengine - INFO - Iter(train) [{i * 10:>4}/1000]  lr: 1.0000e-02  "
        f"eta: 0:01:35  time: 0.{40 + i:04d}  data_time: 0.0015  loss: {1.5 - i / 10:.4f}"
        for i in range(1, 4)
    ]
    lines.append(
        "12/05 10:02:59 - mmengine - INFO - Iter(val) [ 4/16]    eta: 0:00:00  time: 0.0012  data_time: 0.0003"
    )
    lines.append(
        "12/05 10:02:59 - mmengine - INFO - Iter(val) [16/16]    accuracy: 42.9688  loss: 1.2345  time: 0.0012"
    )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == [10, 20, 30]
    first = row_at(parsed, 1)
    assert first["progress_total"] == 1000 and first["lr"] == 1e-2 and first["loss"] == 1.4
    assert first["step_time_s"] == 0.0041
    assert row_at(parsed, 3)["timestamp"] - first["timestamp"] == 2.0  # 10:02:53 - 10:02:51
    # the validation's lines are evaluations, never rows; its own `[16/16]` is no training step
    assert [e["line"] for e in evals(parsed)] == [4, 5]
    assert evals(parsed)[1]["eval_loss"] == 1.2345 and math.isnan(evals(parsed)[1].get("step", math.nan))


def test_epoch_and_position_become_the_step_since_the_run_began(write_log):
    # mmengine LogProcessor, EpochBasedTrainLoop: f"Epoch({mode}) [{epoch}][{cur_iter:>{width}}/{len}]  ...";
    # the epoch counts from 1 and the position is the batches done in it (it reaches [50/50])
    lines = [
        f"Epoch(train) [{e}][{i:>2}/50]  lr: 1.0000e-02  time: 0.0012  loss: {2 - e / 10 - i / 1000:.4f}"
        for e in (1, 2)
        for i in (10, 20, 30, 40, 50)
    ]
    log = write_log("\n".join(lines) + "\n")
    parsed = frame(log)
    assert steps_of(parsed) == [10, 20, 30, 40, 50] * 2  # the position, as printed
    assert list(parsed.rows["epoch_index"]) == [0] * 5 + [1] * 5  # the epoch, from 0
    assert set(parsed.rows["progress_total"]) == {50}
    assert list(api.parse(log)["step"]) == list(range(10, 110, 10))  # (epoch - 1) x 50 + position


def test_mmcv_epoch_iteration_then_a_tab_and_comma_separated_pairs(write_log):
    # mmcv/runner/hooks/logger/text.py TextLoggerHook._log_info: f"Epoch [{epoch}][{inner_iter}/{len}]\t" then
    # `lr: {lr:.3e}, `, f"eta: {eta_str}, " (datetime.timedelta: `1 day, 2:03:04`), f"time: {time:.3f}, ...",
    # then ", ".join(f"{name}: {val:.4f}")
    lines = [
        f"2021-03-01 10:0{i}:00,000 - mmdet - INFO - Epoch [1][{1150 + 50 * i}/7517]\tlr: 1.000e-04, "
        f"eta: 1 day, 2:03:0{i}, time: 0.35{i}, data_time: 0.012, memory: 3000, loss_rpn_cls: 0.05{i}0, "
        f"loss: 0.5{i}00"
        for i in range(1, 4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1200, 1250, 1300]
    second = row_at(parsed, 2)
    assert second["lr"] == 1e-4 and second["step_time_s"] == 0.352 and second["loss"] == 0.52
    assert second["x_loss_rpn_cls"] == 0.052
    assert "x_eta" not in parsed.rows  # a duration, one value, and no key the reading keeps


def test_timm_epoch_before_a_batch_index_counted_from_zero(write_log):
    # pytorch-image-models train.py train_one_epoch: f'Train: {epoch} [{update_idx:>4d}/{updates_per_epoch} '
    # f'({100. * (update_idx + 1) / updates_per_epoch:>3.0f}%)]  Loss: {now:#.3g} ({avg:#.3g})  '
    # f'Time: {val:.3f}s, {rate:>7.2f}/s  ({avg:.3f}s, {rate_avg:>7.2f}/s)  LR: {lr:.3e}  Data: ...'
    def line(epoch: int, idx: int, loss: float) -> str:
        pct = 100.0 * (idx + 1) / 12
        return (
            f"Train: {epoch} [{idx:>4d}/12 ({pct:>3.0f}%)]  Loss: {loss:#.3g} (1.45)  Time: 0.163s,   98.08/s  "
            "(0.163s,   98.08/s)  LR: 1.000e-05  Data: 0.029 (0.029)"
        )

    log = write_log("\n".join(line(e, i, 1.5 - e / 10) for e in (0, 1) for i in (0, 4, 8, 11)) + "\n")
    parsed = frame(log, without="timm")  # the shipped timm set reads these lines; here: as if none did
    assert steps_of(parsed) == [0, 4, 8, 11] * 2
    first = row_at(parsed, 1)
    assert first["epoch_index"] == 0 and first["loss"] == 1.5 and first["step_time_s"] == 0.163
    assert first["lr"] == 1e-5
    assert "x_loss_avg" not in parsed.rows and 1.45 not in set(parsed.rows["loss"])  # the running average
    # update_idx i completes optimizer step i + 1: epoch x 12 + i + 1
    assert list(api.parse(log)["step"]) == [1, 5, 9, 12, 13, 17, 21, 24]


def test_epoch_and_position_as_two_n_of_m(write_log):
    # jingyaogong/minimind train_pretrain.py: 'Epoch:[{}/{}]({}/{}) loss:{:.3f} lr:{:.12f} epoch_Time:{}min:'
    lines = [
        f"Epoch:[1/2]({i}/23768) loss:{8 - i / 1000:.3f} lr:0.000200000000 epoch_Time:{372 - i // 100}.0min:"
        for i in (0, 100, 200, 300)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300]
    first = row_at(parsed, 1)
    assert first["progress_total"] == 23768 and first["epoch_index"] == 0 and first["loss"] == 8.0
    assert first["lr"] == 2e-4


def test_a_counter_must_rise_through_the_log(write_log):
    # a table of results whose first column grows but by no stride (a markdown table of runs): no step record
    rows = [
        "| LLAMA3_8B | 8 | 128 | 37556 |",
        "| LLAMA3_70B | 64 | 256 | 4520 |",
        "| LLAMA3.1_405B | 256 | 1536 | 999 |",
    ]
    log = write_log("| Model | GPUs | GBS | tok/s/GPU |\n|---|---|---|---|\n" + "\n".join(rows) + "\n")
    assert run_apart(["analyze", str(log)]).exit_code == 1


# ------------------------------------------------------------------------------------------------
# the values


def test_key_value_pairs_of_every_kind(write_log):
    # strings that hold numbers, as Hugging Face Trainer's log dict prints them (trainer.py log: rounded values
    # as strings in some versions) and torchtitan-style `'tok/gpu/s': '3,679.1'`; a value then its unit
    lines = [
        f"{{'step': {s}, 'loss': '{7.625 - s / 100:.4f}', 'tok/gpu/s': '3,6{s}9.1', 'grad_norm': 1.{s}}}"
        for s in range(1, 4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    first = row_at(parsed, 1)
    assert first["loss"] == 7.615 and first["grad_norm"] == 1.1
    assert 3619.1 in first.values()  # `'3,619.1'`: one number, whatever column its key goes to


def test_json_with_double_quotes_behind_a_logger_prefix(write_log):
    # Python logging's default '%(asctime)s - %(name)s - %(levelname)s - %(message)s' with a json.dumps message
    lines = [
        f'2024-05-01 10:00:0{s},123 - train - INFO - {{"iteration": {s * 10}, "loss": {3 - s / 10}, '
        f'"lr": 0.0003, "step_time": 0.{s}5}}'
        for s in range(1, 4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30]
    second = row_at(parsed, 2)
    assert second["loss"] == 2.8 and second["lr"] == 3e-4 and second["step_time_s"] == 0.25
    assert second["timestamp"] - row_at(parsed, 1)["timestamp"] == 1.0


def test_units_after_values_and_in_the_keys_brackets(write_log):
    # build-nanogpt train_gpt2.py: f"step {step:5d} | loss {loss:.6f} | lr {lr:.4e} | norm {norm:.4f} |
    # dt {dt:.2f}ms | tok/sec {tokens_per_sec:.2f}"; plus a memory key that names its unit in brackets
    lines = [
        f"step {s:5d} | loss {5 - s / 10:.6f} | lr 6.0000e-04 | norm 1.{s}000 | dt 1{s}.00ms | "
        f"tok/sec 3{s}000.00 | memory(GiB): 1{s}.5"
        for s in range(3)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    second = row_at(parsed, 2)
    assert second["step_time_s"] == pytest.approx(0.011, rel=1e-12) and second["tokens_per_s"] == 31000.0
    assert second["memory_gib"] == 11.5 and second["grad_norm"] == 1.1


def test_a_one_group_dict_value_is_its_keys(write_log):
    # InternLM/InternEvo train.py record_current_batch_training_metrics: ... grad_norm={'0_default': 66.51}
    lines = [
        f"2023-09-05T11:49:5{s}.225+08:00 INFO [training_internlm.py, line 413, in record] - pid=6794 : "
        f"tflops=63.28 step={s} loss={11.6 - s / 10:.1f} lr=4.0e-07 grad_norm={{'0_default': 6{s}.5}} micro_num=4"
        for s in range(3)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2]
    assert list(parsed.rows["grad_norm"]) == [60.5, 61.5, 62.5]
    assert "x_line" not in parsed.rows or parsed.rows["x_line"].notna().all()  # (a source location's number)


def test_a_table_under_its_header(write_log):
    # ultralytics/engine/trainer.py: the header ("%11s" * (4 + len(loss_names))) % ("Epoch", "GPU_mem",
    # *loss_names, "Instances", "Size"), then per epoch the row ("%11s" * 2 + "%11.4g" * (2 + n)) %
    # (f"{epoch + 1}/{epochs}", f"{memory:.3g}G", *losses, instances, size) with its bar after ": "; the
    # validation's `Class ... mAP50` header and its `all` row after it
    header = ("%11s" * 6) % ("Epoch", "GPU_mem", "box_loss", "cls_loss", "Instances", "Size")
    lines = []
    for e, (box, cls) in enumerate(((1.209, 1.486), (1.081, 0.4706)), start=1):
        row = ("%11s" * 2 + "%11.4g" * 4) % (f"{e}/100", "6.73G", box, cls, 12, 640)
        lines += [header, row + ": 100%|##########| 8/8 [00:03<00:00,  2.43it/s]"]
        lines += [
            ("%22s" + "%11s" * 4) % ("Class", "Images", "Instances", "Box(P", "mAP50"),
            ("%22s" + "%11.3g" * 4) % ("all", 128, 929, 0.667, 0.659),
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2]  # the epoch column
    first = row_at(parsed, 2)
    assert first["progress_total"] == 100 and first["x_box_loss"] == 1.209 and first["x_cls_loss"] == 1.486
    assert first["memory_gib"] == pytest.approx(6.73e9 / 2**30, rel=1e-12)  # `6.73G`: G is 1e9 bytes


def test_a_csv_table_under_its_header(write_log):
    # Lightning's CSVLogger metrics.csv printed to the console: a header, then one row per logged step
    lines = ["train/loss_step,global_step,epoch,created_at"]
    lines += [f"0.{9 - s},{s * 50 - 1}.0,0,2025-11-07 06:0{s}:10.484610" for s in range(1, 5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [49, 99, 149, 199]  # global_step, printed as a float
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 2)["timestamp"] == 60.0


# ------------------------------------------------------------------------------------------------
# records over several lines


def test_a_block_of_key_tab_value_lines_per_step(write_log):
    # a loop that prints each of its values on a line of its own, `print(f"{key}\t{value}")`, the step first
    block = "".join(
        f"step\t{s}\nloss\t{3 - s / 1000}\nlr\t0.0003\ntime\t0.{s // 100}5\n" for s in (100, 200, 300)
    )
    parsed = frame(write_log(block))
    assert steps_of(parsed) == [100, 200, 300]
    assert list(parsed.rows["loss"]) == [2.9, 2.8, 2.7]
    assert list(parsed.rows["step_time_s"]) == [0.15, 0.25, 0.35]
    assert list(parsed.rows["lr"]) == [3e-4] * 3


def test_a_record_printed_as_a_table_between_rules(write_log):
    # openai/improved-diffusion improved_diffusion/logger.py HumanOutputFormat.writekvs: a dashed rule, then
    # "| %s | %s |" per key (sorted, values "%-8.3g"), then the rule again, at every log interval
    def table(step: int, loss: float) -> list[str]:
        rows = [
            ("grad_norm", "0.0913"),
            ("loss", f"{loss:<8.3g}"),
            ("samples", "2.85e+06"),
            ("step", f"{step:<8.3g}"),
        ]
        return ["-" * 24, *(f"| {k:<9} | {v:<8} |" for k, v in rows), "-" * 24]

    parsed = frame(write_log("\n".join(table(11100, 0.0621) + table(11200, 0.0598)) + "\n"))
    assert steps_of(parsed) == [11100, 11200]  # `1.11e+04`: a counter printed as a float
    assert list(parsed.rows["loss"]) == [0.0621, 0.0598]
    assert list(parsed.rows["grad_norm"]) == [0.0913, 0.0913]


def test_a_result_printed_as_yaml_over_lines(write_log):
    # ray/tune/logger.py pretty_print(result): yaml.safe_dump of RLlib's train() result, one `key: value` a
    # line, nested sections indented; training_iteration is the iteration
    block = """custom_metrics: {}
done: false
episode_reward_mean: -550.34
info:
  default:
    cur_lr: 4.999999873689376e-05
    total_loss: 936.0924682617188
  grad_time_ms: 2260.449
time_this_iter_s: 2.8040077686309814
timesteps_total: 340000
training_iteration: 85
"""
    parsed = frame(write_log(block))
    assert steps_of(parsed) == [85]
    row = row_at(parsed, 11)
    assert row["lr"] == 4.999999873689376e-05 and row["x_episode_reward_mean"] == -550.34
    assert row["x_timesteps_total"] == 340000


def test_a_dict_printed_over_lines_after_its_step_line(write_log):
    # a loop that prints its step line, then json.dumps(metrics, indent=2) (Python's json: one `"key": value,`
    # a line between braces)
    lines = []
    for s in (100, 200, 300):
        lines += [f"step {s} done", "{", f'  "loss": {3 - s / 1000},', f'  "step_time": 0.{s // 100}5', "}"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300]
    assert list(parsed.rows["loss"]) == [2.9, 2.8, 2.7]
    assert list(parsed.rows["step_time_s"]) == [0.15, 0.25, 0.35]


def test_an_epoch_on_its_own_line_before_its_steps(write_log):
    # PaddlePaddle hapi ProgBarLogger (paddle/hapi/callbacks.py): print('Epoch %d/%d' % (epoch + 1, epochs)),
    # then every log_freq steps 'step %d/%d - loss: %.4f - acc: %.4f - %dms/step'; after 'Eval begin...' the
    # evaluation's bar has the same form
    lines = []
    for e in (1, 2):
        lines.append(f"Epoch {e}/2")
        lines += [
            f"step {k}/50 - loss: 1.{e}{k // 10}00 - acc: 0.5 - 20ms/step" for k in (10, 20, 30, 40, 50)
        ]
        lines += ["Eval begin...", "step 8/8 - loss: 0.9646 - acc: 0.5781 - 2ms/step", "Eval samples: 256"]
    log = write_log("\n".join(lines) + "\n")
    run = api.resolve(log)
    assert list(run.steps["step"]) == list(range(10, 110, 10))  # (epoch - 1) x 50 + position
    assert [int(e["step"]) for e in evals(run.parsed)] == [50, 100]  # the evaluation after each epoch


# ------------------------------------------------------------------------------------------------
# evaluations, events, ranks


def test_validation_lines_are_events_never_rows(write_log):
    # KellerJordan/modded-nanogpt train_gpt.py: f"step:{step}/{train_steps} train_loss:... train_time:...ms
    # step_avg:...ms", and at validation f"step:{step}/{train_steps} val_loss:{val_loss:.4f} train_time:..."
    lines = []
    for s in (50, 100, 150, 200):
        lines.append(f"step:{s}/1750 train_loss:{4 - s / 1000:.4f} train_time:{s * 40}ms step_avg:40.00ms")
        if s % 100 == 0:
            lines.append(
                f"step:{s}/1750 val_loss:{4.2 - s / 1000:.4f} train_time:{s * 40 + 25}ms step_avg:40.00ms"
            )
    lines.append("step:200/1750 val_loss:3.9000 train_time:8100ms step_avg:40.50ms")  # after the last step
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [50, 100, 150, 200]
    assert [(int(e["step"]), e["eval_loss"]) for e in evals(parsed)] == [(100, 4.1), (200, 4.0), (200, 3.9)]


def test_a_validation_word_makes_an_evaluation(write_log):
    # karpathy/nanochat scripts/base_train.py: f"Step {step:05d} | Validation bpb: {val_bpb:.4f}" beside its
    # step lines f"step {step:05d}/{num_iterations:05d} ({pct:.2f}%) | loss: {loss:.6f} | ..."
    lines = [
        f"step {s:05d}/00040 ({s * 2.5:.2f}%) | loss: {5 - s / 100:.6f} | dt: 12.00ms"
        for s in range(0, 41, 10)
    ]
    lines.insert(0, "Step 00000 | Validation bpb: 3.2100")
    lines.append("Step 00040 | Validation bpb: 2.1000")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 10, 20, 30, 40]
    assert [e["line"] for e in evals(parsed)] == [1, 7]


def test_a_dicts_own_step_time_wins_over_a_bars_smoothed_rate(write_log):
    # a loop that redraws a tqdm bar and prints its own dict every step: the dict is the record
    lines = []
    for s in range(1, 5):
        lines.append(
            f" {s * 25}%|{'#' * s}{' ' * (4 - s)}| {s}/4 [00:0{s}<00:0{4 - s},  1.{s}0it/s, loss=2.{s}]"
        )
        lines.append(f"{{'step': {s}, 'loss': 2.{s}1, 'step_time': 0.{s}5}}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert list(parsed.rows["step_time_s"]) == [0.15, 0.25, 0.35, 0.45]
    assert list(parsed.rows["loss"]) == [2.11, 2.21, 2.31, 2.41]


def test_a_rank_a_line_prints_is_the_rows_rank(write_log):
    # two processes of a loop under torchrun, each printing f"rank {rank}: step {step}/{steps} | loss {loss:.4f}"
    # (no launcher prefix): rank 0's values are the run's, rank 1's kept beside them
    lines = []
    for s in (5, 10, 15):
        order = (1, 0) if s == 10 else (0, 1)
        lines += [f"rank {r}: step {s}/80 | loss {1.4 - s / 100 - r / 1000:.4f} | 7.5 ms/step" for r in order]
    run = api.resolve(write_log("\n".join(lines) + "\n"))
    steps = run.steps.set_index("step")
    assert list(steps.index) == [5, 10, 15]
    assert steps.loc[10, "loss"] == 1.3 and steps.loc[10, "x_loss_rank1"] == 1.299


def test_lines_of_ranks_interleaved_and_a_counter_after_the_epoch(write_log):
    # wenet-e2e/wenet wenet/utils/executor.py: '{} Batch {}/{} loss {:.6f} '.format(tag, epoch, batch_idx, loss),
    # then '{} {:.6f} '.format(name, value) per named loss, then 'lr {:.8f} rank {}' (TRAIN) or
    # 'history loss {:.6f} rank {}' (CV), through logging.debug under wenet/bin/train.py's
    # format='%(asctime)s %(levelname)s %(message)s'. `Batch 3/...`: the epoch before the batch index, which is no
    # total. Every rank prints its own lines, and each rank's buffered output reaches the console in a block
    lines = []
    for r in (0, 1, 2):
        for b in (100, 200, 300):
            loss = 20 - b / 100 - r / 10
            lines.append(
                f"2023-01-30 18:{b // 100:02d}:0{r},10{r} DEBUG TRAIN Batch 3/{b} loss {loss:.6f} "
                f"loss_att {loss - 2:.6f} loss_ctc {loss + 4:.6f} lr {0.0004 - b * 1e-7:.8f} rank {r}"
            )
    for r in (1, 0, 2):
        lines.append(
            f"2023-01-30 18:04:0{r},20{r} DEBUG CV Batch 3/0 loss 28.{r}00000 loss_att 24.{r}00000 "
            f"loss_ctc 38.{r}00000 history loss 27.{r}00000 rank {r}"
        )
    log = write_log("\n".join(lines) + "\n")
    parsed = frame(log)
    assert parsed.format == "generic"
    assert steps_of(parsed) == [100, 200, 300] * 3  # one row per printed line
    assert list(parsed.rows.loc[parsed.rows["kind"] == "step", "rank"]) == [0] * 3 + [1] * 3 + [2] * 3
    assert len(evals(parsed)) == 3  # the CV lines: evaluations, never rows
    steps = api.resolve(log).steps.set_index("step")
    assert list(steps.index) == [100, 200, 300]
    assert list(steps["loss"]) == [19.0, 18.0, 17.0]  # rank 0's: 20 - b / 100
    assert list(steps["lr"]) == [0.00039, 0.00038, 0.00037]


def test_an_epoch_before_a_position_that_starts_again_each_epoch(write_log):
    # the same WeNet line of one process over two epochs: batch_idx (enumerate over the epoch's data loader)
    # starts again from 0 each epoch, the epoch before it goes up
    lines = [
        f"2023-01-30 18:0{e}:{b // 100:02d},100 DEBUG TRAIN Batch {e}/{b} loss {20 - e - b / 1000:.6f} "
        f"loss_att 1.000000 loss_ctc 2.000000 lr 0.00040000 rank 0"
        for e in (0, 1)
        for b in range(0, 500, 100)
    ]
    log = write_log("\n".join(lines) + "\n")
    rows = frame(log).rows
    assert list(rows.loc[rows["kind"] == "step", "epoch_index"]) == [0] * 5 + [1] * 5
    steps = api.resolve(log).steps
    assert list(steps["line"]) == list(range(1, 11))  # every epoch's rows, none taken for a restart
    assert list(steps["loss"]) == [20 - e - b / 1000 for e in (0, 1) for b in range(0, 500, 100)]
    assert steps["step"].is_monotonic_increasing and steps["step"].is_unique


def _acme_line(label: str, values: dict) -> str:
    # deepmind/acme acme/utils/loggers/terminal.py: TerminalLogger's label f"[{_format_key(label)}] " and
    # serialize(): ' | '.join(f'{_format_key(k)} = {_format_value(v)}' for k, v in sorted(values.items())), with
    # _format_key = key.replace('_', ' ').title() and floats as f'{value:0.3f}'; through absl logging
    def value(v):
        return f"{v:0.3f}" if isinstance(v, float) else f"{v}"

    body = " | ".join(f"{k.replace('_', ' ').title()} = {value(v)}" for k, v in sorted(values.items()))
    return f"I0925 18:52:{len(body) % 60:02d}.416487 140563283464576 terminal.py:91] [{label.title()}] {body}"


@pytest.mark.parametrize("rounds", [1, 4])
def test_a_loggers_label_names_its_counter_among_those_it_prints(write_log, rounds):
    # acme/utils/counting.py Counter.get_counts: every logger's counter returns all counts, each under its
    # prefix (`learner_steps`, `actor_steps`, `evaluator_steps`): the learner's line is the training record and
    # its own counter the step; the actor's line is an episode's, the evaluator's an evaluation
    lines = []
    for s in range(1, rounds + 1):
        counts = {
            "actor_episodes": s,
            "actor_steps": 800 * s,
            "evaluator_episodes": s,
            "evaluator_steps": 700 * s,
            "learner_steps": s,
        }
        loss = 0.5 - s / 10
        learner = {
            "critic_loss": 0.125,
            "entropy_loss": -0.25,
            "policy_loss": loss - 0.125 + 0.25,
            "loss": loss,
        }
        lines.append(_acme_line("learner", {**counts, **learner, "learner_walltime": 10.5 * s}))
        lines.append(_acme_line("actor", {**counts, "episode_length": 800, "episode_return": -21.0}))
        lines.append(
            _acme_line(
                "evaluator",
                {**counts, "episode_length": 700, "episode_return": -20.0, "steps_per_second": 9.5},
            )
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == list(range(1, rounds + 1))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["line"]) == list(range(1, 3 * rounds, 3))  # the learner's lines only
    assert list(rows["loss"]) == [round(0.5 - s / 10, 3) for s in range(1, rounds + 1)]
    assert [e["line"] for e in evals(parsed)] == list(range(3, 3 * rounds + 1, 3))


def test_a_trainers_line_among_more_lines_of_actors(write_log):
    # Acme's TerminalLogger writes at most every time_delta seconds (terminal.py): a learner logging less often
    # than its actors shows one line among theirs; the actors' lines, each with the learner's counter, are no steps
    lines = []
    for s in range(1, 6):
        counts = {"actor_episodes": s, "actor_steps": 800 * s, "learner_steps": 40 * s}
        lines.append(_acme_line("actor", {**counts, "episode_length": 800, "episode_return": -21.0}))
        if s == 3:
            lines.append(
                _acme_line("learner", {**counts, "loss": 0.375, "policy_loss": 0.25, "critic_loss": 0.125})
            )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [120]
    assert list(parsed.rows.loc[parsed.rows["kind"] == "step", "loss"]) == [0.375]


@pytest.mark.parametrize("run_id", ["ppo_test", "walker-val", "test2"])
def test_a_run_name_with_an_evaluation_word_is_no_evaluation(write_log, run_id):
    # Unity-Technologies/ml-agents ml-agents/mlagents/trainers/trainer.py _write_summary: " {}: {}: Step: {}.
    # Time Elapsed: {:0.3f} s Mean Reward: {:0.3f}. Std of Reward: {:0.3f}. {}".format(run_id, brain_name, step,
    # elapsed, mean, std, "Training." or "Not Training.") through LOGGER = logging.getLogger("mlagents.trainers");
    # a run id such as `ppo_test` is a name, not the word test
    lines = [
        f"INFO:mlagents.trainers: {run_id}: Walker: Step: {s * 1000}. Time Elapsed: {3.125 * s:0.3f} s "
        f"Mean Reward: 0.{s}00. Std of Reward: 0.250. Training."
        for s in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000, 4000, 5000]
    assert list(parsed.rows["train_elapsed_s"]) == [3.125 * s for s in range(1, 6)]
    assert evals(parsed) == []


def test_a_list_heads_the_record_and_its_values_line_joins_it(write_log):
    # RVC-Project/Retrieval-based-Voice-Conversion-WebUI infer/modules/train/train.py: every log_interval steps
    # logger.info("Train Epoch: {} [{:.0f}%]".format(...)), logger.info([global_step, lr]), then
    # logger.info(f"loss_disc={loss_disc:.3f}, loss_gen={loss_gen:.3f}, loss_fm={loss_fm:.3f},loss_mel=
    # {loss_mel:.3f}, loss_kl={loss_kl:.3f}"), behind logging's default '%(levelname)s:%(name)s:%(message)s'
    lines = []
    for k, step in enumerate((200, 400, 600, 800)):
        lines += [
            f"INFO:voice-run:Train Epoch: {k + 2} [{k + 1}%]",
            f"INFO:voice-run:{[step, 1e-4 * 0.999875 ** (k + 1)]}",
            f"INFO:voice-run:loss_disc=3.{k}00, loss_gen=4.{k}00, loss_fm=10.{k}00,loss_mel=2{k}.500, loss_kl=1.{k}00",
            f"INFO:voice-run:====> Epoch: {k + 1} [2023-06-11 0{k}:52:05] | (1:32:29.395655)",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == [200, 400, 600, 800]
    for k in range(4):
        row = row_at(parsed, 4 * k + 2)
        assert (
            20.5 + k in row.values() and 3.0 + k / 10 in row.values()
        )  # loss_mel, loss_disc of the next line


def test_a_checkpoint_save_is_an_event_at_its_step(write_log):
    # thtrieu/darkflow net/flow.py: 'step {} - loss {} - moving ave loss {}', and 'Checkpoint at step {}'
    lines = [f"step {s} - loss {92 - s / 100} - moving ave loss 91.9" for s in range(1073, 1077)]
    lines.insert(2, "Checkpoint at step 1074")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert [(int(r.line), int(r.step)) for r in saves.itertuples()] == [(3, 1074)]
    assert steps_of(parsed) == [1073, 1074, 1075, 1076]


# ------------------------------------------------------------------------------------------------
# the whole file through the set: the parallel reading and its fast lane, and `patterns new`


def test_the_whole_file_reads_alike_in_ranges(write_log):
    lines = []
    for i in range(1, 3001):
        lines.append(
            f"2024-05-01 10:{i // 60 % 60:02d}:{i % 60:02d},{i % 1000:03d} - INFO - Iter(train) [{i:>4}/3000]  "
            f"lr: 3.0000e-04  time: 0.{1000 + i % 97:04d}  loss: {3 - i / 3000:.4f}  tok/s: {20_000 + i:,}"
        )
        if i % 7 == 0:
            lines.append(f"noise line {i % 3}: nothing to read here")
    log = write_log("\n".join(lines) + "\n")
    one = parse_log(str(log), load_sets())
    ranges = parse_log(str(log), load_sets(), jobs=1, chunk_bytes=40_000)
    assert len(one.rows) == 3000 and one.format == "generic"
    assert one.rows.drop(columns=["pattern"]).equals(ranges.rows.drop(columns=["pattern"]))
    assert one.rows["tokens_per_s"].iloc[-1] == 23000.0  # `23,000` whole


def test_patterns_new_writes_the_inferred_reading(tmp_path, write_log):
    lines = [
        f"Epoch(train) [{e}][{i:>2}/50]  lr: 1.0000e-02  time: 0.00{i}  loss: {2 - e / 10 - i / 1000:.4f}"
        for e in (1, 2)
        for i in (10, 20, 30, 40, 50)
    ]
    lines.insert(5, "Epoch(val) [1][4/4]    accuracy: 42.9688  loss: 1.2345")
    log = write_log("\n".join(lines) + "\n")
    out = tmp_path / "sets" / "mine.toml"
    assert run_apart(["patterns", "new", str(log), "-o", str(out)]).exit_code == 0
    assert run_apart(["patterns", "test", str(out.parent)]).exit_code == 0
    mine = api.resolve(log, patterns=(str(out.parent),), format="mine")
    inferred = api.resolve(log)
    assert list(mine.steps["step"]) == list(inferred.steps["step"]) == list(range(10, 110, 10))
    assert list(mine.steps["loss"]) == list(inferred.steps["loss"])
    assert [e["eval_loss"] for e in evals(mine.parsed)] == [1.2345]
