"""The inferred reading (logparse/patterns/infer.py): a log no framework's set detects, read from its own repeated
lines. Each log here is a few lines built from a framework's own format string (cited beside it) with values
chosen in the test; the expected values are those values, as the format prints them."""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone

import pandas as pd
import pytest

from logparse import api
from logparse.core.errors import UnrecognisedLog
from logparse.frame.assemble import parse_log
from logparse.patterns.keymap import number_spans
from logparse.patterns.sets import load_sets
from tests.conftest import ROOT, run_apart
from tests.frames import evals, frame, row_at, steps_of

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
    # the validation's lines are one evaluation, never rows; its own `[16/16]` is no training step
    assert [e["line"] for e in evals(parsed)] == [4]
    # (done after iteration 30, the last printed before it)
    assert evals(parsed)[0]["eval_loss"] == 1.2345 and evals(parsed)[0]["step"] == 30


def test_a_count_that_grows_by_the_epochs_batches_is_the_runs_iteration(write_log):
    # vLAR-group/LogoSP train_Seg_S3DIS.py: logger.info('Train Epoch: {} [{}/{} ({:.0f}%)]{}, Loss: {:.10f}, lr:
    # {:.3e}, Elapsed time: {:.4f}s({} iters)') with iteration = (epoch - 1) * len(train_loader) + batch_idx + 1,
    # logged at batch 20 of 21: once an epoch
    lines = [
        f"2026-02-04 08:5{e - 30}:01,395:INFO: Train Epoch: {e} [20/21 (95%)]{(e - 1) * 21 + 20}, Loss: "
        f"0.{6800 - e:010d}, lr: 7.705e-05, Elapsed time: {8 + e % 2}.5767s(20 iters)"
        for e in range(30, 35)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [629, 650, 671, 692, 713]
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(9.5767 / 20)


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


def test_a_position_seen_over_an_epochs_turn_is_the_step(write_log):
    # PaddlePaddle/PaddleDetection ppdet/engine/callbacks.py LogPrinter.on_step_end: " ".join(["Epoch: [{}]",
    # "[{" + space_fmt + "}/{}]", "learning_rate: {lr:.6f}", "{meters}", "eta: {eta}", "batch_cost: {btime}",
    # "data_cost: {dtime}", "ips: {ips:.4f} images/s"]) with space_fmt ":" + str(len(str(steps_per_epoch))) + "d",
    # epoch_id from 0, step_id the batch's index in the epoch (enumerate over the loader), logged every log_iter
    # steps after the optimizer's step; behind ppdet's logger "[%(asctime)s] %(name)s %(levelname)s: %(message)s"
    # with datefmt "%m/%d %H:%M:%S". Five lines over the turn of the first epoch: more turns than rises in view
    at = [(0, 150), (0, 200), (1, 0), (1, 50), (1, 100)]
    lines = [
        f"[09/24 10:5{k}:30] ppdet.engine INFO: Epoch: [{e}] [{s:3d}/250] learning_rate: {0.001 + k / 1000:.6f} "
        f"loss: {3.7 - k / 10:.6f} loss_cls: 1.731808 eta: 1 day, 17:06:44 batch_cost: 0.267{k} data_cost: 0.0010 "
        "ips: 29.9510 images/s"
        for k, (e, s) in enumerate(at)
    ]
    log = write_log("\n".join(lines) + "\n")
    parsed = frame(log)
    assert steps_of(parsed) == [150, 200, 0, 50, 100]  # the position, as printed
    assert list(parsed.rows["epoch_index"]) == [0, 0, 1, 1, 1]
    third = row_at(parsed, 3)
    assert third["progress_total"] == 250 and third["loss"] == 3.5 and third["lr"] == 0.003
    # step_id s of epoch e completes optimizer step e x 250 + s + 1
    assert list(api.parse(log)["step"]) == [151, 201, 251, 301, 351]


def test_a_counter_must_rise_through_the_log(write_log):
    # a table of results whose first column grows but by no stride (a markdown table of runs): no step record
    rows = [
        "| LLAMA3_8B | 8 | 128 | 37556 |",
        "| LLAMA3_70B | 64 | 256 | 4520 |",
        "| LLAMA3.1_405B | 256 | 1536 | 999 |",
    ]
    log = write_log("| Model | GPUs | GBS | tok/s/GPU |\n|---|---|---|---|\n" + "\n".join(rows) + "\n")
    assert run_apart(["analyze", str(log)]).exit_code == 1


def test_a_counter_printed_with_thousands_separators_before_a_comma(write_log):
    # XPixelGroup/BasicSR basicsr/utils/logger.py MessageLogger.__call__: f'[{self.exp_name[:5]}..][epoch:{epoch:3d}, '
    # f'iter:{current_iter:8,d}, lr:(' then f'{v:.3e},' per lr and ')] ', f'[eta: {eta_str}, ' f'time (data): '
    # f'{iter_time:.3f} ({data_time:.3f})] ', then f'{k}: {v:.4e} ' per loss; the epoch goes up on every line
    lines = [
        f"2020-08-15 15:5{k}:30,390 INFO: [My_ES..][epoch:{207 + k:3d}, iter:{20_100 + 100 * k:8,d}, lr:(1.000e-04,)] "
        f"[eta: 1 day, 18:13:17, time (data): 0.365 (0.002)] l_g_pix: {3.1516e-04 + k * 1e-5:.4e} "
        "l_d_real: 2.6469e-04 "
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    # `20,100, lr` is one number before the comma that ends it, and the iteration is the step, not the epoch
    assert steps_of(parsed) == [20_100, 20_200, 20_300, 20_400]
    assert row_at(parsed, 1)["lr"] == 1e-4
    text = "iter:  20,100, lr:(1.000e-04,)]"  # (the tokenizer `patterns test` holds samples to agrees)
    assert [text[a:b] for a, b in number_spans(text)] == ["20,100", "1.000e-04"]


def test_a_counter_glued_to_its_word(write_log):
    # VinAIResearch/LFM train_flow_latent.py: "epoch {} iteration{}, Loss: {}, Train Steps/Sec: {:.2f}".format(
    # epoch, iteration, loss.item(), steps_per_sec) every 100 iterations of the epoch's loader
    losses = [2.7003040313720703, 2.6851375102996826, 2.6688973903656006, 2.674243450164795]
    lines = [
        f"epoch 2 iteration{100 * (k + 10)}, Loss: {loss}, Train Steps/Sec: 0.00"
        for k, loss in enumerate(losses)
    ]
    lines += [f"epoch 2 iteration{100 * (k + 14)}, Loss: 2.67{k}, Train Steps/Sec: 0.00" for k in range(8)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(1000, 2200, 100))  # one record, not a shape per printed number
    assert row_at(parsed, 2)["loss"] == 2.6851375102996826


def test_the_counter_that_counts_the_whole_run_wins(write_log):
    # microsoft/LMOps minillm/minillm/trainer.py PPOTrainer.train get_log: "train | data_epochs {:2d}/{:2d} | inner
    # iter: {:3d}/{:3d} | ppo epoch: {:2d}/{:2d} | global iter: {:6d}/{:6d}" then "| {}: {:.4f} " per stat and
    # "| lr: {:.4e} | scale: {:6.2f} | time: {:.3f} | step time: {:.3f}"; the inner iteration starts again with
    # each batch of rollouts, the global one counts the optimizer steps
    lines = [
        f"train | data_epochs  4/10 | inner iter: {k % 4:3d}/  4 | ppo epoch:  1/ 4 | global iter: {69 + k:6d}/   160"
        f"| tot_loss: {6.2529 - k / 10:.4f} | lr: {3.3e-06 + k * 5e-8:.4e} | scale: 2048.00 | time: 0.366 | step time: 0.366"
        for k in range(8)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(69, 77))
    assert row_at(parsed, 3)["lr"] == 3.4e-06


def test_a_counter_that_never_changes_is_an_outer_loop_not_the_step(write_log):
    # aburkov/theLMbook GRPO_From_Scratch_Multi_GPU_DataParallel_Qwen_2_5_1_5B_Instruct.ipynb train_with_grpo:
    # print(f"Iteration {iteration+1}/{num_iterations}, Step {step+1}/{steps_per_iteration}, "
    # f"GRPO iter {grpo_iter+1}/{mu}, loss: {loss.item():.4f}") with one iteration and one GRPO iteration: the
    # outer counters hold 1 while the step rises
    lines = []
    for k in range(6):
        lines.append(f"Average Reward: {0.5 + k / 8}")
        lines.append(f"Iteration 1/1, Step {k + 1}/300, GRPO iter 1/1, loss: {k / 1000:.4f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5, 6]
    assert row_at(parsed, 8)["loss"] == 0.003  # (line 8: step 4)
    assert row_at(parsed, 8)["progress_total"] == 300


def test_an_evaluation_that_quotes_the_steps_training_loss_is_no_row(write_log):
    # mistralai/mistral-finetune finetune/monitoring/metrics_logger.py: train_log_msg joins "step: {:06}",
    # "done (%): {:03.1f}", "loss: {:.3f}", "lr: {:.1e}", ... with " - "; eval_log_msg joins "step: {:06}",
    # "eval_perplexity: {:.3f}", "eval_loss: {:.3f}", "train_loss: {:.3f}" (the step's training loss, repeated)
    loss = {s: 1.5 - s / 20 for s in range(1, 9)}
    lines = []
    for s, v in loss.items():
        if s % 4 == 0:
            lines.append(
                f"step: {s:06d} - eval_perplexity: 2.{s}00 - eval_loss: 0.9{s}0 - train_loss: {v:.3f}"
            )
        lines.append(f"step: {s:06d} - done (%): {s * 10:03.1f} - loss: {v:.3f} - lr: {1e-4 / s:.1e}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(1, 9))
    assert row_at(parsed, 5)["loss"] == 1.3  # (line 5: step 4's training line, after its evaluation)
    assert [e["eval_loss"] for e in evals(parsed)] == [0.94, 0.98]


def test_a_line_printed_once_at_a_step_of_the_records_joins_that_steps_row(write_log):
    # google/trax trax/supervised/training.py Loop: _log_step prints 'Step % 6d: %s' % (self.step, msg); at step 1
    # _log_n_weights' 'Total number of trainable weights: %d', then at every report 'Ran %d train steps in %0.2f
    # secs' and log_summary's '%s %s | % .8f' % (log_prefix.ljust(5), name.rjust(...), value) per metric
    lines = ["Step      1: Total number of trainable weights: 1234567"]
    for s, ran, loss in ((1, 1, 9.5), (50, 49, 7.25), (100, 50, 6.125), (150, 50, 5.5)):
        lines += [
            f"Step {s:6d}: Ran {ran} train steps in 12.00 secs",
            f"Step {s:6d}: train CrossEntropyLossWithLogSoftmax | {loss: .8f}",
            "",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 50, 100, 150]
    assert row_at(parsed, 2)["loss"] == 9.5  # (line 2: step 1's report, the weights' line joined to it)


def test_the_updates_done_so_far_count_the_steps_not_the_examples(write_log):
    # facebookresearch/ParlAI parlai/scripts/train_model.py TrainLoop.log (2019-2020): logs "time:{}s"
    # (np.floor of the training time), "total_exs:{}" (the examples so far), "epochs:{}" (rounded to 2
    # places), then print("[ {} ] {}".format(" ".join(logs), self._nice_format(train_report))), the report a
    # dict printed with str(); its "total_train_updates" is parlai/core/torch_agent.py TorchAgent.report's
    # self._number_training_updates (the optimizer's updates so far), its "updates" those of the interval.
    # Batches of 16 examples: the steps are the updates done, not the examples.
    updates = [12, 14, 13, 14]
    lines = []
    for k, u in enumerate(updates):
        done = sum(updates[: k + 1])
        lines.append(
            f"[ time:{10.0 * (k + 1)}s total_exs:{16 * done} epochs:{round(16 * done / 10000, 2)} ] "
            f"{{'exs': {16 * u}, 'mean_loss': {9.5 - k}, 'gnorm': 120.0, 'updates': {u}, "
            f"'lr': {1.2e-05 * (k + 1):.3g}, 'total_train_updates': {done}}}"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [12, 26, 39, 53]
    second = row_at(parsed, 2)
    assert second["loss"] == 8.5 and second["lr"] == 2.4e-05


def test_the_steps_done_so_far_count_the_steps_above_a_table_of_the_report(write_log):
    # ParlAI's later TrainLoop.log (parlai/scripts/train_model.py): f"time:{...:.0f}s", f"total_exs:{...}",
    # f"total_steps:{self._train_steps}", f"epochs:{...:.2f}", f"time_left:{...:.0f}s" joined by spaces, then
    # "{}\n{}\n".format(line, nice_report(train_report)) through logging.info behind parlai/utils/logging.py's
    # "%(asctime)s | %(message)s" (datefmt "%H:%M:%S"); parlai/utils/misc.py nice_report renders the report as
    # a pandas table ("   " + df.to_string(...), keys sorted, index hidden; float_formatter keeps an int whole
    # and prints a float with 4 significant figures)
    updates = [12, 14, 13, 14]
    lines = []
    for k, u in enumerate(updates):
        done = sum(updates[: k + 1])
        lines.append(
            f"10:00:{10 * (k + 1):02d} | time:{10 * (k + 1)}s total_exs:{16 * done} total_steps:{done} "
            f"epochs:{16 * done / 10000:.2f} time_left:{900 - 10 * k}s"
        )
        report = {"exs": str(16 * u), "gnorm": "120", "loss": f"{9.5 - k:.4g}"}
        report |= {"lr": f"{1.2e-05 * (k + 1):.4g}", "total_train_updates": str(done), "ups": "1.2"}
        widths = {key: max(len(key), len(v)) for key, v in report.items()}
        lines.append("   " + "  ".join(f"{key:>{widths[key]}}" for key in report))
        lines.append("   " + "  ".join(f"{v:>{widths[key]}}" for key, v in report.items()))
        lines.append("")
    log = write_log("\n".join(lines) + "\n")
    steps = api.parse(log)
    assert list(steps["step"]) == [12, 26, 39, 53]  # no row at the examples seen (192, 416, ...)
    assert list(steps["loss"]) == [9.5, 8.5, 7.5, 6.5]


def test_a_record_that_counts_its_own_steps_before_a_bar(write_log):
    # NVIDIA/DeepLearningExamples PyTorch/LanguageModeling/BERT run_squad.py: dllogger.log(step=(epoch, global_step),
    # data={"step_loss": ..., "learning_rate": ...}) through StdOutBackend with utils.py format_step ("Training
    # Epoch: {} " "Training Iteration: {} "), while tqdm(train_dataloader, desc="Iteration") redraws its bar
    # after it on the same line; the last line ends before the next redraw
    bar = "█" * 93 + " " * 97
    lines = [
        f"DLL 2022-04-05 05:17:{50 + 6 * k}.692194 - Training Epoch: 1 Training Iteration: {4072 + 50 * k}  "
        f"step_loss : {0.025 + k / 100}  learning_rate : {8.5e-06 - k * 3e-07}" + " " * 80
        for k in range(3)
    ]
    lines[0] += f"Iteration:  49%|{bar}| 1350/2771 [02:51<02:58,  7.97it/s]"
    lines[1] += f"Iteration:  51%|{bar}| 1400/2771 [02:58<02:51,  7.98it/s]"
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [4072, 4122, 4172]  # the bar counts the epoch's batches: no step, no row
    assert row_at(parsed, 2)["loss"] == 0.035


def test_a_counter_that_keeps_pace_with_its_bar(write_log):
    # BlinkDL/RWKV-LM RWKV-v4 src/trainer.py run_epoch: pbar.set_description(f"miniE {epoch+1+self.EPOCH_BEGIN} s
    # {self.steps} prog {progress*100.0:.2f}% : ppl {math.exp(self.avg_loss):.6f} loss {self.avg_loss:.6f} lr
    # {lr:e}") on a tqdm bar of 833 steps a mini-epoch: each finished bar left on its line
    bar = "█" * 10
    lines = [
        f"miniE {e} s {833 * e} prog {20.0 * e:.2f}% : ppl {math.exp(1.3 - e / 20):.6f} loss {1.3 - e / 20:.6f} "
        f"lr {1.4e-4 / e:e}: 100%|{bar}| 833/833 [03:17<00:00,  4.21it/s]"
        for e in (2, 3, 4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1666, 2499, 3332]  # `s` rises by the bar's 833 steps, the mini-epoch by one
    assert row_at(parsed, 1)["loss"] == 1.2


def test_a_bars_position_seen_at_two_places_is_the_counter(write_log):
    # rosinality/style-based-gan-pytorch train.py: pbar.set_description(f"Size: {4 * 2 ** step}; G: {gen_loss_val:.3f};
    # D: {disc_loss_val:.3f}; Grad: {grad_loss_val:.3f}; Alpha: {alpha:.5f}") on tqdm(range(3_000_000)): a short
    # excerpt whose bar is redrawn at one position when the description changes (github.com/rosinality/style-based-gan-pytorch/issues/73)
    lines = [
        f"Size: 512; G: 1.216; D: 1.170; Grad: 0.060; Alpha: {alpha}:   5%|▌         | {n}/3000000 "
        f"[55:52:{s}<2026:02:55,  2.57s/it]"
        for n, alpha, s in ((161250, "0.84739", 40), (161251, "0.84739", 40), (161251, "0.84744", 43))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [161250, 161251, 161251]
    assert list(parsed.rows["step_time_s"]) == [2.57, 2.57, 2.57]


def test_keys_under_an_evaluations_heading_within_the_line_are_that_evaluations(write_log):
    # mravanelli/pytorch-kaldi utils.py dump_epoch_results: 'ep=%s tr=%s loss=%s err=%s ', then per validation
    # set 'valid=%s loss=%s err=%s ', then 'lr_%s=%s ' per architecture and 'time(s)=%i' (its res.res file)
    kaldi = [
        f"ep={e:02d} tr=['TIMIT_tr'] loss={tr} err=0.731 valid=TIMIT_dev loss={va} err=0.506 "
        f"lr_architecture1=0.0016 time(s)={t}"
        for e, tr, va, t in (
            (0, "5.633", "2.810", 355),
            (1, "2.268", "2.105", 367),
            (2, "1.661", "1.956", 349),
        )
    ]
    parsed = frame(write_log("\n".join(kaldi) + "\n"))
    assert steps_of(parsed) == [0, 1, 2]
    assert list(parsed.rows["loss"]) == [5.633, 2.268, 1.661]
    assert list(parsed.rows["eval_loss"]) == [2.810, 2.105, 1.956]
    # a stage's heading with a colon, the training's first: its keys stay the line's own
    sectioned = [
        f"Epoch {e} Train: loss {2 - e / 10:.3f} acc 0.5 | Val: loss {3 - e / 10:.3f} acc 0.4"
        for e in range(4)
    ]
    parsed = frame(write_log("\n".join(sectioned) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert list(parsed.rows["loss"]) == [2.0, 1.9, 1.8, 1.7]
    assert list(parsed.rows["eval_loss"]) == [3.0, 2.9, 2.8, 2.7]


def test_a_score_a_best_models_save_quotes_is_an_evaluations_and_the_uncounted_loss_the_steps(write_log):
    # reczoo/FuxiCTR fuxictr/pytorch/models/base_model.py (v1.0): logging format '%(asctime)s P%(process)d
    # %(levelname)s %(message)s'; each epoch evaluates ('[Metrics] AUC: .. - logloss: ..'), saves the best model
    # ('Save best model: monitor(max): ..'), then logs the epoch's mean 'Train loss: {:.6f}'
    lines = ["2022-01-24 13:10:37,311 P834 INFO Start training: 8058 batches/epoch"]
    for e, (auc, logloss, train) in enumerate(
        (
            ("0.804410", "0.447085", "0.461620"),
            ("0.806814", "0.444616", "0.456468"),
            ("0.807506", "0.444031", "0.455156"),
        ),
        start=1,
    ):
        lines += [
            f"2022-01-24 13:{10 + e}:37,311 P834 INFO ************ Epoch={e} start ************",
            f"2022-01-24 13:{20 + e}:26,208 P834 INFO [Metrics] AUC: {auc} - logloss: {logloss}",
            f"2022-01-24 13:{20 + e}:26,209 P834 INFO Save best model: monitor(max): {auc}",
            f"2022-01-24 13:{20 + e}:26,519 P834 INFO --- 8058/8058 batches finished ---",
            f"2022-01-24 13:{20 + e}:26,561 P834 INFO Train loss: {train}",
            f"2022-01-24 13:{20 + e}:26,561 P834 INFO ************ Epoch={e} end ************",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["line"]) == [6, 12, 18] and list(rows["loss"]) == [0.461620, 0.456468, 0.455156]
    assert [e["line"] for e in evals(parsed)] == [3, 9, 15]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [4, 10, 16]


def test_a_step_line_printed_twice_after_an_evaluations_heading_is_the_step_and_its_other_split_an_evaluation(
    write_log,
):
    # chnsh/DCRNN_PyTorch model/pytorch/dcrnn_supervisor.py train(): 'epoch complete', 'evaluating now!', then
    # 'Epoch [{}/{}] ({}) train_mae: {:.4f}, val_mae: {:.4f}, lr: {:.6f}, {:.1f}s' and every tenth epoch the
    # same with test_mae; lib/utils.py get_logger's handler ('%(asctime)s - %(levelname)s - %(message)s') and,
    # in a notebook, the root logger's ('%(levelname)s:%(name)s:%(message)s') print each message twice
    def both(stamp: str, message: str) -> list[str]:
        return [
            f"2024-02-06 {stamp} - INFO - {message}",
            "",
            f"INFO:model.pytorch.dcrnn_supervisor:{message}",
            "",
        ]

    lines: list[str] = []
    for e, (train, val, lr) in enumerate(
        (
            ("1.9435", "2.9410", "0.010000"),
            ("1.9431", "2.9342", "0.010000"),
            ("1.9429", "2.9616", "0.000100"),
        ),
        start=67,
    ):
        lines += both(f"21:{e - 50}:39,647", "evaluating now!")
        lines += both(
            f"21:{e - 50}:55,995",
            f"Epoch [{e}/100] ({125 * e + 125}) train_mae: {train}, val_mae: {val}, lr: {lr}, 588.9s",
        )
        lines += both(f"21:{e - 49}:39,643", "epoch complete")
    lines += both(
        "21:28:55,730", "Epoch [69/100] (8750) train_mae: 1.9429, test_mae: 3.2499,  lr: 0.000100, 589.0s"
    )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["line"]) == [5, 17, 29]  # each message's first copy, its handler's, with its time
    assert list(rows["step"]) == [67, 68, 69] and list(rows["loss"]) == [1.9435, 1.9431, 1.9429]
    assert [(e["line"], e["step"]) for e in evals(parsed)] == [(37, 69)]


def test_of_an_iterations_counter_and_a_steps_that_both_rise_the_step_is_the_steps(write_log):
    # musyoku/chainer-gqn train.py: 'Iteration {} - loss: nll_per_pixel: {:.6f} mse: {:.6f} kld: {:.6f} - lr:
    # {:.4e} - pixel_variance: {:.6f} - step: {} - elapsed_time: {:.3f} min', a pass over the data, then the
    # optimizer's updates so far (5,500 a pass here: a log in github.com/musyoku/chainer-gqn/issues/9)
    gqn = [
        f"Iteration {k} - loss: nll_per_pixel: {1.2 - k / 1000:.6f} mse: 0.011103 kld: 0.147033 - lr: 5.0000e-04 - "
        f"pixel_variance: 1.256400 - step: {5500 * k} - elapsed_time: 20.140 min"
        for k in (26, 27, 28, 29)
    ]
    parsed = frame(write_log("\n".join(gqn) + "\n"))
    assert steps_of(parsed) == [143000, 148500, 154000, 159500]
    # micro-batches counted beside the optimizer's steps (litgpt's layout, read where its set is taken away)
    micro = [f"iter {4 * k} step {k}: loss {3 - k / 100:.4f}, iter time: 210.55ms" for k in (25, 26, 27, 28)]
    parsed = frame(write_log("\n".join(micro) + "\n", "micro.log"), without="litgpt")
    assert steps_of(parsed) == [25, 26, 27, 28]


def test_a_line_that_says_the_evaluation_is_over_heads_nothing_after_it(write_log):
    # YuanGongND/ast src/traintest.py: print('start validation'), the scores a line each, print('validation
    # finished'), then the epoch's own lines (f'Epoch-{epoch} lr: ...', its time) before the next epoch's steps
    steps = [
        f"Epoch: [1][{i}/1733]\tPer Sample Total Time 0.05985\tPer Sample Data Time 0.00030\tTrain Loss {0.15 - i / 1e5:.4f}\t"
        for i in (1300, 1400, 1500, 1600, 1700)
    ]
    tail = [
        "start validation",
        "mAP: 0.016595",
        "AUC: 0.673112",
        "train_loss: 0.113706",
        "valid_loss: 0.695976",
    ]
    tail += ["validation finished", "Epoch-1 lr: 5e-05", "epoch 1 training time: 1733.618"]
    parsed = frame(write_log("\n".join(steps + tail) + "\n"))
    assert steps_of(parsed) == [1300, 1400, 1500, 1600, 1700]
    assert [e["line"] for e in evals(parsed)] == [7]  # the scores under `start validation`, one evaluation


def test_a_score_keyed_before_a_bracket_that_says_when_it_was_measured_is_an_evaluation(write_log):
    # POSTECH-CVLab/PyTorch-StudioGAN src/worker.py: logger.info(f"Step: {step:>6} Progress: ...") every 100 steps,
    # and at each evaluation "FID score (Step: {step}, Using {type} moments): {fid}" (its committed AFHQ log)
    lines = [
        f"[INFO] 2021-10-24 04:{30 + k}:13 > Step: {1800 + 100 * k:>6} Progress: 0.5% Elapsed: 0:3{k}:57 "
        f"Gen_loss: 3.69{k} Dis_loss: 1.302 "
        for k in range(3)
    ]
    lines += [
        "[INFO] 2021-10-24 04:34:16 > Start Evaluation (2000 Step): StyleGAN2-D2DCE-ADA-train-2021_10_24_03_59_32",
        "[INFO] 2021-10-24 04:36:50 > FID score (Step: 2000, Using train moments): 324.5602013843763",
        "[INFO] 2021-10-24 04:38:51 > Step:   2100 Progress: 0.5% Elapsed: 0:38:35 Gen_loss: 3.838 Dis_loss: 1.644 ",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1800, 1900, 2000, 2100]
    assert [(e["line"], e["step"]) for e in evals(parsed)] == [(5, 2000)]


def test_saving_alone_before_an_ellipsis_is_a_checkpoints_save(write_log):
    # kuangliu/pytorch-cifar main.py test(): print('Saving..') before torch.save(state, './checkpoint/ckpt.pth');
    # yl4579/PL-BERT train.py prints the same before its save every save_interval steps
    lines = ["Saving.."]
    for k in range(1, 7):
        lines.append(f"Step [{40000 + 100 * k}/1000000], Loss: {1.5 - k / 100:.5f}, Vocab Loss: 0.40791")
        if k == 4:
            lines.append("Saving..")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [1, 6]
    assert steps_of(parsed) == [40100, 40200, 40300, 40400, 40500, 40600]


def test_keys_in_square_brackets_before_their_colon(write_log):
    # liuslnlp/CoupletAI main.py: logger.info(f"[epoch]: {epoch}, [batch]: {step}, [loss]: {loss.item()}") behind
    # logging's '%(asctime)s - %(name)s - %(levelname)s - %(message)s'
    lines = [
        f"2019-08-07 02:59:{37 + k},013 - __main__ - INFO - [epoch]: 199, [batch]: {23900 + 100 * k}, [loss]: {loss}"
        for k, loss in enumerate(("4.994150638580322", "4.850643634796143", "4.9123"))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [23900, 24000, 24100]
    assert list(parsed.rows["loss"]) == [4.994150638580322, 4.850643634796143, 4.9123]
    # its name padded to a width inside the brackets (hkchengrex/CascadePSP's logger: `[{:<19}]: {:.7f}`, a key a line)
    padded = [f"It {1450 + 50 * k:8d} [TRAIN] [total_loss         ]: {0.5 - k / 100:.7f}" for k in range(3)]
    parsed = frame(write_log("\n".join(padded) + "\n", "padded.log"))
    assert steps_of(parsed) == [1450, 1500, 1550]
    assert list(parsed.rows["loss"]) == [0.5, 0.49, 0.48]


def test_a_total_before_the_terms_it_sums_on_a_steps_second_line_is_the_loss(write_log):
    # alexjc/neural-enhance enhance.py: print('\nEpoch #{} at {:4.1f}s, lr={:4.2e}'...), then
    # print('  - generator {}'.format(' '.join(...'{}={:4.2e}'...))) of its total, perceptual and smoothness losses
    rows = ((1, "209.2", "8.44e+04", "8.41e+04", "3.07e+02"), (2, "417.4", "6.26e+04", "6.14e+04", "1.16e+03"),
            (3, "625.8", "4.69e+04", "4.52e+04", "1.74e+03"))  # fmt: skip
    lines = []
    for epoch, at, total, prcpt, smthn in rows:
        lines += [
            f"Epoch #{epoch} at {at}s, lr=1.00e-04",
            f"  - generator total={total} prcpt={prcpt} smthn={smthn}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    assert list(parsed.rows["loss"]) == [8.44e04, 6.26e04, 4.69e04]
    # a total printed first, before its terms, is the objective even where it is no plain sum of them (a
    # physics-informed loop weights its residual, boundary and data terms)
    weighted = [
        f"Epoch {k} | Total: {90 - k:.3f} | Residual: {2.7e5 + k:.1f} | BC: 89.16 | Data: 1.07"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(weighted) + "\n", "weighted.log"))
    assert list(parsed.rows["loss"]) == [90.0, 89.0, 88.0, 87.0]


def test_checkpointing_the_model_is_a_save_and_gradient_checkpointing_is_none(write_log):
    # baidu-research/ba-dls-deepspeech utils.py save_model: logger.info("Checkpointing model to: {}".format(...))
    lines = ["2017-08-14 17:40:00,000 INFO    (__main__) Using gradient checkpointing to save memory"]
    for k in range(4):
        lines.append(
            f"2017-08-14 17:4{k}:18,105 INFO    (__main__) Epoch: 6, Iteration: {10 * k}, Loss: {79 - k:.4f}"
        )
    lines.append("2017-08-14 17:44:25,415 INFO    (utils) Checkpointing model to: ./model/")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [6]


def test_a_metric_a_line_at_one_step_joins_that_steps_row(write_log):
    # pminervini/KGReasoning main.py log_metrics: logging.info('%s %s at step %d: %f' % (mode, metric, step,
    # metrics[metric])) for each metric of the step, a line each
    lines = []
    for step, loss in ((0, "19.225096"), (1900, "18.688958"), (3800, "17.9")):
        for metric in ("positive_sample_loss", "negative_sample_loss", "loss"):
            lines.append(f"2021-12-29 12:36:19 INFO     Training average {metric} at step {step}: {loss}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1900, 3800]
    assert list(parsed.rows["loss"]) == [19.225096, 18.688958, 17.9]


DESCRIBED_BARS = {
    # BeyonderXX/TRACE model/base_model.py L92-93: description = f"Epoch {epoch+1}, Step {step}, Loss:
    # {loss.item():.4f}"; progress_bar.set_description(description, refresh=False) after progress_bar.update(1) on
    # a bar of every epoch's micro-batches: a step's description shows from the next redraw, at position step + 2
    "trace": lambda step, rate: (
        f"Epoch 1, Step {step}, Loss: {2 - step / 8:.4f}:   {step + 2}%|#         | {step + 2}/100 "
        f"[00:{step:02d}<01:40,  {rate}]"
    ),
    # microsoft/CodeXGLUE Text-Code/NL-code-search-WebQuery/code/run_classifier.py L132 and L167: bar =
    # tqdm(enumerate(train_dataloader)), no total; bar.set_description("epoch {} step {} loss {}".format(idx,
    # step+1, avg_loss)): the redraw after the body shows position step + 1, the step the description prints
    "codexglue": lambda step, rate: (
        f"epoch 0 step {step} loss {2 - step / 8}: {step}it [00:{step:02d}, {rate}]"
    ),
}


@pytest.mark.parametrize("project", sorted(DESCRIBED_BARS))
def test_a_bar_whose_description_counts_its_steps_times_them(write_log, project):
    # the counter is the description's; the bar's position keeps a constant distance from it, so the bar counts
    # the same steps and its rate (tqdm's smoothed seconds per item, or items per second) is the step's time
    rates = {1: "1.25s/it", 2: "1.60s/it", 3: "2.00it/s", 4: "1.25s/it", 5: "4.00it/s", 6: "1.60s/it"}
    parsed = frame(write_log("\n".join(DESCRIBED_BARS[project](s, r) for s, r in rates.items()) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == [1, 2, 3, 4, 5, 6]
    expected = {1: 1.25, 2: 1.6, 3: 0.5, 4: 1.25, 5: 0.25, 6: 1.6}
    for line, seconds in expected.items():
        assert row_at(parsed, line)["step_time_s"] == pytest.approx(seconds)
        assert row_at(parsed, line)["loss"] == 2 - line / 8


def test_a_run_wide_counter_after_the_position_within_the_epoch(write_log):
    # open-mmlab/OpenPCDet tools/train_utils/train_utils.py at e602fac (timm-style logging), train_one_epoch:
    # scaler.step(optimizer) (line 61), accumulated_iter += 1 (64), then logger.info('Train: {:>4d}/{} ({:>3.0f}%)
    # [{:>4d}/{} ({:>3.0f}%)]  Loss: {loss.val:#.4g} ({loss.avg:#.3g})  LR: {lr:.3e}  ... Acc_iter {acc_iter:<10d}
    # ...'.format(cur_epoch+1, total_epochs, ..., cur_it, total_it_each_epoch, ..., acc_iter=accumulated_iter))
    # when accumulated_iter % 50 == 0, at the epoch's first and at its last batch: the batch index cur_it is printed
    # after its optimizer step, so the line completes step epoch x 100 + cur_it + 1, which Acc_iter states
    def line(epoch: int, it: int) -> str:
        acc = epoch * 100 + it + 1
        return (
            f"2023-01-05 16:34:37,748   INFO  Train: {epoch + 1:>4d}/3 ({100 * (epoch + 1) / 3:>3.0f}%) "
            f"[{it:>4d}/100 ({it:>3.0f}%)]  Loss: {30 - acc / 10:#.4g} (45.1)  LR: 1.000e-04  "
            f"Time cost: 00:04/21:46 [00:04/1:05:18]  Acc_iter {acc:<10d}  Data time: 0.87(0.87)  "
            "Forward time: 3.18(3.18)  Batch time: 4.04(4.04)"
        )

    log = write_log("\n".join(line(e, it) for e in (0, 1) for it in (0, 49, 99)) + "\n")
    assert steps_of(frame(log)) == [1, 50, 100, 101, 150, 200]
    assert list(api.parse(log)["step"]) == [1, 50, 100, 101, 150, 200]


def test_a_key_that_names_a_rate_of_steps_is_no_counter(write_log):
    # rl_games rl_games/common/a2c_common.py print_statistics (Denys88/rl_games): f'fps step: {fps_step:.0f} fps
    # step and policy inference: {fps_step_inference:.0f} fps total: {fps_total:.0f} epoch: {epoch_num:.0f}/
    # {max_epochs:.0f} frames: {frame:.0f}', once per PPO epoch (the trainer's iteration); fps step is the frames
    # per second of the stepping phase, however it moves
    fps = [(261574, 230705, 181660), (266194, 232788, 185195), (288666, 253068, 197888)]
    lines = [
        f"fps step: {a} fps step and policy inference: {b} fps total: {c} epoch: {376 + k}/500 "
        f"frames: {24576000 + 65536 * k}"
        for k, (a, b, c) in enumerate(fps)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [376, 377, 378]
    assert row_at(parsed, 1)["progress_total"] == 500


@pytest.mark.parametrize(
    ("lines", "total"),
    [
        # zhenhao-huang/CPM-1-Finetune-Text-Generation finetune_text_generation.py: "Epoch {}, global step {}, total
        # step {}, train lm loss: {}".format(e, global_step, epoch * len(train_dataloader), ...)
        (
            [
                f"Epoch 3, global step {s}, total step 2000, train lm loss: {9 - s / 100}"
                for s in (10, 20, 30)
            ],
            2000,
        ),
        # hiyouga/LLaMA-Factory src/llamafactory/train/callbacks.py LogCallback.on_log: dict(current_steps=...,
        # total_steps=self.max_steps, loss=..., ...) written as one JSON object a line (trainer_log.jsonl)
        (
            [
                f'{{"current_steps": {s}, "total_steps": 1500, "loss": {9 - s / 100}, "learning_rate": 1e-05, '
                f'"epoch": 0.0{s // 10}, "percentage": 0.{s // 10}}}'
                for s in (10, 20, 30)
            ],
            1500,
        ),
        # a TensorFlow loop's print("step {} of {},train loss {}".format(i+1, training_steps, t_loss))
        ([f"step {s} of 700,train loss {9 - s / 100}" for s in (10, 20, 30)], 700),
    ],
)
def test_the_planned_total_after_a_word_of_its_own(write_log, lines, total):
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30]
    assert set(parsed.rows["progress_total"]) == {total}
    assert row_at(parsed, 2)["loss"] == 8.8
    assert not [c for c in parsed.rows.columns if "total" in c and c.startswith("x_")]


def test_a_bracketed_integer_that_opens_a_line_of_slash_separated_pairs_counts_the_steps(write_log):
    # danijar/dreamer dreamer.py Dreamer._write_summaries: print(f'[{step}]', ' / '.join(f'{k} {v:.1f}' for k, v in
    # metrics)); the first write has no fps yet (a record seen once beside one seen twice)
    keys = "expl_amount {a} / model_grad_norm 40.3 / image_loss {b} / model_loss {c} / actor_loss -6.9"
    lines = [
        "Training for 100 steps.",
        "[5000] " + keys.format(a=0.0, b=11650.7, c=5864.5),
        "Train episode of length 1000 with return 13.9.",
        "[6000] " + keys.format(a=0.3, b=304.1, c=152.0) + " / fps 1.0",
        "Train episode of length 1000 with return 19.1.",
        "[7000] " + keys.format(a=0.3, b=296.5, c=148.5) + " / fps 9.3",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5000, 6000, 7000]
    assert row_at(parsed, 4)["x_model_loss"] == 152.0 and row_at(parsed, 6)["x_image_loss"] == 296.5

    # danijar/dreamerv2 dreamerv2/common/logger.py TerminalOutput: print(f'[{step}]', ' / '.join(f'{k} {v}' ...))
    # with _format_value's '.2f' stripped of its zeros, or '.1e' without '.0' and '+0' (4.3e3)
    lines = [
        f"[{s}] kl_loss 1.2{s // 1000} / image_loss 4.{s // 1000}e3 / model_loss 5.4e3 / actor_loss -0.5 / fps 21.5"
        for s in (1000, 2000, 3000, 4000)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n", name="v2.log"))
    assert steps_of(parsed) == [1000, 2000, 3000, 4000]
    assert row_at(parsed, 2)["x_image_loss"] == 4200.0


def test_a_bracketed_counter_and_its_total_opening_a_line_seen_twice_counts_the_steps(write_log):
    # clovaai/deep-text-recognition-benchmark train.py (and EasyOCR's trainer/train.py, its copy), at each
    # validation: f'[{iteration+1}/{opt.num_iter}] Train loss: {loss_avg.val():0.5f}, Valid loss: {valid_loss:0.5f},
    # Elapsed_time: {elapsed_time:0.5f}', then f'{"Current_accuracy":17s}: {current_accuracy:0.3f},
    # {"Current_norm_ED":17s}: {current_norm_ED:0.2f}', the best's line, and a table of predictions under a dashed
    # rule (f'{"Ground Truth":25s} | {"Prediction":25s} | Confidence Score & T/F'); a run's log shows few of them
    lines = []
    for it, train, valid, elapsed, acc in (
        (2000, 0.5, 0.25, 120.5, 62.5),
        (4000, 0.375, 0.125, 245.25, 75.0),
    ):
        lines += [
            f"[{it}/300000] Train loss: {train:0.5f}, Valid loss: {valid:0.5f}, Elapsed_time: {elapsed:0.5f}",
            f"\t{'Current_accuracy':17s}: {acc:0.3f}, {'Current_norm_ED':17s}: 0.{int(acc)}",
            f"\t{'Best_accuracy':17s}: {acc:0.3f}, {'Best_norm_ED':17s}: 0.{int(acc)}",
            "\t" + "-" * 80,
            f"\t{'Ground Truth':25s} | {'Prediction':25s} | Confidence Score & T/F",
            "\t" + "-" * 80,
            f"\t{'12 Main St':25s} | {'12 Main St':25s} | 0.8125\tTrue",
            f"\t{'049481':25s} | {'049487':25s} | 0.5000\tFalse",
            "\t" + "-" * 80,
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == [2000, 4000]  # the accuracy lines and the predictions' rows are none
    first, second = row_at(parsed, 1), row_at(parsed, 10)
    assert first["loss"] == 0.5 and second["loss"] == 0.375
    assert first["eval_loss"] == 0.25 and second["eval_loss"] == 0.125  # the validation's, on the step's row
    assert first["progress_total"] == 300000

    # an epoch loop that prints its epoch and their number every 50 epochs (print(f'[{epoch + 1}/{epochs}] loss:
    # {running_loss / len(train_loader):.5f}'), a few lines in a short run
    lines = [f"[{e}/150] loss: {loss:.5f}" for e, loss in ((50, 0.75), (100, 0.5))]
    parsed = frame(write_log("\n".join(lines) + "\n", name="epochs.log"))
    assert steps_of(parsed) == [50, 100]
    assert list(parsed.rows["loss"]) == [0.75, 0.5]


def test_a_count_of_samples_that_is_a_whole_multiple_of_the_iterations_is_no_step(write_log):
    # MuggleWang/CosFace_pytorch main.py train(): print_with_time('Train Epoch: {} [{}/{} ({:.0f}%)]{}, Loss: {:.6f},
    # Elapsed time: {:.4f}s({} iters)'.format(epoch, batch_idx * len(data), len(train_loader.dataset), ...,
    # iteration, ...) + ' Margin: {:.4f}, Scale: {:.2f}': the samples seen, then the
    # iteration glued after the bracket; batch 512
    lines = [
        f"2019-09-19 14:{39 + i:02d}:57 Train Epoch: 1 [{512 * 100 * i}/490871 ({100 * 512 * 100 * i // 490871}%)]"
        f"{100 * i}, Loss: {25 - i / 2:.6f}, Elapsed time: 19{i}.5000s(100 iters) Margin: 0.4000, Scale: 30.00"
        for i in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert row_at(parsed, 2)["loss"] == 24.0
    assert 490871 not in set(parsed.rows.get("progress_total", pd.Series(dtype=float)))  # the data set's size
    # a project's variant of it with two losses: 'Train Epoch: {} [{}/{} ({:.0f}%)]{},
    # Loss_cls: {:.6f}, Loss_expdist: {:.6f}, Elapsed time: {:.4f}s({} iters)' + ' Margin: ..., Scale: ...'; a run
    # seen on one line alone: the count of samples is a whole multiple of the iteration beside it
    one = (
        "Train Epoch: 2 [153600/600000 (26%)]300, Loss_cls: 2.500000, Loss_expdist: 0.100000, Elapsed time: "
        "9.5000s(50 iters) Margin: 0.3500, Scale: 64.00"
    )
    assert steps_of(frame(write_log(one + "\n", name="one.log"))) == [300]


def test_a_counter_printed_in_thousands(write_log):
    # CorentinJ/Real-Time-Voice-Cloning vocoder/train.py: k = step // 1000, then f"| Epoch: {epoch}
    # ({i}/{len(data_loader)}) | " f"Loss: {avg_loss:.4f} | {speed:.1f} " f"steps/s | Step: {k}k | "; here 1158
    # batches an epoch, the line at each epoch's last batch
    lines = [
        f"| Epoch: {e} (1158/1158) | Loss: {4.5 - e / 10:.4f} | 1.4 steps/s | Step: {e * 1158 // 1000}k | "
        for e in (1, 2, 3, 4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000, 4000]  # 1158, 2316, 3474, 4632 printed in thousands
    assert row_at(parsed, 3)["loss"] == 4.2


def test_a_position_printed_once_an_epoch_holds_still_as_its_epoch_rises(write_log):
    # MindSpore mindspore/python/mindspore/train/callback/_loss_monitor.py LossMonitor.step_end: cur_step_in_epoch
    # = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1; print("epoch: %s step: %s, loss is %s" %
    # (cb_params.cur_epoch_num, cur_step_in_epoch, loss)); in sink mode it runs once an epoch, at its last batch
    # (5004 here); epochs count from 1
    losses = [4.8995576, 3.9235563, 3.833077, 3.2795618]
    lines = [f"epoch: {e} step: 5004, loss is {loss}" for e, loss in enumerate(losses, 1)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5004] * 4
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["epoch_index"]) == [0, 1, 2, 3] and list(rows["loss"]) == losses
    # the steps since the run began: cb_params.cur_step_num, (epoch - 1) x 5004 + 5004
    assert list(api.parse(write_log("\n".join(lines) + "\n"))["step"]) == [5004, 10008, 15012, 20016]


# pytorch/examples imagenet's meters in two projects of their own, one format: 'Epoch: [{0}][{1}/{2}]\tTime
# {batch_time.val:.3f} ({batch_time.avg:.3f})\tData ... ({data_time.avg:.3f})\tLoss {loss.val:.4f} ({loss.avg:.4f})';
# AlfredXiangWu/LightCNN train.py prints epoch (for epoch in range(args.start_epoch, args.epochs)) and i (enumerate,
# when i % print_freq == 0): its batch 0 shows both count from 0; SeanNaren/deepspeech.pytorch train.py prints
# epoch + 1 and i + 1, and a run's middle shows nothing of it
@pytest.mark.parametrize(
    ("printed", "positions", "epoch_index"),
    [(5, (0, 100, 200, 300), 5), (11, (2, 3, 4, 5), 10)],
    ids=["lightcnn_from_zero", "deepspeech_from_one"],
)
def test_an_epoch_out_of_its_runs_start_counts_as_its_position_shows(
    write_log, printed, positions, epoch_index
):
    lines = [
        f"Epoch: [{printed}][{i}/3907]\tTime 0.182 (0.186)\tData 0.000 (0.005)\tLoss {6.5 - i / 1000:.4f} (6.3176)"
        for i in positions
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(positions)
    assert row_at(parsed, 1)["epoch_index"] == epoch_index


def test_a_stamps_year_before_a_named_position_is_no_epoch(write_log):
    # ST-GCN's processor as 2s-AGCN's main.py keeps it: print_log prefixes "[ " + time.asctime(...) + ' ] ', and
    # train() prints '\tBatch({}/{}) done. Loss: {:.4f}  lr:{:.6f}'.format(batch_idx, len(loader), loss, lr): the
    # year ends the stamp just before the batch's bracket
    lines = [
        f"[ Wed Jun  6 16:{m:02d}:16 2018 ] \tBatch({b}/1879) done. Loss: {6.3 - b / 1000:.4f}  lr:0.100000"
        for m, b in ((1, 0), (2, 100), (4, 200), (5, 300))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300]
    first = row_at(parsed, 1)
    assert first["progress_total"] == 1879 and first["loss"] == 6.3
    assert "epoch_index" not in parsed.rows or pd.isna(first["epoch_index"])


def test_an_iteration_counter_beats_the_samples_seen_in_the_epoch(write_log):
    # xuebinqin/U-2-Net u2net_train.py (as BASNet's basnet_train.py): print("[epoch: %3d/%3d, batch: %5d/%5d, ite: %d]
    # train loss: %3f, tar: %3f " % (epoch + 1, epoch_num, (i + 1) * batch_size_train, train_num, ite_num, ...)):
    # `batch` counts the epoch's samples (12 a batch here), `ite` the run's iterations; the loss function prints its
    # side outputs' losses ("l0: %3f, l1: ...") before each record, and a blank line follows both
    lines = []
    for k in range(4):
        lines += [f"l0: 0.19{k}295, l1: 0.192301, l2: 0.197890", ""]
        lines += [
            f"[epoch:   2/100000, batch: {8268 + 12 * k:5d}/13617, ite: {1824 + k}] "
            f"train loss: {1.519413 + k / 1000:3f}, tar: 0.169732 ",
            "",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1824, 1825, 1826, 1827]
    assert row_at(parsed, 3)["loss"] == 1.519413
    assert row_at(parsed, 15)["loss"] == 1.522413


def test_a_model_summary_tree_indexes_layers_not_steps(write_log):
    # torchinfo's summary (torchinfo/layer_info.py: each row `{tree prefix}{class name}: {depth}-{depth_index}`,
    # then the output shape and `{params:,}`) before the trainer's lines (yeyupiaoling/VoiceprintRecognition-Pytorch
    # mvector/trainer.py: f'Train epoch: [{epoch_id}/{self.configs.train_conf.max_epoch}], batch: [{batch_id}/
    # {len(self.train_loader)}], loss: {loss:.5f}, ...'): the `3-1`, `3-2` ... under the branches rise too
    rule = "=" * 79
    lines = [rule, "Layer (type:depth-idx)                        Output Shape              Param #", rule]
    lines.append("Sequential                                    [1, 9726]                 --")
    for parent in range(1, 4):
        lines.append(f"│    └─Sequential: 2-{parent}                        [1, 512, 98]              --")
        for k in range(1, 4):
            lines.append(
                f"│    │    └─Conv1dReluBn: 3-{3 * (parent - 1) + k}             [1, 512, 98]              263,168"
            )
    lines += [rule, "Total params: 8,012,992", rule]
    lines += [
        f"Train epoch: [1/30], batch: [{b}/13659], loss: {11.5 - b / 100:.5f}, learning rate: 0.00100000"
        for b in (0, 100, 200, 300)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300]
    assert row_at(parsed, len(lines))["loss"] == 8.5


def test_a_status_table_whose_rows_open_with_text_cells_reads_each_number_under_its_name(write_log):
    # Ray Tune's trial status table (ray/tune/experimental/output.py, as RLlib's Tuner prints it every 30 s): a
    # boxed header of names, some of several words (`total time (s)`) or cut (`...lls_per_iteration`), over rows that
    # open with two text cells (the trial's name, its status); the numbers stand under `iter` and the others
    table = []
    for minute, (it, total, sampled) in enumerate(
        [(45, 18.5225, 11520), (107, 47.8252, 27392), (178, 76.803, 45568)]
    ):
        table += [
            "Trial status: 1 RUNNING",
            f"Current time: 2026-12-07 14:4{3 + minute}:45. Total running time: {30 * (minute + 1)}s",
            "Logical resource usage: 2.0/2 CPUs, 0/0 GPUs",
            "╭" + "─" * 106 + "╮",
            "│ Trial name                    status       iter     total time (s)     ...lls_per_iteration     "
            "..._sampled_lifetime │",
            "├" + "─" * 106 + "┤",
            f"│ PPO_CartPole-v1_88b9e_00000   RUNNING      {it:>4}     {total:>14}     {1:>20}     {sampled:>20} │",
            "╰" + "─" * 106 + "╯",
        ]
    parsed = frame(write_log("\n".join(table) + "\n"))
    assert steps_of(parsed) == [45, 107, 178]
    assert [row_at(parsed, n)["train_elapsed_s"] for n in (7, 15, 23)] == [18.5225, 47.8252, 76.803]


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


@pytest.mark.parametrize(
    "wrap",
    [
        # huggingface/peft examples/causal_language_modeling/peft_prompt_tuning_clm.ipynb: f"{epoch=}: {train_ppl=}
        # {train_epoch_loss=} ..." of torch tensors on a GPU, each printed as its repr
        "tensor({}, device='cuda:0')",
        # NumPy 2 scalars in a printed dict's repr (NEP 51): np.float32(0.25)
        "np.float32({})",
        # decimal.Decimal's repr, quoted digits
        "Decimal('{}')",
        # a JAX array's repr: Array(0.25, dtype=float32)
        "Array({}, dtype=float32)",
    ],
)
def test_a_value_printed_as_its_types_repr_is_its_keys(write_log, wrap):
    lines = []
    for e in range(4):
        ppl, loss, eval_loss = 900.5 - e, 6.8 - e / 4, 6.9 - e / 5
        lines.append(
            f"epoch={e}: train_ppl={wrap.format(ppl)} train_epoch_loss={wrap.format(loss)} "
            f"eval_epoch_loss={wrap.format(eval_loss)}"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    row = row_at(parsed, 3)
    assert row["loss"] == 6.3 and row["eval_loss"] == 6.5
    assert not any(c in parsed.rows.columns for c in ("x_tensor", "x_cuda", "x_dtype", "x_np_float32"))


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


def test_keys_of_dash_joined_words_and_an_auxiliary_loss(write_log):
    # mlc-ai/pith-train pithtrain/tasks/pretrain_lm.py: "step %08d/%08d | step-time %.3f sec | cross-entropy-loss %.4f
    # | load-balance-loss %.6f | learning-rate %.6e | gradient-norm %.4f | tokens-per-second {:,} | peak-gpu-memory
    # %.2f GB" (memory: max_memory_allocated() / 1024**3): the cross-entropy is the loss, the load-balancing term
    # added to it is kept; the device word of the memory key names where it is measured
    lines = [
        f"2026-04-01 14:0{s}:00 | INFO | step {s:08d}/00000020 | step-time 2{s}.500 sec | cross-entropy-loss "
        f"{3 - s / 10:.4f} | load-balance-loss 0.00{s}500 | learning-rate 2.000000e-0{s} | gradient-norm 1{s}.2500 | "
        f"tokens-per-second 7{s},000 | peak-gpu-memory 6{s}.25 GB"
        for s in range(1, 4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    second = row_at(parsed, 2)
    assert second["loss"] == 2.8 and second["x_load_balance_loss"] == 0.0025
    assert second["lr"] == 2e-2 and second["grad_norm"] == 12.25 and second["step_time_s"] == 22.5
    assert second["tokens_per_s"] == 72000 and second["memory_gib"] == 62.25
    assert second["progress_total"] == 20


def test_a_number_glued_to_a_key_by_an_at_sign_is_part_of_its_name(write_log):
    # mit-han-lab/temporal-shift-module main.py train(), as pytorch/examples' imagenet printed it before Acc@1:
    # 'Epoch: [{0}][{1}/{2}], lr: {lr:.5f}\t' 'Time {batch_time.val:.3f} ({batch_time.avg:.3f})\t' 'Data ...\t'
    # 'Loss {loss.val:.4f} ({loss.avg:.4f})\t' 'Prec@1 {top1.val:.3f} ({top1.avg:.3f})\t' 'Prec@5 ...'
    lines = [
        f"Epoch: [3][{i:>3}/500], lr: 0.01000\tTime 0.{i + 300:03d} (0.350)\tData 0.010 (0.012)\tLoss "
        f"{2 - i / 1000:.4f} (1.9000)\tPrec@1 {50 + i / 10:.3f} (55.000)\tPrec@5 {80 + i / 10:.3f} (85.000)"
        for i in (20, 40, 60, 80)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    second = row_at(parsed, 2)
    assert second["step_time_s"] == 0.34 and second["loss"] == 1.96
    assert 54.0 in second.values() and 84.0 in second.values()  # Prec@1 and Prec@5, each its own value
    assert 1.0 not in second.values() and 5.0 not in second.values()


def test_keys_with_a_number_after_an_at_sign_in_a_record_of_one_key_a_line(write_log):
    # a W&B run's values pasted as text (FranxYao/Long-Context-Data-Engineering#13): 'step N token Xm ' opens the
    # record, one 'key value ' line per metric follows, the per-length losses keyed loss@<length>
    block = []
    for step, loss in ((1, 5.5), (50, 2.25), (100, 2.125)):
        block += [f"step {step} token {step * 5}m ", f"train/loss {loss:.4f} ", "train/grad_norm 12.5000 "]
        block += [f"train/per_length_loss/loss@{2**k} {loss + k / 8:.4f} " for k in range(1, 7)]
        block.append("")
    parsed = frame(write_log("\n".join(block) + "\n"))
    assert steps_of(parsed) == [1, 50, 100]
    second = row_at(parsed, 11)  # the record of step 50 opens on line 11
    assert second["loss"] == 2.25 and second["grad_norm"] == 12.5


@pytest.mark.parametrize(
    ("lines", "steps"),
    [
        # the TensorFlow tutorials' notMNIST loops (Udacity's deep learning assignments and their many copies):
        # print("Minibatch loss at step %d: %f" % (step, l)); print("Minibatch accuracy: %.1f%%" % ...)
        (
            [
                line
                for s in (0, 500, 1000)
                for line in (
                    f"Minibatch loss at step {s}: {3 - s / 1000:.6f}",
                    f"Minibatch accuracy: {s / 20:.1f}%",
                )
            ],
            [0, 500, 1000],
        ),
        # hualin95/Deeplab-v3plus tools/train_voc.py: self.logger.info("The train loss of epoch{}-batch-{}:{}"
        # .format(self.current_epoch, batch_idx, cur_loss)) behind '%(asctime)s - %(name)s - %(levelname)s - '
        (
            [
                f"2018-12-12 10:{10 + i:02d}:30,239 - root - INFO - The train loss of epoch3-batch-{i * 50}:"
                f"{3 - i / 2}"
                for i in range(3)
            ],
            [0, 50, 100],
        ),
        # a loop's print('The train loss of epoch %d is : %f' % (epoch, learning_curve[epoch]))
        ([f"The train loss of epoch {e} is : {3 - e / 2:.6f}" for e in (0, 1, 2)], [0, 1, 2]),
    ],
)
def test_a_value_named_by_the_words_before_its_counter(write_log, lines, steps):
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == steps
    assert list(parsed.rows["loss"]) == [3.0, 2.5, 2.0]


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


@pytest.mark.parametrize(
    "layout",
    [
        # PaddlePaddle/Parakeet examples/waveflow/train.py train_batch: start = time.time(); batch =
        # self.read_batch(); data_loader_time = time.time() - start; ... iteration_time = time.time() - start;
        # msg = "Rank: {}, ".format(rank) + "step: {}, ".format(self.iteration) + "time: {:>.3f}s/{:>.3f}s,
        # ".format(data_loader_time, iteration_time) + "loss: {:>.6f}".format(loss_value)
        "Rank: 0, step: {step}, time: {data:.3f}s/{whole:.3f}s, loss: {loss:.6f}",
        # its examples/transformer_tts/train.py: the same times, then ', '.join('{}: {:>.6f}'.format(k, v) for k, v
        # in losses_np.items())
        "Rank: 0, step: {step}, time: {data:.3f}s/{whole:.3f}s, loss: {loss:.6f}, mel_l1_loss: 0.{step}00000",
    ],
    ids=["waveflow", "transformer_tts"],
)
def test_a_part_then_the_whole_of_a_time_under_one_key_gives_the_step_the_whole(write_log, layout):
    wholes, losses = [2.105, 2.099, 2.103, 0.948], [-4.310512, -3.645384, -3.686285, -4.348854]
    lines = [
        layout.format(step=step, data=data, whole=whole, loss=loss)
        for step, data, whole, loss in zip(
            (3599, 3600, 3601, 3602), (0.0, 0.001, 0.0, 0.512), wholes, losses, strict=True
        )
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [3599, 3600, 3601, 3602]
    assert list(parsed.rows["step_time_s"]) == wholes  # the iteration's time, not the data loader's wait
    assert list(parsed.rows["loss"]) == losses


def test_a_time_printed_with_its_unit_and_no_key_is_the_steps_time(write_log):
    # karpathy/llm.c train_gpt2.py:842: f"step {step+1:4d}/{args.num_iterations} | train loss {lossf:.6f} | norm
    # {norm:.4f} | lr {lr:.2e} | ({(t1-t0)*1000:.2f} ms | {tokens_per_second:.0f} tok/s)" (the llmc set taken
    # away: the lines as a loop that copies the format prints them)
    times = [412.37, 398.02, 401.55]
    lines = [
        f"step {s + 1:4d}/50 | train loss {4 - s / 10:.6f} | norm 1.{s}000 | lr 6.00e-04 | ({t:.2f} ms | "
        f"{16384 / t * 1000:.0f} tok/s)"
        for s, t in enumerate(times)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"), without="llmc")
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step_time_s"].tolist() == pytest.approx([t / 1000 for t in times], rel=1e-12)
    assert rows["tokens_per_s"].tolist() == [round(16384 / t * 1000) for t in times]


def test_a_bars_elapsed_and_remaining_times_are_no_steps_time(write_log):
    # ultralytics' trainer prints its bar after the epoch's values, its rate then its elapsed and remaining times
    # ("... 64: 12% ━─── 1/8 2.3it/s 0.1s<3.1s", tests/data/captures/ultralytics/detect.log); a loop's bar without
    # the rate: the times of the bar are no items of their own, no step's time
    lines = [
        f"step {s} | loss {3 - s / 10:.4f} | {s}/40 {s * 0.4:.1f}s<{16 - s * 0.4:.1f}s" for s in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step"].tolist() == [1, 2, 3, 4] and rows["loss"].tolist() == [2.9, 2.8, 2.7, 2.6]
    assert "step_time_s" not in rows or rows["step_time_s"].isna().all()


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


def test_a_distance_named_alone_is_the_loss_and_an_added_time_is_no_steps_time(write_log):
    # sanghyun-son/EDSR-PyTorch src/trainer.py: '[{}/{}]\t{}\t{:.1f}+{:.1f}s'.format(samples, total, display_loss,
    # model_time, data_time) every print_every batches, display_loss '[L1: 0.0897]' (src/loss/__init__.py)
    lines = ["[Epoch 1]\tLearning rate: 5.00e-4"]
    lines += [f"[{1600 * k}/16000]\t[L1: 0.0{900 - 10 * k}]\t6{k}.9+0.{k}s" for k in range(1, 6)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1600, 3200, 4800, 6400, 8000]
    assert row_at(parsed, 2)["loss"] == 0.089
    assert "step_time_s" not in parsed.rows or parsed.rows["step_time_s"].isna().all()
    # beside another keyed value a distance is a term (pix2pix's `G_GAN: ... G_L1: ...`): no loss is chosen
    gan = [
        f"(epoch: 1, iters: {100 * k}, time: 0.05) G_GAN: 1.{k}1 L1: 2{k}.5 D_real: 0.3{k} D_fake: 0.4{k}"
        for k in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(gan) + "\n", "gan.log"))
    assert "loss" not in parsed.rows or parsed.rows["loss"].isna().all()


def test_a_fractional_total_alone_is_the_loss_and_a_whole_one_is_not(write_log):
    # And1210/FER_SSL train.out: '[epoch: 1/200, iter: 375/489] total: 1.657671 ', the sum of its terms
    def record(epoch: int, it: int, total: str) -> str:
        return f"[epoch: {epoch}/200, iter: {it}/489] total: {total} "

    lines = [record(1, 25 * k, f"1.65{k}171") for k in (15, 16, 17)] + [
        record(2, 25 * k, f"1.5{k}") for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 2)["loss"] == 1.6516171
    assert row_at(parsed, 5)["loss"] == 1.51
    # a whole number under `total` counts something (images, tokens): no loss
    counts = [record(1, 25 * k, str(1000 * k)) for k in (15, 16, 17)] + [
        record(2, 25 * k, str(k)) for k in range(4)
    ]
    parsed = frame(write_log("\n".join(counts) + "\n", "counts.log"))
    assert "loss" not in parsed.rows or parsed.rows["loss"].isna().all()


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


def test_a_header_printed_by_print_over_rows_printed_by_print_is_read_in_order(write_log):
    # print("step loss lr time") once, then print(step, loss, lr, dt) each 100 steps: print()'s own blank between
    # names and between values, so no value stands under its name; the names go to the values in order
    losses = [3.1781, 3.0648, 2.9113, 2.8204, 2.7452]
    lines = ["step loss lr time"] + [f"{100 * (k + 1)} {x} 0.0001 0.52" for k, x in enumerate(losses)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert [row_at(parsed, k + 2)["loss"] for k in range(5)] == losses
    assert row_at(parsed, 2)["lr"] == 0.0001 and row_at(parsed, 2)["step_time_s"] == 0.52


def test_an_evaluations_counter_tagged_as_its_own_is_the_step_it_was_done_at(write_log):
    # a fine-tuning loop (public code): every 20 steps print(f"step {global_step}/{total_steps} (epoch
    # {global_step/steps_per_epoch:.2f}) | loss {running:.4f} | lr {lr:.2e} | {20/dt:.2f} steps/s"), every
    # EVAL_EVERY steps print(f"[eval] step {global_step} | val loss {evaluate(model, val_loader):.4f}"): the tag
    # names the line, the number is the training's step, rising, with no total of the evaluation's own
    lines = []
    for k in range(1, 13):
        lines.append(
            f"step {20 * k}/2400 (epoch {20 * k / 600:.2f}) | loss {3.2 - 0.05 * k:.4f} | lr 2.00e-05 | 3.10 steps/s"
        )
        if k % 4 == 0:
            lines.append(f"[eval] step {20 * k} | val loss {3.3 - 0.05 * k:.4f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20 * k for k in range(1, 13)]
    assert [(e["line"], e["step"]) for e in evals(parsed)] == [(5, 80), (10, 160), (15, 240)]


@pytest.mark.parametrize("steps", [1, 3])
def test_a_steps_values_each_on_a_line_with_its_running_mean_in_brackets(write_log, steps):
    # coqui-ai/TTS's console logger (trainer/logging/console_logger.py, print_train_step): "   --> STEP:
    # {batch}/{batches} -- GLOBAL_STEP: {step}", then for each value "     | > {key}: {value}  ({avg})"
    # (current_lr_* without an average); the value is this step's, the bracket its running mean, whether the
    # excerpt holds one step or several
    lines = []
    for k in range(steps):
        lines += [
            f"   --> STEP: {24 + k}/352 -- GLOBAL_STEP: {244300 + 25 * k}",
            f"     | > G_gen_loss: {16.55468 + k:.5f}  (15.96176)",
            f"     | > grad_norm_0: {22.85464 + k:.5f}  (28.87626)",
            "     | > current_lr_0: 0.00010 ",
            f"     | > step_time: {0.29070 + k / 100:.5f}  (0.29190)",
            "     | > loader_time: 0.00150  (0.00135)",
            "",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [244300 + 25 * k for k in range(steps)]
    last = row_at(parsed, 1 + 7 * (steps - 1))
    assert last["grad_norm"] == pytest.approx(22.85464 + steps - 1)
    assert last["step_time_s"] == pytest.approx(0.29070 + (steps - 1) / 100)
    assert last["lr"] == 0.0001


def test_an_iterations_block_takes_its_iteration_time_under_the_rule_not_a_rate_of_environment_steps(
    write_log,
):
    # leggedrobotics/rsl_rl rsl_rl/runners/on_policy_runner.py OnPolicyRunner.log (width=80, pad=35), as legged_gym
    # and its forks print it: '#' * width, the centred f" \033[1m Learning iteration {it}/{total} \033[0m ", a
    # blank line, f"{'Computation:':>{pad}} {fps:.0f} steps/s (collection: {c:.3f}s, learning {l:.3f}s)", the
    # losses and means, then '-' * width and f"{'Total timesteps:':>{pad}} ...", f"{'Iteration time:':>{pad}}
    # {iteration_time:.2f}s" (collection + learning), f"{'Total time:':>{pad}} {tot_time:.2f}s", f"{'ETA:':>{pad}}
    # ...s". fps counts the environment's steps; the iteration is the step, and its time is under the dashes.
    width, pad = 80, 35
    parts = [(3.285, 1.098, 0.0143), (2.912, 0.751, 0.0121), (2.874, 0.744, 0.0102)]
    out, total = [], 0.0
    for it, (col, learn, value_loss) in enumerate(parts):
        total += col + learn
        title = f" \033[1m Learning iteration {it}/1500 \033[0m "
        out.append(
            f"{'#' * width}\n{title.center(width, ' ')}\n\n"
            f"{'Computation:':>{pad}} {int(98304 / (col + learn))} steps/s (collection: {col:.3f}s, learning {learn:.3f}s)\n"
            f"{'Value function loss:':>{pad}} {value_loss:.4f}\n{'Surrogate loss:':>{pad}} -0.0052\n"
            f"{'Mean reward:':>{pad}} {0.09 * (it + 1):.2f}\n{'-' * width}\n"
            f"{'Total timesteps:':>{pad}} {98304 * (it + 1)}\n{'Iteration time:':>{pad}} {col + learn:.2f}s\n"
            f"{'Total time:':>{pad}} {total:.2f}s\n{'ETA:':>{pad}} {total / (it + 1) * (1500 - it):.1f}s\n"
        )
    parsed = frame(write_log("\n".join(out)))
    assert steps_of(parsed) == [0, 1, 2]
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["step_time_s"]) == [4.38, 3.66, 3.62]  # round(c + l, 2), as printed
    assert list(rows["train_elapsed_s"]) == [4.38, 8.05, 11.66]  # 4.383, 8.046, 11.664 summed


def test_a_time_left_is_no_steps_time(write_log):
    # thuml/Time-Series-Library exp/exp_long_term_forecasting.py: every 100 iterations print("\titers: {0}, epoch:
    # {1} | loss: {2:.7f}".format(i + 1, epoch + 1, loss.item())), then print('\tspeed: {:.4f}s/iter; left time:
    # {:.4f}s'.format(speed, left_time)): the seconds an iteration, and the estimate of the time to the end
    speeds = [0.0617, 0.0629, 0.0613, 0.0610]
    lines = []
    for k, v in enumerate(speeds):
        lines += [
            f"\titers: {100 * (k + 4)}, epoch: 1 | loss: 0.16{k}2218",
            f"\tspeed: {v:.4f}s/iter; left time: {493.4384 - 9 * k:.4f}s",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [400, 500, 600, 700]
    assert list(parsed.rows.loc[parsed.rows["kind"] == "step", "step_time_s"]) == speeds


def test_an_evaluations_loss_joins_the_row_of_the_step_it_was_done_at(write_log):
    # arsallls/tiny-shrek train.py (its committed logs/pretrain.log): f"iter {it:6d} | loss {loss:.4f} | lr {lr:.2e}
    # | {elapsed:.0f}s" every 50 iterations, f"  eval {it}: train {tl:.4f} | val {vl:.4f} | {bpc:.4f} bpc" every 200:
    # the evaluation stays an event, and its loss is the eval_loss of step 200's row (the row before it has none)
    losses = [4.5917, 2.6131, 2.1592, 1.7263, 1.5749, 1.3781, 1.3229, 1.2779, 1.2137]
    lines = []
    for k, x in enumerate(losses):
        lines.append(f"iter {50 * k:6d} | loss {x:.4f} | lr 6.00e-04 | {23 + 6 * k}s")
        if k and k % 4 == 0:
            lines.append(f"  eval {50 * k}: train {x - 0.02:.4f} | val {x - 0.04:.4f} | 2.2098 bpc")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [50 * k for k in range(9)]
    assert [(e["line"], e["eval_loss"]) for e in evals(parsed)] == [(6, 1.5349), (11, 1.1737)]
    rows = parsed.rows[parsed.rows["kind"] == "step"].set_index("step")
    assert rows.at[200, "eval_loss"] == 1.5349 and rows.at[400, "eval_loss"] == 1.1737
    assert rows["eval_loss"].notna().sum() == 2


def test_a_save_that_names_only_its_file_is_a_checkpoint_at_the_step_before_it(write_log):
    # arsallls/tiny-shrek train.py: f"  saved {ckpt_path}" (pretrain.pt) after an evaluation with a new best loss;
    # caiyuanhao1998/MST train.py: logger.info("Checkpoint saved to {}".format(path)) after an epoch's line: no step
    # printed, so the step is the one printed last before the line
    lines = []
    for k in range(1, 7):
        lines.append(f"iter {50 * k:6d} | loss {2.0 - 0.1 * k:.4f} | lr 6.00e-04 | {23 + 6 * k}s")
        if k % 3 == 0:
            lines.append("  saved /content/drive/MyDrive/tiny-shrek/pretrain.pt")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [4, 8] and list(saves["step"]) == [150, 300]


def test_a_save_named_after_the_validation_it_follows_is_a_checkpoint_not_an_evaluation(write_log):
    # B4rtekk1/CGPT train/train.cpp: after each validation, `Saved validation checkpoint at step N to "<dir>"`;
    # the step line before it carries the validation's loss
    lines = []
    for k in range(1, 6):
        step = 5000 * k
        lines.append(
            f"Training [===   ] {k * 8.5:.1f}% {step}/58874 | 4.62 it/s | ETA: {11664.8 - k:.1f} s"
            f" | loss={4 - 0.1 * k:.6f} | validation_loss={4.1 - 0.1 * k:.6f}"
        )
        lines.append(
            f'Saved validation checkpoint at step {step} to "output/model-104m/checkpoints/step-{step}"'
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5000, 10000, 15000, 20000, 25000]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [2, 4, 6, 8, 10] and list(saves["step"]) == [
        5000,
        10000,
        15000,
        20000,
        25000,
    ]
    evaluated = parsed.events[parsed.events["event"] == "eval"]
    assert set(evaluated["line"]).isdisjoint(saves["line"])


def test_a_counted_line_of_settings_that_never_change_is_no_step(write_log):
    # PranavSitaraman/Lossless-Neural-Compression train.out: each of 4 ranks prints f"[GPU{rank}] Epoch {epoch} |
    # Batchsize: 32 | Steps: 28" before the epoch; rank 0 prints the epoch's record after it
    losses = [0.1883, 0.1707, 0.1672, 0.1653, 0.1623]
    lines = []
    for e, loss in enumerate(losses):
        lines += [f"[GPU{r}] Epoch {e} | Batchsize: 32 | Steps: 28" for r in (2, 3, 0, 1)]
        lines.append(f"Epoch {e + 1}/5 starting...")
        lines += [f"Rank {r} | Epoch Loss: {loss + 0.001 * r:.6f}" for r in (1, 3, 0, 2)]
        lines.append(f"Epoch [{e + 1}/5], Avg Loss: {loss:.4f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert list(parsed.rows["loss"]) == losses


def test_a_bar_postfix_that_holds_brackets_of_its_own(write_log):
    # zoubohao/DenoisingDiffusionProbabilityModel-ddpm- Diffusion/Train.py: tqdmDataLoader.set_postfix(ordered_dict={
    # "epoch": e, "loss: ": loss.item(), "img shape: ": x_0.shape, "LR": optimizer.state_dict()['param_groups'][0]["lr"]})
    lrs = ["0.00012", "0.000125", "3.27e-5", "3.15e-5"]
    lines = [
        f"100%|██████████| 625/625 [03:20<00:00,  3.12it/s, epoch={e}, loss: ={6 + k * 0.5:.2f},"
        f" img shape: =torch.Size([80, 3, 32, 32]), LR={lr}]  "
        for k, (e, lr) in enumerate(zip([4, 5, 168, 169], lrs, strict=True))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [4, 5, 168, 169]
    assert list(parsed.rows["lr"]) == [float(x) for x in lrs]


def test_the_lines_under_an_underlined_epoch_heading_are_that_epochs(write_log):
    # PyTorch's transfer-learning tutorial train_model: print(f'Epoch {epoch}/{num_epochs - 1}'), print('-' * 10),
    # then f'{phase} Loss: {epoch_loss:.4f} Acc: {epoch_acc:.4f}' for train and val; deep-learning-algorithm/ResNet
    # prints the scheduler's lr list under the rule too, and no blank line closes the epoch
    lines = []
    for e in range(1, 6):
        lines += [f"resnet-50 - Epoch {e}/100", "-" * 10, f"lr: [{0.0002 * e:.4g}]"]
        lines.append(f"train Loss: {2.5 - 0.1 * e:.4f} Top-1 Acc: {40 + e:.4f} Top-5 Acc: {60 + e:.4f}")
        lines.append(f"test Loss: {2.6 - 0.1 * e:.4f} Top-1 Acc: {30 + e:.4f} Top-5 Acc: {50 + e:.4f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    first = row_at(parsed, 1)
    assert (first["loss"], first["lr"]) == (2.4, 0.0002)
    assert [e["step"] for e in evals(parsed)] == [1, 2, 3, 4, 5]


def test_a_line_seen_once_with_a_key_named_eval_beside_training_steps_is_an_evaluation(write_log):
    # IST-DASLab/llmq's README: the trainer's `[T]` line each step, then a `[V]` line of the validation with its
    # loss under the key `eval` and the training's running loss under `train`
    lines = [
        f"[T] step {k:5d} [{19.9 * (k + 1):5.1f}%] | time:  {1869 - k:4d} ms | norm   {4.3 + k:.6f}"
        f" | loss   {3.28 + 0.01 * k:.6f} | tps {35064 + k} | sol 42.9%"
        for k in range(4)
    ]
    lines.append("[V] step     4 [  0.0%] | time:   165 ms | eval   2.945187 | train  3.295834 | tps  148k")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert [(e["line"], e["step"]) for e in evals(parsed)] == [(5, 4)]


def test_a_save_that_quotes_the_validation_its_own_line_reported_is_a_checkpoint_not_another_evaluation(
    write_log,
):
    # minhyeok2001/Video-Depth-Anything: logger.info(f"Epoch [{epoch}], Batch [{i}], Loss: {loss:.4f}") per batch, then
    # f"Epoch [{epoch}/{num_epochs}] Train Loss: ...", f"Epoch [{epoch}/{num_epochs}] Validation Loss: {val:.4f}" and,
    # when it improved, f"Best checkpoint saved at epoch {epoch + 1} with validation loss {val:.4f}"
    prefix = "2025-06-18 09:3{}:{:02d},800 INFO     "
    lines = []
    for epoch in range(3):
        lines += [
            prefix.format(epoch, b) + f"Epoch [{epoch}], Batch [{b}], Loss: 0.0{b:02d}9" for b in (10, 20, 30)
        ]
        lines.append(prefix.format(epoch, 40) + f"Epoch [{epoch}/15] Train Loss: 0.02{epoch}7")
        lines.append(prefix.format(epoch, 45) + f"Epoch [{epoch}/15] Validation Loss: 0.019{epoch}")
        if epoch != 1:
            lines.append(
                prefix.format(epoch, 47)
                + f"Best checkpoint saved at epoch {epoch + 1} with validation loss 0.019{epoch}"
            )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30] * 3
    assert [(e["line"], e["eval_loss"]) for e in evals(parsed)] == [(5, 0.019), (11, 0.0191), (16, 0.0192)]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [6, 17]
    assert [f.value for f in parsed.facts["num_epochs"]] == [
        15,
        15,
        15,
    ]  # the epochs' summaries state the plan


def test_an_epochs_heading_and_its_values_line_under_a_run_together_date_are_one_row(write_log):
    # mbfaria/ShuffleFaceNet_Pytorch train.py: its logger writes time.strftime('%Y%m%d-%H:%M:%S') before each message,
    # 'Train Epoch: {}/{} ...' as an epoch starts and, when it ends, '    total_loss: {:.4f} time: {}' with the
    # epoch's time as '{}m {}s'
    lines = []
    for k, epoch in enumerate(range(6, 11)):
        lines.append(f"20200204-2{k}:04:19 Train Epoch: {epoch}/70 ...")
        lines.append(f"20200204-2{k}:14:27     total_loss: {14.8 - k / 2:.4f} time: 10m {8 + k}s")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [6, 7, 8, 9, 10]
    assert row_at(parsed, 1)["loss"] == 14.8
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 1)["timestamp"] == 3600.0  # 21:04:19 - 20:04:19
    assert [f.value for f in parsed.facts["num_epochs"]][-1] == 70


def test_a_save_printed_before_its_steps_line_names_the_step_in_its_files_name(write_log):
    # Sagar063/Week13_ERAV4_SmolLM2_135M_RoPE_GQA_RMSNorm: `CHECKPOINT: saved checkpoint_step_250.pt and
    # checkpoint_latest.pt` comes before `step   250/5000 | ...`, so the step before it is not the save's
    lines = []
    for step in range(50, 550, 50):
        if step % 250 == 0:
            lines.append(f"CHECKPOINT: saved checkpoint_step_{step}.pt and checkpoint_latest.pt")
        lines.append(f"step {step:5d}/5000 | lr 2.999e-04 | loss {7 - step / 500:.4f} | tok/s 1320.9")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [5, 11] and list(saves["step"]) == [250, 500]


@pytest.mark.parametrize(
    "said, saves",
    [
        ("🌟 Loss membaik dari 20.1 ke 19.4! Menyimpan checkpoint...", [1, 3]),  # Akhyar11/SpikingTranslation
        ("Guardando modelo en output/best.pt", [1, 3]),
        ("Modell gespeichert: runs/best.pt", [1, 3]),
    ],
)
def test_a_save_said_in_the_language_of_the_loops_author(write_log, said, saves):
    lines = []
    for epoch in range(1, 5):
        lines.append(f"Epoch {epoch:3d} | Final Loss: {19.4 + epoch * 0.1:.4f}")
        if epoch % 2:
            lines.append(said)
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert list(parsed.events.loc[parsed.events["event"] == "checkpoint_save", "step"]) == saves


def test_a_command_lines_save_option_is_no_save(write_log):
    # Fisherman-s-Friend/atmt_2024 train.py logs the command it was started with, `--save-dir .../checkpoints`
    lines = [
        "INFO: COMMAND: train.py --data data/en-fr/prepared --save-dir assignments/03/baselinecheck/checkpoints"
        " --encoder-embed-dim 64",
        *(
            f"INFO: Epoch {e:03d}: loss {5 - e * 0.1:.3f} | lr 0.0003 | num_tokens 9.1 | grad_norm 1.4"
            for e in range(4)
        ),
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert parsed.events.empty or "checkpoint_save" not in set(parsed.events["event"])


def test_a_saving_functions_name_as_the_whole_message_is_a_save_and_as_a_setting_is_none(write_log):
    # KevinZH3/Faster-R-CNN-for-VOC2007- train.py: logger.info("save_model!!") after each epoch's loss; a config
    # dump's `save_model: True` names a setting
    prefix = "2024-05-26 16:2{}:29 - INFO - train.py - {} - "
    lines = [prefix.format(0, 40) + "save_model: True"]
    for e in range(1, 5):
        lines += [
            prefix.format(e, 90) + f"step {e * 10} | loss {2 - e / 10:.3f} | lr 0.005",
            prefix.format(e, 130) + "save_model!!",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [3, 5, 7, 9] and list(saves["step"]) == [10, 20, 30, 40]


def test_the_losses_on_the_line_after_a_step_line_of_lr_and_times_are_that_steps(write_log):
    # V2AI/Det3D det3d/utils/... text logger: "Epoch [1/20000][220/1000]\tlr: ..., time: ..., loss_parse_time:
    # ..., memory: ..." then "task : ['concealed'], loss: ..., cls_pos_loss: ..." and a blank line
    lines = []
    for k, (step, loss) in enumerate([(220, 4353.6804), (230, 3880.3974)]):  # (all the excerpt holds)
        stamp = f"2020-06-03 07:3{k}:09,999"
        lines.append(
            f"{stamp} - INFO - Epoch [1/20000][{step}/1000]\tlr: 0.00003, eta: 917 days, 19:41:57, time: 4.022,"
            " data_time: 3.690, transfer_time: 0.026, forward_time: 0.104, loss_parse_time: 0.000 memory: 2641, "
        )
        lines.append(
            f"{stamp} - INFO - task : ['concealed'], loss: {loss}, cls_pos_loss: 0.0228, cls_neg_loss: 4351.6963,"
            " dir_loss_reduced: 0.2947"
        )
        lines.append("")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [220, 230]
    assert list(parsed.rows["loss"]) == [4353.6804, 3880.3974]


def test_a_save_that_quotes_the_best_loss_after_an_epochs_line_is_a_checkpoint_not_its_value(write_log):
    # MrEleden/reco_app logs "New best model saved with val loss: {val_loss:.4f}" after an epoch whose val loss
    # improved
    lines = []
    vals = [0.3999, 0.3959, 0.3944, 0.3970, 0.3930, 0.3921]
    for e, val in enumerate(vals, 1):
        train = 0.4246 - 0.01 * e
        stamp = f"2025-09-28 16:56:{40 + e:02d},229 - MovieRecommender - INFO - "
        lines.append(
            f"{stamp}Epoch {e}/20: Train Loss: {train:.4f}, Val Loss: {val:.4f}, Time: 4.72s, rmse: 0.35"
        )
        if e != 4:
            lines.append(f"{stamp}New best model saved with val loss: {val:.4f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5, 6]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["step"]) == [1, 2, 3, 5, 6]
    assert not any(c.startswith("x_saved") for c in parsed.rows.columns)


def test_an_epoch_printed_as_its_fraction_with_the_epochs_planned(write_log):
    # jcjohnson/torch-rnn train.lua: print(string.format('Epoch %.2f / %d, i = %d / %d, loss = %f', epoch,
    # opt.max_epochs, i, num_iterations, loss[1])) each iteration: the step is i, the epoch its fraction gone by,
    # the 50 after it the epochs planned
    losses = [4.399446, 4.486917, 4.432359, 4.391818]
    lines = [f"Epoch 43.28 / 50, i = {822990 + k} / 973300, loss = {x:.6f}" for k, x in enumerate(losses)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [822990, 822991, 822992, 822993]
    first = row_at(parsed, 1)
    assert first["epoch"] == 43.28 and first["loss"] == 4.399446 and first["progress_total"] == 973300
    assert parsed.facts["num_epochs"][0].value == 50


def test_a_loops_own_epoch_bar_without_a_postfix_leaves_its_logger_lines_the_steps(write_log):
    # INK-USC/CrossFit singletask (a user's log, https://github.com/INK-USC/CrossFit/issues/9): tqdm(train_dataloader, desc=f"Epoch {epoch}") draws bars
    # with no postfix, and the loop logs f"Step {global_step} Train loss {loss:.2f} {metric} {curr_em} on
    # epoch={epoch}" through logging: Lightning's bar always ends its frames with a postfix (v_num, the
    # prog_bar metrics), so these bars say nothing of Lightning, and the logger's lines are the steps
    bar = "Epoch {e}: {p:3d}%|{b:<10}| {n}/16 [00:0{t}<00:00, 28.19it/s]"
    lines = [
        bar.format(e=18, p=56, b="#####", n=9, t=0),
        "10/30/2023 20:51:55 - INFO - __main__ - Step 300 Train loss 8761.43 ACC 0.0 on epoch=18",
        bar.format(e=18, p=100, b="#" * 10, n=16, t=1),
        bar.format(e=19, p=100, b="#" * 10, n=16, t=1),
        bar.format(e=24, p=94, b="#########", n=15, t=0),
        "10/30/2023 20:52:01 - INFO - __main__ - Step 400 Train loss 8735.57 ACC 0.0 on epoch=24",
        bar.format(e=24, p=100, b="#" * 10, n=16, t=1),
        bar.format(e=29, p=56, b="#####", n=9, t=0),
        "10/30/2023 20:52:07 - INFO - __main__ - Step 500 Train loss 8712.02 ACC 0.0 on epoch=29",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == [300, 400, 500]
    assert [row_at(parsed, n)["loss"] for n in (2, 6, 9)] == [8761.43, 8735.57, 8712.02]


def test_an_early_stopping_note_that_the_loss_decreased_is_a_save_not_an_evaluation(write_log):
    # early-stopping-pytorch's pytorchtools.py EarlyStopping.save_checkpoint (copied by Informer, Autoformer, thuml's
    # Time-Series-Library, liaoyuhua/GPT-TS): print(f'Validation loss decreased ({self.val_loss_min:.6f} -->
    # {val_loss:.6f}).  Saving model ...') before the epoch's own line states the same validation loss
    lines, best = [], "inf"
    for epoch, (train, val) in enumerate([(101.84, 38.347205), (58.97, 31.148434), (53.99, 29.043603)], 1):
        lines.append(f"Validation loss decreased ({best} --> {val:.6f}).  Saving model ...")
        lines.append(f"Epoch: {epoch}/200 | Train loss: {train} | Val loss: {val} | Time:  27.517s")
        best = f"{val:.6f}"
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    assert row_at(parsed, 4)["eval_loss"] == 31.148434
    assert evals(parsed) == []
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [1, 3, 5]


def test_an_evaluation_printed_once_whose_heading_is_its_first_key(write_log):
    # eric-mitchell/direct-preference-optimization trainers.py: rank0_print(f'eval after {self.example_counter}:
    # {formatted_stats(mean_eval_metrics)}') before training, then f'train stats after {self.example_counter}
    # examples: {formatted_stats(mean_train_metrics)}' each step, the dict's numbers quoted ('%.5g'), the step
    # under 'counters/updates'
    lines = [
        "eval after 0: {'rewards_eval/chosen': '-0.056337', 'rewards_eval/margins': '-0.02038', 'loss/eval': '0.70663'}"
    ]
    for k, loss in enumerate([0.70236, 0.69782, 0.70011, 0.69514], 1):
        lines.append(
            f"train stats after {32 * k} examples: {{'rewards_train/chosen': '-0.030011', 'loss/train': '{loss}', "
            f"'examples_per_second': '52.133', 'grad_norm': '0', 'counters/examples': {32 * k}, 'counters/updates': {k}}}"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert row_at(parsed, 3)["loss"] == 0.69782
    assert [(e["line"], e["eval_loss"]) for e in evals(parsed)] == [(1, 0.70663)]


def test_two_lines_of_a_batch_counter_out_of_its_total_are_steps(write_log):
    # dalinvip/cnn-lstm-bilstm-deepcnn-clstm-in-pytorch train_ALL_LSTM.py: sys.stdout.write("\rBatch[{}/{}] -
    # loss: {:.6f}  acc: {:.4f}%({}/{})".format(steps, train_size, loss, accuracy, corrects, batch_size)) every
    # log interval, then the dev and test evaluations: an excerpt of two such lines is two steps
    lines = [
        "Batch[395/6920] - loss: 0.693503  acc: 56.2500%(9/16)",
        "Batch[400/6920] - loss: 0.729841  acc: 37.5000%(6/16)",
        "Dev  Accuracy:  Evaluation - loss: 0.655496  acc: 62.3853%(544/872) ",
        "Test Accuracy:  Evaluation - loss: 0.660529  acc: 61.3399%(1117/1821) ",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [395, 400]
    assert [row_at(parsed, n)["loss"] for n in (1, 2)] == [0.693503, 0.729841]
    assert [e["line"] for e in evals(parsed)] == [3, 4]
    assert row_at(parsed, 2)["eval_loss"] == 0.655496  # the dev split's, the first after step 400


@pytest.mark.parametrize("indent", ["", "    "])
def test_clus_logging_writer_lines_behind_absl_prefixes(write_log, indent):
    # google/CommonLoopUtils clu/metric_writers/logging_writer.py: logging.info("[%d] %s", step, ", ".join(f"{k}={v}"
    # ...)) behind absl's "I0919 14:15:27.775955 140151934879488 logging_writer.py:35] " (the flax ImageNet example,
    # steps_per_second among its summary's scalars); a paste indented as a markdown code block keeps its blanks
    rows = [
        (100, 2.183623, 6.95107364654541),
        (200, 7.168900, 6.772485733032227),
        (300, 7.104685, 6.586050510406494),
    ]
    lines = [
        f"{indent}I0919 14:15:{27 + 14 * k:02d}.775955 140151934879488 logging_writer.py:35] [{step}] "
        f"steps_per_second={sps:.6f}, train_learning_rate=0.003165467409417033, train_loss={loss}"
        for k, (step, sps, loss) in enumerate(rows)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300]
    second = row_at(parsed, 2)
    assert second["loss"] == 6.772485733032227 and second["step_time_s"] == pytest.approx(
        1 / 7.1689, rel=1e-9
    )
    assert second["timestamp"] - row_at(parsed, 1)["timestamp"] == pytest.approx(14.0)


def test_an_evaluation_and_a_save_behind_absl_prefixes_are_one_event_each(write_log):
    # the flax ImageNet example under absl: train.py logs 'eval epoch: %d, loss: %.4f, accuracy: %.2f' (its source
    # file, train.py, is no word of the line), clu's LoggingWriter the same evaluation as "[6255] eval_accuracy=...,
    # eval_loss=...", and flax/training/checkpoints.py "Saving checkpoint at step: %s" then "Saved checkpoint at %s"
    prefix = "I0919 14:{t} 140151934879488 "
    lines = [
        prefix.format(t=f"{15 + k}:27.775955")
        + f"logging_writer.py:35] [{100 * (k + 1)}] steps_per_second=7.1, "
        f"train_learning_rate=0.01, train_loss={6.9 - 0.1 * k:.4f}"
        for k in range(4)
    ]
    lines += [
        prefix.format(t="29:00.699282").replace("140151934879488", "140166890789952")
        + "train.py:365] eval epoch: 4, loss: 2.9286, accuracy: 37.13",
        prefix.format(t="29:00.699987") + "logging_writer.py:35] [400] eval_accuracy=0.3712972104549408, "
        "eval_loss=2.928572654724121",
        prefix.format(t="29:00.780086") + "checkpoints.py:356] Saving checkpoint at step: 400",
        prefix.format(t="29:01.262479")
        + "checkpoints.py:317] Saved checkpoint at /home/u/logs/checkpoint_400",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert [e["line"] for e in evals(parsed)] == [5]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [7] and list(saves["step"]) == [400]


def test_an_epochs_line_beside_its_bars_with_no_postfix_is_the_step(write_log):
    # a diffusion forecaster's loop: tqdm(train_loader, desc=f"Epoch {epoch}/{epochs} train") and the same for val,
    # no postfix, then print(f"[SeqAR-Diffusion] Epoch {epoch}/{epochs} Train Loss: {tl:.4f} | Val Loss: {vl:.4f}"):
    # the bars are the epoch's progress, its line the only record of its training
    def bar(e: int, split: str, total: int) -> str:
        return "".join(
            f"\rEpoch {e}/400 {split}: {100 * n // total:3d}%|{'#' * (10 * n // total):<10}| {n}/{total} "
            f"[00:{n % 60:02d}<00:10, {29.09 + n:.2f}it/s]"
            for n in (0, 13, 26, 39, total)
        )

    losses = [(0.1628, 0.0491), (0.0947, 0.0551), (0.0877, 0.0451)]
    lines = []
    for e, (train, val) in enumerate(losses, 1):
        lines += [bar(e, "train", 2590), bar(e, "val", 289)]
        lines.append(f"[SeqAR-Diffusion] Epoch {e}/400 Train Loss: {train:.4f} | Val Loss: {val:.4f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["loss"]) == [0.1628, 0.0947, 0.0877] and list(rows["eval_loss"]) == [
        0.0491,
        0.0551,
        0.0451,
    ]


def test_a_loss_glued_to_a_short_word_is_a_loss(write_log):
    # OpenGVLab/LLaMA-Adapter (its main_finetune.py, after DeiT's): log_stats = {**{f'train_{k}': v ...},
    # 'epoch': epoch, **{f'val_{k}': v ...}}, json.dumps per epoch; its metric logger names the loss `closs`
    rows = [
        (0.00014058, 1.2533392240084134, 1.1418202718098958),
        (0.00042183, 1.1190958158052884, 1.0963948567708333),
    ]
    lines = [
        json.dumps({"train_lr": lr, "train_closs": tl, "epoch": e, "val_lr": lr * 2, "val_closs": vl})
        for e, (lr, tl, vl) in enumerate(rows * 2)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert (
        row_at(parsed, 2)["loss"] == 1.1190958158052884
        and row_at(parsed, 2)["eval_loss"] == 1.0963948567708333
    )


def test_a_models_numbered_children_printed_by_torch_are_no_steps(write_log):
    # LingxiaoShawn/PairNorm main.py: print(model) (torch.nn.Module.__repr__: a ModuleList's children as
    # "  (0): GraphConv(1433->64)", ...), then each epoch print('Epoch {}: train loss {:.3f} train acc: {:.3f}, val
    # loss: {:.3f} val acc {:.3f}.')
    lines = ["DeepGCN(", "  (hidden_layers): ModuleList("]
    lines += [f"    ({k}): GraphConv({1433 if k == 0 else 64}->64)" for k in range(9)]
    lines += ["  )", "  (out_layer): GraphConv(64->7)", ")"]
    losses = [2.023, 2.050, 2.033, 1.983, 1.957]
    lines += [
        f"Epoch {e}: train loss {x:.3f} train acc: 0.157, val loss: {1.963 - e / 1000:.3f} val acc 0.156."
        for e, x in enumerate(losses)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4]
    assert row_at(parsed, 15)["loss"] == 2.023 and row_at(parsed, 15)["eval_loss"] == 1.963


def test_2s_agcn_print_log_epochs_with_their_evaluations(write_log):
    # lshiwjx/2s-AGCN main.py (copied by CTR-GCN, SkeletonGCL, ...): print_log prefixes '[ ' + time.asctime() + ' ] ';
    # train(): 'Training epoch: {}', then '\tMean training loss: {:.4f}.  Mean graph loss: {:.4f}.  Mean training
    # acc: {:.2f}%.'; eval(): 'Eval epoch: {}', then '\tMean {} loss of {} batches: {}.'.format(ln, len(loader),
    # np.mean(loss_value)): the training's loss beside a regularizer's term, the test loss a mean over 8 batches
    lines = []
    for k, (epoch, train, test) in enumerate(
        [(15, 0.7648, 0.5971676260232925), (16, 0.7935, 0.5277879051864147)]
    ):
        t = f"[ Sun Oct 29 17:0{2 * k}:{10 + k:02d} 2023 ]"
        lines += [
            f"{t} Training epoch: {epoch}",
            f"{t} \tMean training loss: {train:.4f}.  Mean graph loss: 0.0000.  Mean training acc: 72.82%.",
            f"{t} \tTime consumption: [Data]15%, [Network]85%",
            f"{t} Eval epoch: {epoch}",
            f"{t} \tMean test loss of 8 batches: {test}.",
            f"{t} \tTop1: 77.16%",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [15, 16]
    assert [e["line"] for e in evals(parsed)] == [4, 10]  # `Eval epoch` and its loss line: one evaluation
    assert row_at(parsed, 1)["loss"] == 0.7648 and row_at(parsed, 7)["eval_loss"] == 0.5277879051864147


def test_a_save_of_the_best_model_said_in_chinese_is_a_checkpoint(write_log):
    # GuoxiangJiang/Transformer-in-en-de-trans train.py: print(f"Epoch {epoch}/{epochs} - Train Loss: {tl:.4f}, Val
    # Loss: {vl:.4f}"), and on a new best print(f"  保存最佳模型 (val_loss={vl:.4f})") ("saved the best model")
    rows = [(93, 1.1385, 1.3619, True), (94, 1.1362, 1.3691, False), (95, 1.1336, 1.3610, True)]
    lines = []
    for epoch, train, val, best in rows:
        lines.append(f"Epoch {epoch}/100 - Train Loss: {train:.4f}, Val Loss: {val:.4f}")
        if best:
            lines.append(f"  保存最佳模型 (val_loss={val:.4f})")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [93, 94, 95]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [2, 5] and list(saves["step"]) == [93, 95]
    assert evals(parsed) == []


def test_a_time_in_brackets_after_the_epochs_counter_is_the_epochs_time(write_log):
    # a segmentation loop (Dang-Tu-lang/Dino_augseg's committed train log): print(f"Epoch {e}/{epochs} [{dt:.1f}s] |
    # LR: {lr:.6e} | Train Loss: {tl:.4f} | Val Loss: {vl:.4f} | mIoU={miou:.2f}%"), one line an epoch: the time in
    # brackets follows the counter, no value it could be the running mean of
    rows = [
        (138.0, 2.8360, 1.2237),
        (133.4, 2.6075, 1.1377),
        (133.2, 2.4425, 0.9604),
        (133.3, 2.3944, 0.8944),
    ]
    lines = [
        f"Epoch {e}/100 [{dt:.1f}s] | LR: 3.800000e-06 | Train Loss: {tl:.4f} | Val Loss: {vl:.4f} | mIoU=6.26%"
        for e, (dt, tl, vl) in enumerate(rows, 1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert [row_at(parsed, k)["step_time_s"] for k in (1, 2, 4)] == [138.0, 133.4, 133.3]


def test_a_gaussian_splatting_runs_saves_are_checkpoints(write_log):
    # graphdeco-inria/gaussian-splatting train.py: tqdm "Training progress" with postfix {"Loss": f"{ema:.7f}"}
    # every 10 iterations, print("\n[ITER {}] Saving Gaussians".format(iteration)) and, at the checkpoint
    # iterations, print("\n[ITER {}] Saving Checkpoint".format(iteration)): two saves of the model
    lines = []
    for k in range(1, 5):
        it = 1000 * k
        lines.append(
            f"Training progress:  {k * 3}%|{'#' * k:<10}| {it}/30000 [00:{k:02d}<10:00, 40.00it/s, Loss={0.1 / k:.7f}]"
        )
    lines += ["", "[ITER 4000] Saving Gaussians", "", "[ITER 4000] Saving Checkpoint"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [6, 8]


def test_a_line_beside_an_excerpts_two_steps_under_their_counter_joins_its_step(write_log):
    # microsoft/UniRec's trainer logs "epoch {} training [time: {:.2f}s, train loss: {:.4f}]" after each epoch, then
    # "epoch: {}, learning rate: {}" of the scheduler: an excerpt of two epochs that holds the second line once
    # still reads one row an epoch, the lr on its epoch's row
    lines = [
        ">> epoch 1",
        "[INFO] SASRec-SASRec-github: epoch 1 training [time: 37.51s, train loss: 11888.1119]",
        "[INFO] SASRec-SASRec-github: epoch 1 evaluating [time: 43.49s, ndcg@10: 0.060777]",
        "[INFO] SASRec-SASRec-github: epoch: 1, learning rate: 0.0002",
        ">> epoch 2",
        "[INFO] SASRec-SASRec-github: epoch 2 training [time: 37.21s, train loss: 10133.0652]",
        "[INFO] SASRec-SASRec-github: epoch 2 evaluating [time: 43.18s, ndcg@10: 0.071220]",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2]
    assert row_at(parsed, 2)["loss"] == 11888.1119 and row_at(parsed, 2)["lr"] == 0.0002


def test_a_table_column_total_that_sums_the_columns_before_it_is_the_loss(write_log):
    # WongKinYiu/yolov7 train.py (YOLOv3's the same): the header ('\n' + '%10s' * 8) % ('Epoch', 'gpu_mem', 'box',
    # 'obj', 'cls', 'total', 'labels', 'img_size'), then per epoch ('%10s' * 2 + '%10.4g' * 6) % ('%g/%g' %
    # (epoch, epochs - 1), mem, *mloss, targets.shape[0], imgs.shape[-1]) as the bar's description, mloss the
    # running means of the three loss terms and of their sum (utils/loss.py ComputeLoss: torch.cat((lbox, lobj,
    # lcls, loss))); no column says "loss"
    header = ("%10s" * 8) % ("Epoch", "gpu_mem", "box", "obj", "cls", "total", "labels", "img_size")
    terms = [(0.05461, 0.01017, 0.03715), (0.05069, 0.01035, 0.03706), (0.04913, 0.00998, 0.0351)]
    lines = []
    for epoch, (box, obj, cls) in enumerate(terms, start=32):
        row = ("%10s" * 2 + "%10.4g" * 6) % (
            f"{epoch}/4999",
            "55.1G",
            box,
            obj,
            cls,
            box + obj + cls,
            26,
            1856,
        )
        lines += ["", header, row + ": 100%|##########| 295/295 [12:51<00:00,  2.62s/it]"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [32, 33, 34]
    # %10.4g of the sums: 0.10193 -> 0.1019, 0.0981 -> 0.0981, 0.09421 -> 0.09421
    assert list(parsed.rows["loss"]) == [0.1019, 0.0981, 0.09421]
    assert list(parsed.rows["x_box"]) == [0.05461, 0.05069, 0.04913]
    # mem = '%.3gG' % (torch.cuda.memory_reserved() / 1E9): SI under this printer's gpu_mem
    assert parsed.rows["memory_gib"].iloc[0] == pytest.approx(55.1e9 / 2**30, rel=1e-12)


def test_a_bare_total_above_its_named_terms_is_the_loss(write_log):
    # leela-zero training/tf/tfprocess.py: print("step {}, policy={:g} mse={:g} reg={:g} total={:g} ({:g} pos/s)"
    # .format(steps, sum_policy, sum_mse, sum_reg, sum_policy + 4 * sum_mse + sum_reg, speed)): no key says loss;
    # the total of the terms is what it minimizes, pos/s the positions (its samples) a second
    line = "step {}, policy={:g} mse={:g} reg={:g} total={:g} ({:g} pos/s)"
    terms = [(2.5, 0.25, 0.125, 300.5), (2.25, 0.2, 0.125, 310.25), (2.0, 0.15, 0.125, 320.0)]
    lines = [
        line.format(s, p, m, r, p + 4 * m + r, speed)
        for s, (p, m, r, speed) in zip((1000, 2000, 3000), terms, strict=True)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000]
    assert list(parsed.rows["loss"]) == [
        3.625,
        3.175,
        2.725,
    ]  # 2.5 + 1.0 + 0.125, 2.25 + 0.8 + 0.125, 2.0 + 0.6 + 0.125
    assert list(parsed.rows["samples_per_s"]) == [300.5, 310.25, 320.0]
    assert list(parsed.rows["x_policy"]) == [2.5, 2.25, 2.0]


def test_a_bare_total_below_a_term_is_no_loss(write_log):
    # the same line with a "total" that is not the sum of its terms (a count of games, a fraction): it never
    # holds every term
    line = "step {}, policy={:g} mse={:g} total={:g}"
    lines = [line.format(s, 2.5, 0.25, 0.5) for s in (1000, 2000, 3000)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000]
    assert "loss" not in parsed.rows


def test_a_value_before_its_running_average_is_the_loss(write_log):
    # pjreddie/darknet examples/detector.c train_detector: printf("%ld: %f, %f avg, %f rate, %lf seconds, %d
    # images\n", get_current_batch(net), loss, avg_loss, get_current_rate(net), what_time_is_it_now()-time,
    # i*imgs): the loss with no key, its moving average (avg_loss = avg_loss*.9 + loss*.1), the learning rate
    # and the images seen so far (the batch of 64 each iteration)
    fmt = "%d: %f, %f avg, %f rate, %f seconds, %d images"
    losses, avg = [8.5, 7.25, 6.0, 6.5], 9.0
    lines = []
    for i, loss in enumerate(losses, start=10):
        avg = avg * 0.9 + loss * 0.1
        lines.append(fmt % (i, loss, avg, 0.001, 3.5 + i / 100, i * 64))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 11, 12, 13]
    assert list(parsed.rows["loss"]) == losses
    assert list(parsed.rows["lr"]) == [0.001] * 4
    assert list(parsed.rows["consumed_samples"]) == [640, 704, 768, 832]
    assert list(parsed.rows["step_time_s"]) == [3.6, 3.61, 3.62, 3.63]
    assert parsed.rows["x_avg"].iloc[0] == pytest.approx(
        8.95, abs=1e-6
    )  # 9.0 * 0.9 + 8.5 * 0.1, as %f prints it


def test_the_loss_beside_a_named_average_of_the_loss_is_the_first(write_log):
    # AlexeyAB/darknet src/detector.c: printf("\n %d: %f, %f avg loss, %f rate, %lf seconds, %d images, %f hours
    # left\n", iteration, loss, avg_loss, get_current_rate(net), ...); the rate rises through the burn-in
    fmt = " %d: %f, %f avg loss, %f rate, %f seconds, %d images, %f hours left"
    rows = [(101, 5.5, 6.0, 0.0001), (102, 5.0, 5.95, 0.0002), (103, 4.75, 5.83, 0.0004)]
    lines = [fmt % (i, loss, avg, lr, 2.5, i * 64, 10.0 - i / 100) for i, loss, avg, lr in rows]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [101, 102, 103]
    assert list(parsed.rows["loss"]) == [5.5, 5.0, 4.75]
    assert list(parsed.rows["lr"]) == [0.0001, 0.0002, 0.0004]
    assert list(parsed.rows["consumed_samples"]) == [6464, 6528, 6592]


def test_the_progressive_average_is_the_loss_beside_the_mean_since_the_last_row(write_log):
    # Vowpal Wabbit's progress table (vowpalwabbit/core/src/shared_data.cc print_update): the header "average
    # since example example current current current" / "loss last counter weight label predict features", then
    # rows of the progressive mean of the loss, the mean since the row before, the examples, ... The loss is the
    # progressive mean: VW's own get_sum_loss() / get_weighted_examples() after each example of a run of 9.11.9,
    # and what its summary's "average loss =" reports; `since last` keeps its own column
    lines = [
        "average    since         example     example  current  current  current",
        "loss       last          counter      weight    label  predict features",
    ]
    for n, avg, last in ((3, 0.5, 0.5), (6, 0.375, 0.25), (11, 0.3, 0.2125), (22, 0.25, 0.2)):
        lines.append(f"{avg:<10.6f} {last:<10.6f} {n:>8d} {float(n):>11.1f} {0.0:>8.4f} {1.0:>8.4f} {4:>8d}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [3, 6, 11, 22]
    assert list(parsed.rows["loss"]) == [0.5, 0.375, 0.3, 0.25]
    assert list(parsed.rows["x_since_last"]) == [0.5, 0.25, 0.2125, 0.2]


@pytest.mark.parametrize(
    ("rates", "images", "lr", "samples"),
    [
        # a rate that jumps up and down twice is no schedule; a count of images that stays is the batch
        ((0.01, 0.5, 0.02, 0.6), (64, 64, 64, 64), None, None),
        # a count that rises by different numbers a step is not the samples consumed
        ((0.01, 0.01, 0.01, 0.01), (64, 200, 210, 500), 0.01, None),
    ],
)
def test_rate_and_images_read_by_their_values_only_where_they_behave(write_log, rates, images, lr, samples):
    fmt = "%d: %f, %f avg, %f rate, %f seconds, %d images"
    lines = [
        fmt % (i, 5.0, 5.5, r, 2.0, n) for i, (r, n) in enumerate(zip(rates, images, strict=True), start=1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert ("lr" in parsed.rows and list(parsed.rows["lr"]) == [lr] * 4) if lr else "lr" not in parsed.rows
    assert "consumed_samples" not in parsed.rows and samples is None


def test_a_total_of_known_quantities_is_no_loss(write_log):
    # a timing table (a loop printing ('%10s' * 4) % ('step', 'data_time', 'fwd_time', 'total') and its rows):
    # a total of times, not of loss terms
    header = ("%10s" * 4) % ("step", "data_time", "step_time", "total")
    lines = [header, *(("%10d" + "%10.3f" * 3) % (s, 0.1, 0.3, 0.4) for s in (10, 20, 30))]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30]
    assert "loss" not in parsed.rows


def test_a_results_row_under_a_validators_header_is_an_evaluation(write_log):
    # ultralytics/engine/trainer.py: per epoch the header ("%11s" * 5) % ("Epoch", "GPU_mem", "loss", "Instances",
    # "Size") and the row ("%11s" * 2 + "%11.4g" * 3) % (f"{epoch}/{epochs}", f"{mem:.3g}G", loss, n, size) with
    # its bar after ": "; then ultralytics/models/yolo/classify/val.py: the validator's bar described
    # ("%22s" + "%11s" * 2) % ("classes", "top1_acc", "top5_acc") and its result ("%22s" + "%11.3g" * 2) %
    # ("all", top1, top5), a row led by a name
    lines = []
    for epoch, (loss, top1) in enumerate(((1.397, 0.25), (1.464, 0.3125), (1.396, 0.5781)), start=1):
        lines += [
            "",
            ("%11s" * 5) % ("Epoch", "GPU_mem", "loss", "Instances", "Size"),
            ("%11s" * 2 + "%11.4g" * 3) % (f"{epoch}/3", "0G", loss, 16, 32)
            + ": 100% ━━━━━━━━━━━━ 12/12 15.3it/s 0.8s",
            ("%22s" + "%11s" * 2) % ("classes", "top1_acc", "top5_acc")
            + ": 100% ━━━━━━━━━━━━ 2/2 43.1it/s 0.0s",
            ("%22s" + "%11.3g" * 2) % ("all", top1, 1.0),
        ]
    run = api.resolve(write_log("\n".join(lines) + "\n"))
    assert list(run.steps["step"]) == [1, 2, 3]
    assert list(run.steps["loss"]) == [1.397, 1.464, 1.396]
    assert sorted({int(e["step"]) for e in evals(run.parsed)}) == [1, 2, 3]  # after each epoch


def test_a_csv_table_under_its_header(write_log):
    # Lightning's CSVLogger metrics.csv printed to the console: a header, then one row per logged step
    lines = ["train/loss_step,global_step,epoch,created_at"]
    lines += [f"0.{9 - s},{s * 50 - 1}.0,0,2025-11-07 06:0{s}:10.484610" for s in range(1, 5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [49, 99, 149, 199]  # global_step, printed as a float
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 2)["timestamp"] == 60.0


def test_a_warning_that_numbers_its_step_is_no_step(write_log):
    # Sanulajr/surgeon_attention: `[WARNING] Low attention weight detected: min=... (batch B, step S)` between the
    # `[INFO] Epoch 1 [i/1855] total=... pose=... gaze=...` records
    lines = []
    for i in range(1, 9):
        lines.append(
            f"[2025-10-27 03:0{i}:40] [INFO] Epoch 1 [{20 * i}/1855] total={900 + i}.5 pose={900 + i}.4 gaze=0.1"
        )
        if i % 2:
            lines.append(
                f"[2025-10-27 03:0{i}:50] [WARNING] Low attention weight detected: min=0.0{i} "
                f"(batch {20 * i + 5}, step {20 * i + 5})"
            )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20 * i for i in range(1, 9)]
    # logged at INFO, the same line is a record of its own steps, beside records that print no loss
    info = [line.replace("[WARNING]", "[INFO]").replace(" total=", " t=") for line in lines]
    parsed = frame(write_log("\n".join(info) + "\n"))
    assert 25 in steps_of(parsed)


def test_the_folds_of_a_cross_validation_are_runs_whose_epochs_start_again(write_log):
    # jananjahedd/Group-12-LLM: `Fold k/3` then `... Fold k - Epoch e - Train Loss: ... - Val Loss: ...`; the fold
    # numbers a training of its own, the epoch is the step, and no fold's rows are lost as a restart's
    lines = []
    for fold in (1, 2, 3):
        lines.append(f"2024-10-25 13:2{fold}:26,880 - INFO - Fold {fold}/3")
        for epoch in (1, 2):
            lines.append(
                f"2024-10-25 13:2{fold}:3{epoch},235 - INFO - prompt_engineered Fold {fold} - Epoch {epoch} - "
                f"Train Loss: 0.0{fold}{epoch}3 - Val Loss: 0.00{fold}{epoch} - Val Accuracy: 0.71"
            )
    log = write_log("\n".join(lines) + "\n")
    assert steps_of(frame(log)) == [1, 2, 1, 2, 1, 2]
    run = api.resolve(log)
    every = run.all_steps
    assert every["step"].tolist() == [1, 2, 1, 2, 1, 2]
    assert every["loss"].tolist() == [0.0113, 0.0123, 0.0213, 0.0223, 0.0313, 0.0323]
    assert every["run"].tolist() == [0, 0, 1, 1, 2, 2]
    assert run.restarts == [] and run.redone is not None and run.redone.empty


def test_a_csv_row_whose_first_cell_is_its_stamp(write_log):
    # a training script's csv of epochs, its first column a stamp to the second (Ananyo-Sen-B2530066/DL-Video-
    # Analysis): the comma after the stamp opens the next cell, it is no fraction of a second (Python logging's
    # `,%03d` msecs are three digits that end the stamp)
    lines = ["timestamp,epoch,train_loss,val_loss,epoch_time_sec"]
    lines += [f"2026-04-23 11:1{e}:34,{e},1.9{e},1.8{e},27.{e}" for e in range(1, 5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert [row_at(parsed, e + 1)["loss"] for e in range(1, 5)] == [1.91, 1.92, 1.93, 1.94]
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 2)["timestamp"] == 60.0


def test_a_csv_header_whose_names_are_a_few_words(write_log):
    # a training script's own csv.writer: writer.writerow(["Epoch", "Total Steps", "Avg Training Loss", "Avg
    # Validation Loss", "Time per Epoch (seconds)"]), then a row an epoch
    rows = [(1, 7.0976, 6.8598, 905.94), (2, 6.0604, 6.5952, 847.48), (3, 5.6813, 6.4702, 820.66)]
    lines = ["Epoch,Total Steps,Avg Training Loss,Avg Validation Loss,Time per Epoch (seconds)"]
    lines += [f"{e},121,{loss},{val},{t}" for e, loss, val, t in rows]
    parsed = frame(write_log("\r\n".join(lines) + "\r\n"))
    assert steps_of(parsed) == [1, 2, 3]
    assert [row_at(parsed, k + 2)["loss"] for k in range(3)] == [r[1] for r in rows]
    assert [row_at(parsed, k + 2)["eval_loss"] for k in range(3)] == [r[2] for r in rows]


def test_a_csv_row_that_opens_with_a_text_cell_and_leaves_cells_empty(write_log):
    # Kevin-Li-2025/l20-edu-135m-pretrain scripts/plot_training_curves.py _write_csv: the columns event,step,tokens,
    # tokens_b,loss,perplexity,lr,tokens_per_sec_window,source from the loop's records, a train record's perplexity
    # and source left empty, an eval record's lr and rate
    lines = ["event,step,tokens,tokens_b,loss,perplexity,lr,tokens_per_sec_window,source"]
    for step in (10, 20, 30, 40):
        lines.append(
            f"train,{step},{step * 528384},{step * 0.000528:.6f},{11 - step / 10},,{step}e-06,3821{step},"
        )
    lines.append("eval,40,21135360,0.021135,9.5,13359.7,,,")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    assert list(parsed.rows["loss"]) == [10.0, 9.0, 8.0, 7.0]
    assert list(parsed.rows["lr"]) == [1e-5, 2e-5, 3e-5, 4e-5]
    assert list(parsed.rows["tokens_per_s"]) == [382110, 382120, 382130, 382140]  # (over the window)
    assert [e["eval_loss"] for e in evals(parsed)] == [9.5]


def test_a_tab_table_whose_cells_hold_a_value_and_its_aside(write_log):
    # tensorflow/benchmarks scripts/tf_cnn_benchmarks/benchmark_cnn.py: the header 'Step\tImg/sec\t' + loss name,
    # then every display_every steps '%i\t%s\t%.*f' % (step + 1, 'images/sec: %.1f +/- %.1f (jitter = %.1f)' %
    # (mean, uncertainty, jitter), loss): the middle cell names its own value and prints an error and a jitter
    # after it, asides no value of the step's; then the run's summary between dashed rules
    rows = [(1, 140.0, 0.0, 0.0, 8.186), (10, 139.6, 0.1, 0.3, 8.137), (20, 139.5, 0.1, 0.4, 7.969)]
    lines = ["Step\tImg/sec\ttotal_loss"]
    lines += [
        f"{s}\timages/sec: {m:.1f} +/- {u:.1f} (jitter = {j:.1f})\t{loss:.3f}" for s, m, u, j, loss in rows
    ]
    lines += ["-" * 64, "total images/sec: 138.95", "-" * 64]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 10, 20]
    assert list(parsed.rows["loss"]) == [8.186, 8.137, 7.969]
    assert list(parsed.rows["samples_per_s"]) == [140.0, 139.6, 139.5]
    assert not any(c.startswith("x_") for c in parsed.rows)  # the error and the jitter are no columns


def test_a_table_redrawn_under_its_header_with_units_in_the_cells(write_log):
    # nerfstudio/utils/writer.py LocalWriter: the header f"{'Step (% Done)':<20}" + f"{name:<20} " per stat, a rule
    # "-" * len(header), then the row f"{step} ({fraction_done*100:.02f}%)" padded to 20 and each stat padded to 20
    # (a time through _format_time: `43.140 ms`, `39 s, 300.687 ms`; rays through human_format: `14.86 M`); printed
    # through Rich's console logging, which adds the caller's `file.py:line` at the right edge
    # (maturk/dn-splatter#110 shows it: the header again before every row)
    names = ["Train Iter (time)", "ETA (time)", "Train Rays / Sec"]
    header = f"{'Step (% Done)':<20}" + "".join(f"{n:<20} " for n in names)
    lines = []
    cells = [
        (4090, "43.140 ms", "39 s, 300.687 ms", "14.86 M"),
        (4210, "46.225 ms", "36 s, 563.607 ms", "13.93 M"),
        (4310, "44.431 ms", "30 s, 701.883 ms", "14.51 M"),
    ]
    for step, iter_time, eta, rays in cells:
        row = f"{f'{step} ({step / 5001 * 100:.02f}%)':<20}" + "".join(
            f"{v:<20} " for v in (iter_time, eta, rays)
        )
        lines += [f"{header:<104}trainer.py:604", f"{'-' * len(header):<104}trainer.py:554"]
        lines += [f"{row:<104}trainer.py:566"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [4090, 4210, 4310]
    # the iteration's time, in ms; the ETA is no time of the step, rays a second no time at all
    assert list(parsed.rows["step_time_s"]) == pytest.approx([0.04314, 0.046225, 0.044431], rel=1e-12)


def test_a_table_of_printed_lists_reads_no_item_of_them(write_log):
    # lululxvi/deepxde deepxde/display.py TrainingDisplay: print_one("{:{l1}s}{:{l2}s}{:{l3}s}{:{l4}s}") with
    # l1 = 10 and each list column len(list) * 8 + 8 wide, the header ("Step", "Train loss", "Test loss", "Test
    # metric"), then per display_every steps str(step) and list_to_str of the loss terms ("[{:.2e}, ...]"): which
    # term, or their sum, is the loss the code optimizes is not printed; a list of one number is that number
    def show(*cells: str) -> str:
        return "{:10s}{:24s}{:24s}{:16s}".format(*cells)

    lines = ["Training model...", "", show("Step", "Train loss", "Test loss", "Test metric")]
    for step, (a, b, metric) in zip(
        (0, 1000, 2000), ((1810.0, 269.0, 1.14), (15.5, 2.02, 0.94), (2.71, 0.305, 0.753)), strict=True
    ):
        lines.append(show(str(step), f"[{a:.2e}, {b:.2e}]", f"[{a * 2:.2e}, {b * 2:.2e}]", f"[{metric:.2e}]"))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1000, 2000]
    assert "loss" not in parsed.rows or parsed.rows["loss"].isna().all()
    assert not evals(parsed)  # the test columns ride on the step's row, as a row's val_loss does
    assert {"Train loss", "Test loss"} <= set(parsed.keymap["skipped"])  # said, not dropped


def test_a_header_printed_over_two_lines_and_a_counter_that_is_not_the_first_column(write_log):
    # VowpalWabbit/vowpal_wabbit's progress table (its tutorials show it): the header "average  since
    # example        example  current  current  current" over "loss     last          counter         weight
    # label  predict features", then a row each time the example counter doubles, "%.6f %.6f %12d %14.1f %8.4f
    # %8.4f %8d" in effect: the average loss so far, the loss since the last row, the example counter, the weight
    lines = [
        "num sources = 1",
        "average  since         example        example  current  current  current",
        "loss     last          counter         weight    label  predict features",
    ]
    for n, (avg, since) in zip(
        (1, 2, 4, 8, 16),
        ((0.693147, 0.693147), (0.51332, 0.333493), (0.418169, 0.323018), (0.700157, 0.982144), (0.6, 0.5)),
        strict=True,
    ):
        lines.append(f"{avg:.6f} {since:.6f} {n:12d} {n:14.1f} {-1.0:8.4f} {0.0:8.4f} {38:8d}")
    lines += ["", "finished run", "number of examples = 16", "average loss = 0.600000"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 4, 8, 16]  # the example counter, a column of its own


@pytest.mark.parametrize(
    "printer",
    [
        # Jayant-Guru-Shrivastava/ERAV4-Session11-shakespeare-gpt2-124M train.py: f.write("step\tloss\n") once,
        # then f.write(f"{step}\t{loss_val:.6f}\n") every log interval
        lambda rows: ["step\tloss", *(f"{s}\t{v:.6f}" for s, v in rows)],
        # Python's csv.writer (Lib/csv.py, the excel dialect): writerow(["step", "loss"]), then a row per step
        lambda rows: ["step,loss", *(f"{s},{v}" for s, v in rows)],
        # tabulate's "simple" format (astanin/python-tabulate tabulate/__init__.py): each column as wide as its
        # widest cell and the header plus 2, numbers right-aligned, a dashed rule under the header, two blanks
        lambda rows: ["  step    loss", "------  ------", *(f"{s:>6}  {v:>6}" for s, v in rows)],
    ],
    ids=["tsv", "csv", "tabulate-simple"],
)
def test_a_table_of_two_columns_under_a_header_of_two_names(write_log, printer):
    # two names over rows of two numbers, one of which rises: a header (a line of two words alone is not, nor is
    # a title of two words above it the header's upper half)
    rows = [(100, 7.25), (200, 6.5), (300, 6.125), (400, 5.75)]
    lines = ["Using device: cpu", "Training Log", *printer(rows), "Saved checkpoint"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert list(parsed.rows.loc[parsed.rows["kind"] == "step", "loss"]) == [7.25, 6.5, 6.125, 5.75]
    assert set(parsed.keymap["mapped"]) == {"loss"}


def _turicreate_table(rows: list[tuple[object, str, object]]) -> list[str]:
    """apple/turicreate src/core/logging/table_printer/table_printer.hpp print_header/print_row/print_footer: a rule
    of `+` and dashes, `|` then per cell ' ' + the value left-aligned to the column's width + ' |'
    (table_element_printers.cpp _print_string); the columns as wide as their names."""
    names, widths = ("Iteration", "Elapsed Time", "Loss"), (9, 12, 8)
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells: tuple[object, ...]) -> str:
        return "|" + "".join(f" {str(c):<{w}} |" for c, w in zip(cells, widths, strict=True))

    return [rule, line(names), rule, *(line(r) for r in rows), rule]


def _prettytable(names: list[str], rows: list[tuple[object, ...]]) -> list[str]:
    """prettytable's default style (prettytable/prettytable.py): a `+---+` rule above and below the header and at
    the end, cells centred in their column (str.center) with a blank on each side, `|` between."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max(len(n), *(len(r[k]) for r in cells)) for k, n in enumerate(names)]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(values: list[str]) -> str:
        return "|" + "|".join(f" {v.center(w)} " for v, w in zip(values, widths, strict=True)) + "|"

    return [rule, line(names), rule, *(line(r) for r in cells), rule]


def _tabulate_psql(names: list[str], rows: list[tuple[object, ...]]) -> list[str]:
    """tabulate's "psql" format (tabulate/__init__.py): `+---+` rules, `|` between cells padded by a blank, numbers
    and their names right-aligned, the rule under the header drawn `|---+---|`."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max(len(n), *(len(r[k]) for r in cells)) for k, n in enumerate(names)]

    def line(values: list[str]) -> str:
        return "|" + "|".join(f" {v:>{w}} " for v, w in zip(values, widths, strict=True)) + "|"

    dashes = ["-" * (w + 2) for w in widths]
    return ["+" + "+".join(dashes) + "+", line(names), "|" + "+".join(dashes) + "|", *map(line, cells)] + [
        "+" + "+".join(dashes) + "+"
    ]


def _rich_table(names: list[str], rows: list[tuple[object, ...]]) -> list[str]:
    """Rich's Table printed with its default box (rich/box.py HEAVY_HEAD, rich/table.py): the header between `┃`
    under a heavy rule `┏━┳━┓`, a `┡━╇━┩` rule under it, the rows between `│`, cells left-aligned and padded by
    a blank, a `└─┴─┘` rule at the end."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max(len(n), *(len(r[k]) for r in cells)) for k, n in enumerate(names)]

    def line(values: list[str], bar: str) -> str:
        return bar + bar.join(f" {v:<{w}} " for v, w in zip(values, widths, strict=True)) + bar

    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    return [
        rule("┏", "━", "┳", "┓"),
        line(names, "┃"),
        rule("┡", "━", "╇", "┩"),
        *(line(r, "│") for r in cells),
        rule("└", "─", "┴", "┘"),
    ]


def test_a_bordered_table_under_its_header(write_log):
    # turicreate's table printer: Iteration, the progress time since training began (_print_time: `45us`,
    # `512ms`, `1.52s`, then `1m 4s`), the loss; its last row `FINAL` is no step
    rows = [(0, "45us", 5.2557), (100, "512ms", 5.40362), (200, "1.52s", 4.875), (300, "9.07s", 4.5)]
    rows += [(400, "1m 4s", 4.25), ("FINAL", "1m 5s", 4.25)]
    parsed = frame(write_log("\n".join(["Training object detector", *_turicreate_table(rows)]) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300, 400]
    got = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(got["loss"]) == [5.2557, 5.40362, 4.875, 4.5, 4.25]
    # the time since training began, as printed: 45 us, 512 ms, 1.52 s, 9.07 s, 1 min 4 s
    assert list(got["train_elapsed_s"]) == pytest.approx([45e-6, 0.512, 1.52, 9.07, 64.0], rel=1e-12)
    # a duration under that name that goes back (a clock started again each epoch) is no time since the start
    times = ((100, "1m 4s"), (200, "2m 9s"), (300, "1m 3s"), (400, "2m 8s"), (500, "1m 2s"))
    back = [(k, t, 4.0) for k, t in times]
    parsed = frame(write_log("\n".join(_turicreate_table(back)) + "\n", "back.log"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert "train_elapsed_s" not in parsed.rows or parsed.rows["train_elapsed_s"].isna().all()


@pytest.mark.parametrize(
    "printer", [_prettytable, _tabulate_psql, _rich_table], ids=["prettytable", "psql", "rich"]
)
def test_a_bordered_table_of_any_printer(write_log, printer):
    rows = [(10, 2.5, "7ms"), (20, 2.25, "6ms"), (30, 2.125, "8ms")]
    parsed = frame(write_log("\n".join(printer(["Step", "Train Loss", "Step Time"], rows)) + "\n"))
    assert steps_of(parsed) == [10, 20, 30]
    got = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(got["loss"]) == [2.5, 2.25, 2.125]
    assert list(got["step_time_s"]) == pytest.approx([0.007, 0.006, 0.008], rel=1e-12)
    # two columns are enough under a border
    two = frame(write_log("\n".join(printer(["Step", "Loss"], [r[:2] for r in rows])) + "\n", "two.log"))
    assert steps_of(two) == [10, 20, 30]


@pytest.mark.parametrize(
    "rule",
    ["-- | -- | -- | --", "---|:---|---:|:---:", "| --- | --- | --- | --- |"],
    ids=["pasted", "aligned", "bordered"],
)
def test_a_markdown_table_of_a_notebooks_trainer_with_long_names_and_text_cells(write_log, rule):
    # transformers/utils/notebook.py NotebookProgressCallback: an HTML table of `Step`, `Training Loss`, `Validation
    # Loss` and each metric (text_to_html_table writes a float f"{elt:.6f}"; on_evaluate writes "No log" for a loss
    # not logged yet), which a notebook's user pastes into an issue as markdown (GitHub writes its rule `-- | --`);
    # TRL's GRPO trainer adds f"rewards/{reward_func_name}/mean" per reward function (trl/trainer/grpo_trainer.py),
    # names of more than 40 letters
    names = ["Step", "Training Loss", "Validation Loss", "rewards / check_grounding_references_from_response"]
    bordered = rule.startswith("|")
    lines = [("| " + " | ".join(names) + " |") if bordered else " | ".join(names), rule]
    rows = [
        (10, "No log", 1.5, -16.0),
        (20, 0.875, 1.25, -10.5),
        (30, 0.75, 1.125, 2.0),
        (40, 0.625, 1.0, 8.5),
    ]
    for row in rows:
        cells = " | ".join(f"{v:.6f}" if isinstance(v, float) else str(v) for v in row)
        lines.append(f"| {cells} |" if bordered else cells)
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == [20, 30, 40]
    got = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(got["loss"]) == [0.875, 0.75, 0.625]
    assert list(got["eval_loss"]) == [1.25, 1.125, 1.0]  # the cell's own column, past the row of text
    # the row whose training loss is "No log" holds an evaluation alone: its validation loss, at its step
    (first,) = evals(parsed)
    assert first["step"] == 10 and first["eval_loss"] == 1.5


def test_a_bordered_table_logged_as_one_message_behind_the_loggers_prefix(write_log):
    # logging.info(tabulate(rows, headers, tablefmt="github")) at every log interval: Python's logging Formatter
    # ("%(asctime)s - %(name)s - %(levelname)s - %(message)s", Lib/logging/__init__.py) prefixes the message's
    # first line only, the header's; tabulate's "github" format: `| name |` cells, numbers right-aligned, a
    # `|---|` rule under the header
    lines = []
    for k, (step, loss) in enumerate(((10, 2.875), (20, 2.75), (30, 2.5), (40, 2.375))):
        lines += [
            f"2025-03-01 10:00:{k:02d},120 - train - INFO - |   step |   loss |     lr |",
            "|--------|--------|--------|",
            f"| {step:>6} | {loss:>6} | 0.0003 |",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    got = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(got["loss"]) == [2.875, 2.75, 2.5, 2.375] and list(got["lr"]) == [3e-4] * 4


def test_a_table_whose_names_are_several_words_each(write_log):
    # a hand-written loop's table, as many training scripts print it: the header f"{'Epoch':<6} {'Train Loss':<12}
    # {'Train Acc':<12} {'Val Loss':<12} {'Val Acc':<12}" and a dashed rule, then per epoch f"{epoch+1:<6}
    # {train_loss:<12.4f} ..." with a note between rows; the names' words are no columns of their own
    header = f"{'Epoch':<6} {'Train Loss':<12} {'Train Acc':<12} {'Val Loss':<12} {'Val Acc':<12}"
    lines = ["Starting training for 4 epochs...", header, "-" * 70]
    for e, (tl, ta, vl, va) in enumerate(((0.75, 0.5, 0.875, 0.25), (0.625, 0.625, 0.8125, 0.5)), start=1):
        lines.append(f"{e:<6} {tl:<12.4f} {ta:<12.4f} {vl:<12.4f} {va:<12.4f}")
        lines.append(f"  -> New best validation accuracy: {va:.4f}")
    for e, tl in ((3, 0.5), (4, 0.375)):
        lines.append(f"{e:<6} {tl:<12.4f} {0.75:<12.4f} {0.8:<12.4f} {0.5:<12.4f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    got = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(got["loss"]) == [0.75, 0.625, 0.5, 0.375]
    assert list(got["eval_loss"]) == [0.875, 0.8125, 0.8, 0.8]
    assert not any(c in ("x_train", "x_val") for c in parsed.rows)  # (a name's first word read as a column)
    # two names over a column each, the second of two words
    two = [f"{'Step':<8}{'Train Loss':<12}"]
    two += [f"{s:<8}{v:<12.4f}" for s, v in ((5, 0.25), (6, 0.125), (7, 0.0625))]
    parsed = frame(write_log("\n".join(two) + "\n", "two.log"))
    assert steps_of(parsed) == [5, 6, 7]
    assert list(parsed.rows["loss"]) == [0.25, 0.125, 0.0625]


@pytest.mark.parametrize(
    "prefix",
    [
        # Python logging's Formatter (Lib/logging/__init__.py) with "%(asctime)s - %(name)s - %(levelname)s -
        # %(message)s", and with "[%(asctime)s] %(levelname)s: %(message)s"
        lambda k: f"2025-03-01 10:00:{k:02d},120 - train - INFO - ",
        lambda k: f"[2025-03-01 10:00:{k:02d},120] INFO: ",
        # logging.basicConfig()'s default, BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s": a prefix that holds
        # no value
        lambda k: "INFO:root:",
    ],
    ids=["dashes", "brackets", "basic_format"],
)
def test_a_table_logged_line_by_line_behind_the_loggers_prefix(write_log, prefix):
    # logger.info of the header's text, then of each row's: every line behind the logger's prefix, the columns
    # standing where the header's names stand after it
    lines = [prefix(0) + "Starting training", prefix(0) + f"{'step':>6} {'loss':>8} {'lr':>10}"]
    rows = [(10, 2.875), (20, 2.75), (30, 2.5), (40, 2.375)]
    lines += [prefix(k + 1) + f"{s:>6} {v:>8.4f} {3e-4:>10.2e}" for k, (s, v) in enumerate(rows)]
    # a bordered table logged so, two columns
    bordered = [prefix(0) + "| step | loss |"]
    bordered += [prefix(k + 1) + f"| {s:>4} | {v:.3f} |" for k, (s, v) in enumerate(rows)]
    for text in (lines, bordered):
        parsed = frame(write_log("\n".join(text) + "\n"))
        assert steps_of(parsed) == [10, 20, 30, 40]
        got = parsed.rows[parsed.rows["kind"] == "step"]
        assert list(got["loss"]) == [2.875, 2.75, 2.5, 2.375]
        if prefix(0) != prefix(1):  # the prefix's stamps are the rows'
            assert list(got["timestamp"] - got["timestamp"].iloc[0]) == [0.0, 1.0, 2.0, 3.0]


def test_a_grid_table_whose_batch_column_rises_once_in_a_short_paste_reads_its_rows_as_steps(write_log):
    # wenet-e2e/wespeaker wespeaker/bin/train.py: tp.header(['Epoch', 'Batch', 'Lr', 'Margin', 'Loss', 'Acc'],
    # width=10, style='grid') on rank 0, then utils/executor.py run_epoch: tp.row((epoch, i + 1,
    # scheduler.get_lr(), margin, loss, acc)) on every rank, each behind the logger's "[ %(levelname)s :
    # %(asctime)s ] - "; a paste cut after the second logged batch
    prefix = "[ INFO : 2023-01-28 11:1{}:{:02d},139 ] - "
    rule = "+" + "+".join(["-" * 10] * 6) + "+"
    lines = [
        prefix.format(2, 5) + rule,
        prefix.format(2, 5)
        + "|"
        + "|".join(f"{n:>10}" for n in ("Epoch", "Batch", "Lr", "Margin", "Loss", "Acc"))
        + "|",
        prefix.format(2, 5) + rule,
    ]
    lines += [prefix.format(2, 55) + "Reducer buckets have been rebuilt in this iteration."] * 2
    for k, (batch, lr, losses) in enumerate(
        ((100, 0.044737, (8.835, 8.83)), (200, 0.088367, (8.8855, 8.8919)))
    ):
        for loss in losses:
            cells = (1, batch, lr, 0, loss, 0.25)
            lines.append(prefix.format(3 + k, 46) + "|" + "|".join(f"{c:>10}" for c in cells) + "|")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 100, 200, 200]
    assert row_at(parsed, 7)["loss"] == 8.83 and row_at(parsed, 8)["lr"] == 0.088367
    # the same table with no lr column is no run of steps: a batch-size sweep's two rows
    sweep = [line for line in lines if "Reducer" not in line]
    sweep = ["|".join(c for j, c in enumerate(line.split("|")) if j != 3) for line in sweep]
    with pytest.raises(UnrecognisedLog):
        frame(write_log("\n".join(sweep) + "\n", "sweep.log"))


def test_a_whitespace_table_logged_as_one_message(write_log):
    # logger.info(history.to_string()) and logger.info(tabulate(rows, headers)) (tabulate's "simple" format): the
    # logger's prefix (Lib/logging/__init__.py, "%(asctime)s - %(name)s - %(levelname)s - %(message)s") on the
    # header's line only, the rows bare, the names standing over them where the message begins
    prefix = "2025-03-01 10:00:00,120 - train - INFO - "
    history = pd.DataFrame({"step": [50 * k for k in range(1, 12)], "loss": [4 - k / 8 for k in range(11)]})
    text = history.to_string().split("\n")
    parsed = frame(write_log(prefix + "training history\n" + prefix + "\n".join(text) + "\n"))
    assert steps_of(parsed) == [50 * k for k in range(1, 12)]
    assert list(parsed.rows.loc[parsed.rows["kind"] == "step", "loss"]) == [4 - k / 8 for k in range(11)]
    simple = [f"{'step':>6}  {'loss':>6}  {'lr':>6}", "------  ------  ------"]
    simple += [f"{s:>6}  {v:>6}  {3e-4:>6}" for s, v in ((10, 2.875), (20, 2.75), (30, 2.5))]
    parsed = frame(write_log(prefix + "\n".join(simple) + "\n", "simple.log"))
    assert steps_of(parsed) == [10, 20, 30]
    assert list(parsed.rows["loss"]) == [2.875, 2.75, 2.5] and list(parsed.rows["lr"]) == [3e-4] * 3


@pytest.mark.parametrize("columns", [["step", "loss", "lr"], ["step", "loss"]])
def test_a_data_frame_printed_with_its_index(write_log, columns):
    # pandas' DataFrame.to_string (print(df)): the index a first column under no name, left of the header's first
    # name (pandas/io/formats/format.py DataFrameFormatter); eleven rows, so the index grows to two digits
    history = pd.DataFrame(
        {"step": [50 * k for k in range(1, 12)], "loss": [4 - k / 8 for k in range(11)], "lr": [3e-4] * 11}
    )
    parsed = frame(write_log("history:\n" + history[columns].to_string() + "\n"))
    assert steps_of(parsed) == [50 * k for k in range(1, 12)]
    got = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(got["loss"]) == [4 - k / 8 for k in range(11)]


def test_a_table_that_counts_no_steps_gives_no_rows(write_log):
    steps = [f"step {s} | loss {3 - s / 100:.2f} | lr 0.0003" for s in (10, 20, 30, 40)]
    # a table of results printed once, two rows (the epochs' summary at the end)
    summary = (
        ("%10s" * 3) % ("epoch", "acc", "f1"),
        *(("%10d" + "%10.2f" * 2) % r for r in ((1, 0.71, 0.65), (2, 0.78, 0.7))),
    )
    parsed = frame(write_log("\n".join([*steps, *summary]) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    # an evaluation's table whose first column rises but counts no step (recall at k = 1, 2, 3)
    topk = _tabulate_psql(["k", "recall"], [(1, 0.51), (2, 0.77), (3, 0.86)])
    parsed = frame(write_log("\n".join([*steps, *topk]) + "\n", "topk.log"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    # a model's summary in Rich's box (Keras 3's model.summary(), Lightning's RichModelSummary): rows led by
    # names; a config table of names and values (prettytable)
    layers = [("dense (Dense)", "(None, 64)", "50,240"), ("dense_1 (Dense)", "(None, 10)", "650")]
    model = _rich_table(["Layer (type)", "Output Shape", "Param #"], layers)
    config = _prettytable(["param", "value"], [("lr", 0.0003), ("batch", 32), ("epochs", 10)])
    parsed = frame(write_log("\n".join([*model, *config, *steps]) + "\n", "summary.log"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    # a log that is nothing but a table of two rows: no run of steps to read
    only = write_log("\n".join(summary) + "\n", "only.log")
    assert run_apart(["analyze", str(only)]).exit_code == 1


def test_boosting_rounds_keyed_by_a_bracketed_counter(write_log):
    # dmlc/xgboost python-package/xgboost/callback.py print_evaluation: '[%d]\t%s\n' % (i, '\t'.join of
    # '{0}:{1:.5f}' per (data-metric, value) of the watch list); microsoft/LightGBM python-package/lightgbm/
    # callback.py print_evaluation: '[%d]\t%s' of "%s's %s: %g" per (data, metric, value). The training set's log
    # loss is the objective's (the loss); the evaluation set's rides on the round's row, as a step line's val_loss
    xgb = ["Will train until eval-logloss hasn't improved in 1000 rounds."]
    xgb += [
        f"[{r}]\teval-logloss:{0.4 + r / 1e4:.5f}\ttrain-logloss:{0.2 - r / 1e4:.5f}"
        for r in (500, 1000, 1500)
    ]
    parsed = frame(write_log("\n".join(xgb) + "\n"))
    assert steps_of(parsed) == [500, 1000, 1500]
    assert list(parsed.rows["loss"]) == [0.15, 0.1, 0.05]
    assert not evals(parsed)
    lgb = [
        f"[{r}]\ttraining's binary_logloss: {0.6 - r / 100:g}\tvalid_1's binary_logloss: {0.7:g}"
        for r in (1, 2, 3)
    ]
    parsed = frame(write_log("\n".join(lgb) + "\n", "lgb.log"))
    assert steps_of(parsed) == [1, 2, 3]
    assert list(parsed.rows["loss"]) == [0.59, 0.58, 0.57]
    # a regression's default metric, no loss word: still the training rounds, the loss not named
    rmse = [f"[{r}]\ttrain-rmse:{2 - r / 10:.5f}\teval-rmse:{2.5 - r / 10:.5f}" for r in range(4)]
    parsed = frame(write_log("\n".join(rmse) + "\n", "rmse.log"))
    assert steps_of(parsed) == [0, 1, 2, 3] and not evals(parsed)
    assert list(parsed.rows["x_train_rmse"]) == [2.0, 1.9, 1.8, 1.7]


def test_iterations_keyed_by_a_counter_and_a_colon_with_the_clock_since_start(write_log):
    # CatBoost's progress output (catboost/catboost#1028 shows it): "<iter>:\tlearn: <v>\ttest: <v>\tbest: <v>
    # (<iter>)\ttotal: <elapsed>\tremaining: <eta>"; `learn` is the objective on the learn set, `total` the time
    # since training began, printed with its unit
    lines = [
        f"{i}:\tlearn: {0.95 + i / 1e4:.7f}\ttest: 0.8332978\tbest: 0.8356368 (1)\ttotal: {t}s\tremaining: 1h 42m {s}s"
        for i, t, s in ((87, 45.4, 22), (88, 45.9, 18), (89, 46.5, 27), (90, 47.1, 38))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [87, 88, 89, 90]
    assert list(parsed.rows["loss"]) == [0.9587, 0.9588, 0.9589, 0.959]
    assert list(parsed.rows["train_elapsed_s"]) == [45.4, 45.9, 46.5, 47.1]
    # a total of something named grows the same way and is no clock: the loader's wait summed
    summed = [f"step {s} loss {2 - s / 100:.2f} total data: {1.5 * s:.1f}s" for s in range(1, 6)]
    parsed = frame(write_log("\n".join(summed) + "\n", "summed.log"))
    assert "train_elapsed_s" not in parsed.rows
    assert list(parsed.rows["x_total_data_s"]) == [1.5, 3, 4.5, 6, 7.5]


def test_steps_that_print_their_epoch_under_a_line_that_states_the_epochs_lr(write_log):
    # kaldi-asr/kaldi egs/aishell/s10/chain/train.py: per epoch logging.info('epoch {}, learning rate {}'), then every
    # 100 batches 'Process {}/{}({:.6f}%) global average objf: {:.6f} over {} frames, current batch average objf:
    # {:.6f} over {} frames, epoch {}' behind logging's "%(asctime)s %(levelname)s [%(filename)s:%(lineno)d]": the
    # step lines print the epoch, no worker's counter; objf is an objective to maximise, no loss
    lines = ["2020-01-31 16:17:23,226 INFO [train.py:185] epoch 0, learning rate 0.001"]
    for k, b in enumerate((0, 100, 200, 300)):
        lines.append(
            f"2020-01-31 16:{17 + k}:23,536 INFO [train.py:102] Process {b}/3161({b / 3161 * 100:.6f}%) global average "
            f"objf: -{1.19 - k / 10:.6f} over {6400.0 * (b + 1)} frames, current batch average objf: -0.457086 over "
            "6400 frames, epoch 0"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300]
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 2)["timestamp"] == 60.0


def test_a_throughput_without_a_unit_counts_samples(write_log):
    # Oneflow-Inc/OneFlow-Benchmark LanguageModeling/BERT/util.py Metric: ', '.join of 'step: {}' and
    # '{}: {:.3f}' over total_loss, mlm_loss, nsp_loss and throughput = samples over the interval / its seconds
    lines = [
        f"step: {s}, total_loss: {11 - s / 100:.3f}, mlm_loss: 10.407, nsp_loss: 0.671, throughput: {140 + s / 10:.3f}"
        for s in (19, 39, 59)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [19, 39, 59]
    row = row_at(parsed, 2)
    assert row["samples_per_s"] == 143.9 and row["loss"] == 10.61
    assert "tokens_per_s" not in parsed.rows or math.isnan(row["tokens_per_s"])


def test_a_time_printed_in_the_unit_that_fits_each_line(write_log):
    # CatBoost's console logger (catboost/libs/loggers/logger.h): `i:\tlearn: ...\ttotal: T\tremaining: R`, each
    # time in the unit that fits it, so the first and last lines differ in shape from the rest
    lines = ["0:\tlearn: 0.5743749\ttest: 0.5819386\tbest: 0.5819386 (0)\ttotal: 49.3ms\tremaining: 9.81s"]
    lines += [
        f"{i}:\tlearn: 0.0{i:03d}000\ttest: 0.0966057\tbest: 0.0966057 ({i})\ttotal: {80 + i}ms\tremaining: {900 - i}ms"
        for i in (20, 40, 60, 80)
    ]
    lines.append("99:\tlearn: 0.0045367\ttest: 0.0637149\tbest: 0.0631076 (95)\ttotal: 1.2s\tremaining: 0us")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 20, 40, 60, 80, 99]
    assert row_at(parsed, 1)["loss"] == 0.5743749 and row_at(parsed, 6)["loss"] == 0.0045367
    remaining = [c for c in parsed.rows if c.startswith("x_remaining")]
    assert len(remaining) == 1
    assert [round(row_at(parsed, n)[remaining[0]], 6) for n in (1, 2, 6)] == [9.81, 0.88, 0.0]


@pytest.mark.parametrize("key", ["s/epoch", "epoch_time", "time/epoch"])
def test_an_epochs_time_is_the_steps_time_where_a_step_is_an_epoch(write_log, key):
    # facebookresearch/end-to-end-negotiator engine.py: '| epoch %03d | train_loss %.3f | train_ppl %.3f | s/epoch
    # %.2f | lr %0.8f', one line an epoch (other loops name the same time `epoch_time`, `time/epoch`)
    lines = [
        f"| epoch {e:03d} | train_loss 1.{80 - e} | train_ppl 5.870 | {key} 10.{e:02d} | lr 1.00000000"
        for e in (16, 17, 18)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [16, 17, 18]
    assert row_at(parsed, 2)["step_time_s"] == 10.17 and row_at(parsed, 2)["loss"] == 1.63


def test_slowfast_json_stats_time_diff_is_the_iterations_time(write_log):
    # facebookresearch/SlowFast slowfast/utils/meters.py TrainMeter.log_iter_stats: logging.log_json_stats of
    # {"_type": "train_iter", "cur_epoch": "{}".format(...), "cur_iter": "{}".format(...), "time_diff":
    # self.iter_timer.seconds(), "eta": ..., "loss": ..., "lr": ...} (the counters as strings)
    lines = [
        f'[INFO: logging.py:   67]: json_stats: {{"_type": "train_iter", "cur_epoch": "1", "cur_iter": "{i}", '
        f'"eta": "1 day, 14:35:48", "loss": 0.1{i}, "lr": 0.100000, "mode": "train", "time_diff": {i // 10}.015697}}'
        for i in (20, 30, 40)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 30, 40]
    assert row_at(parsed, 2)["step_time_s"] == 3.015697 and row_at(parsed, 2)["loss"] == 0.130


# ------------------------------------------------------------------------------------------------
# records over several lines


def test_one_steps_metrics_a_line_each_under_the_workers_rank(write_log):
    # awslabs/dgl-ke dglke/train_pytorch.py train(): every log_interval steps, for each key of its logs
    # print('[proc {}][Train]({}/{}) average {}: {}'.format(rank, step + 1, max_step, k, v)), then
    # print('[proc {}][Train] {} steps take {:.3f} seconds'.format(rank, log_interval, time.time() - start))
    lines = []
    for step in (100, 200, 300, 400):
        for key, value in (("pos_loss", 0.3), ("neg_loss", 0.5), ("loss", 0.4), ("regularization", 0.001)):
            lines.append(f"[proc 0][Train]({step}/24000) average {key}: {value + step / 10000}")
        lines.append(f"[proc 0][Train] 100 steps take 0.{700 + step // 100} seconds")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert list(parsed.rows["loss"]) == pytest.approx([0.41, 0.42, 0.43, 0.44])
    assert list(parsed.rows["step_time_s"]) == pytest.approx([0.00701, 0.00702, 0.00703, 0.00704])
    assert set(parsed.rows["progress_total"]) == {24000}


def test_a_banner_of_the_counter_heads_the_block_after_its_blank_line(write_log):
    # berkeley cs285 hw2 cs285/scripts/run_hw2.py: print("\n\n********** Iteration %i ************" % itr), then
    # "\nCollecting data for eval...", the logger's '{} : {}' per key and "Done logging...\n\n"
    lines = []
    for itr in (1, 10, 20, 30):
        lines += ["", "", f"********** Iteration {itr} ************", "", "Collecting data for eval..."]
        lines += [f"Eval_AverageReturn : {30 + itr}.5", f"Train_AverageReturn : {20 + itr}.25"]
        lines += [
            f"Actor Loss : {10 + itr / 10}",
            f"Train_EnvstepsSoFar : {1000 * itr + 6}",
            "Done logging...",
            "",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 10, 20, 30]
    assert list(parsed.rows["loss"]) == [10.1, 11.0, 12.0, 13.0]


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


def test_a_block_line_whose_value_is_followed_by_the_word_seconds(write_log):
    # hongzimao/deeprm pg_re_single_core.py: per iteration `print "Iteration: \t %i" % iteration`, then one
    # `"Key: \t %s"` line a value, then `print "Elapsed time\t %s" % (timer_end - timer_start), "seconds"` (the
    # timer restarts after the block: that iteration's wall time) and a dashed rule
    def block(it: int, loss: float, secs: float) -> str:
        return (
            f"Iteration: \t {it}\nNumTrajs: \t 200\nNumTimesteps: \t {32549 + it}\nLoss:     \t {loss}\n"
            f"MeanEntropy \t 2.39\nElapsed time\t {secs} seconds\n-----------------\n"
        )

    secs = [106.25, 98.5, 100.75, 99.125]
    parsed = frame(write_log("".join(block(i, 0.125 + i / 100, s) for i, s in enumerate(secs))))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert list(parsed.rows["loss"]) == [0.125, 0.135, 0.145, 0.155]
    # the seconds fall from one iteration to the next: no clock since training began, each iteration's own time
    assert list(parsed.rows["step_time_s"]) == secs


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
    policy_loss: -0.020113203674554825
    total_loss: 936.0924682617188
    vf_loss: 936.1097412109375
  grad_time_ms: 2260.449
time_this_iter_s: 2.8040077686309814
time_total_s: 258.1266098022461
timesteps_total: 340000
training_iteration: 85
"""
    parsed = frame(write_log(block))
    assert steps_of(parsed) == [85]
    row = row_at(parsed, 14)
    assert row["lr"] == 4.999999873689376e-05 and row["x_episode_reward_mean"] == -550.34
    assert row["x_timesteps_total"] == 340000
    # the loss rule reads the block's keys together: total_loss is the total of policy_loss and vf_loss
    # (rllib's PPO loss: total_loss = policy + vf_loss_coeff x vf_loss + ...), the parts kept
    assert row["loss"] == 936.0924682617188 and row["x_vf_loss"] == 936.1097412109375
    # ray/tune/result.py TIME_THIS_ITER_S, TIME_TOTAL_S: the iteration's seconds, the trial's so far
    assert row["step_time_s"] == 2.8040077686309814 and row["train_elapsed_s"] == 258.1266098022461


def sb3_block(values: dict[str, float | int]) -> list[str]:
    """Stable-Baselines3's HumanOutputFormat.write (stable_baselines3/common/logger.py): the keys sorted, a float
    `f"{value:<8.3g}"`, an int `str(value)`; each `tag/` printed once as a row of its own, the keys under it
    indented by three blanks; `f"| {key}{key_space} | {value}{val_space} |"` between two dashed rules."""
    key2str: dict[tuple[str, str], str] = {}
    tag = ""
    for key, value in sorted(values.items()):
        text = f"{value:<8.3g}" if isinstance(value, float) else str(value)
        if key.find("/") > 0:
            tag = key[: key.find("/") + 1]
            key2str[(tag, tag)] = ""
        if tag and tag in key:
            key = f"{'':3}{key[len(tag) :]}"
        key2str[(tag, key)] = text
    key_width = max(len(k) for _, k in key2str)
    val_width = max(len(v) for v in key2str.values())
    dashes = "-" * (key_width + val_width + 7)
    rows = [
        f"| {k}{' ' * (key_width - len(k))} | {v}{' ' * (val_width - len(v))} |"
        for (_, k), v in key2str.items()
    ]
    return [dashes, *rows, dashes]


def test_which_value_of_a_block_is_the_loss_is_decided_over_the_whole_block(write_log):
    # SB3's PPO prints its total `train/loss` beside policy_gradient_loss, value_loss and entropy_loss, one key a
    # line (ppo.py train(): self.logger.record("train/loss", loss.item()), ...): the loss is `loss`, the others
    # its terms; A2C prints policy_loss, value_loss and entropy_loss and no total (a2c.py train()): no loss
    def ppo(i: int) -> dict[str, float | int]:
        return {
            "rollout/ep_len_mean": 20.0 + i,
            "time/fps": 1800 + i,
            "time/iterations": i,
            "time/total_timesteps": 256 * i,
            "train/entropy_loss": -0.69,
            "train/learning_rate": 0.0003,
            "train/loss": 40.0 + i,
            "train/policy_gradient_loss": -0.004,
            "train/value_loss": 90.0 + i,
        }

    lines = [line for i in (1, 2, 3) for line in sb3_block(ppo(i))]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    assert list(parsed.rows["loss"]) == [41.0, 42.0, 43.0]
    assert list(parsed.rows["x_value_loss"]) == [91.0, 92.0, 93.0]
    assert list(parsed.rows["lr"]) == [3e-4] * 3

    def a2c(i: int) -> dict[str, float | int]:
        return {
            "time/iterations": 100 * i,
            "time/total_timesteps": 500 * i,
            "train/entropy_loss": -0.5 - i / 100,
            "train/policy_loss": 6.0 + i,
            "train/value_loss": 80.0 + i,
        }

    lines = [line for i in (1, 2, 3) for line in sb3_block(a2c(i))]
    parsed = frame(write_log("\n".join(lines) + "\n", "a2c.log"))
    assert steps_of(parsed) == [100, 200, 300]
    assert "loss" not in parsed.rows or parsed.rows["loss"].isna().all()
    assert list(parsed.rows["x_policy_loss"]) == [7.0, 8.0, 9.0]
    assert list(parsed.rows["x_value_loss"]) == [81.0, 82.0, 83.0]
    assert list(parsed.rows["x_entropy_loss"]) == [-0.51, -0.52, -0.53]


def test_a_block_whose_counter_is_named_by_no_word_is_counted_by_its_rising_value(write_log):
    # OpenAI Baselines' logger (baselines/logger.py HumanOutputFormat.writekvs): every value `'%-8.3g' % val`,
    # keys sorted case-blind, `'| %s%s | %s%s |'` between dashed rules; ppo2.py logs per update misc/nupdates
    # (the update), misc/serial_timesteps (update x nsteps), misc/total_timesteps (update x nbatch),
    # misc/time_elapsed, fps, eprewmean and loss/<name>: no key a counter's name; the update rises by one
    def block(update: int) -> list[str]:
        kvs = {
            "eprewmean": 20.0 + 2.5 * update,
            "fps": 1500 + update,
            "loss/policy_loss": -0.002 * update,
            "loss/value_loss": 50.0 / update,
            "misc/nupdates": update,
            "misc/serial_timesteps": update * 128,
            "misc/time_elapsed": 1.5 * update,
            "misc/total_timesteps": update * 1024,
        }
        key2str = {k: "%-8.3g" % v for k, v in sorted(kvs.items())}  # noqa: UP031 (the logger's own format)
        kw, vw = max(map(len, key2str)), max(map(len, key2str.values()))
        rows = [
            "| %s%s | %s%s |" % (k, " " * (kw - len(k)), v, " " * (vw - len(v)))  # noqa: UP031
            for k, v in sorted(key2str.items(), key=lambda kv: kv[0].lower())
        ]
        return ["-" * (kw + vw + 7), *rows, "-" * (kw + vw + 7)]

    lines = ["Logging to /tmp/openai-2019-12-05", *(line for u in (1, 2, 3, 4) for line in block(u))]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]  # the update, not 128 x update nor 1024 x update
    assert list(parsed.rows["x_eprewmean"]) == [22.5, 25.0, 27.5, 30.0]
    assert list(parsed.rows["x_misc_total_timesteps"]) == [1020.0, 2050.0, 3070.0, 4100.0]  # `%-8.3g`


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


def test_a_values_line_after_a_counter_line_that_prints_no_training_value_joins_its_step(write_log):
    # Tianshi-Xu/assignment5-alignment cs336_alignment/rl.py L114-165: per GRPO step logger.info(f"rollout batch
    # {step} generated, length: {n}") after the vLLM rollout, then logger.info(f"rl_loss: {loss}, time: {t},
    # l2_norm: {norm}, token_entropy: {h}, reward_data: {...}") after the update, behind logging's
    # "%(asctime)s - train - INFO - "; the step ends when its values are printed: their line stamps the row
    rollouts = ["10:00:00,000", "10:02:10,000", "10:04:22,000", "10:06:30,000"]
    updates = ["10:01:55,000", "10:04:10,000", "10:06:11,000", "10:08:25,000"]
    losses = ["0.0", "0.0012", "-0.0008", "0.0003"]
    lines = []
    for k in range(4):
        lines += [
            f"2025-09-23 {rollouts[k]} - train - INFO - rollout batch {k + 1} generated, length: 256",
            f"2025-09-23 {updates[k]} - train - INFO - rl_loss: {losses[k]}, time: 11{k}.5, l2_norm: 0.1{k}, "
            f"token_entropy: 0.5{k}, reward_data: {{'total_num': 256, 'total_reward': 1{k}0.0}}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert list(parsed.rows["loss"]) == [0.0, 0.0012, -0.0008, 0.0003]
    stamps = list(parsed.rows["timestamp"])
    # 10:04:10 - 10:01:55, ...: the values lines' stamps
    assert [b - a for a, b in zip(stamps, stamps[1:], strict=False)] == [135.0, 121.0, 134.0]


def test_a_counter_line_with_its_planned_total_and_no_value_heads_the_values_line_after_it(write_log):
    # NielsRogge/Transformers-Tutorials PerSAM/Personalize_SAM_with_one_shot_using_Hugging_Face_(SAM_f).ipynb (the
    # training cell, after ZrrSkywalker/Personalize-SAM persam_f.py): every log_epoch iterations
    # print('Train Epoch: {:} / {:}'.format(train_idx, num_epochs)) then print('LR: {:.6f}, Dice_Loss: {:.4f},
    # Focal_Loss: {:.4f}'.format(current_lr, dice_loss.item(), focal_loss.item())): the counter and its plan on
    # one line, what the step measured on the next
    lrs = ["0.001000", "0.000904", "0.000653", "0.000344"]
    lines = []
    for k, step in enumerate((0, 200, 400, 600)):
        lines += [
            f"Train Epoch: {step} / 1000",
            f"LR: {lrs[k]}, Dice_Loss: 0.0{3 - k}22, Focal_Loss: 0.000{4 - k}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 200, 400, 600]
    assert list(parsed.rows["lr"]) == [0.001, 0.000904, 0.000653, 0.000344]
    assert list(parsed.rows["progress_total"]) == [1000] * 4


def test_a_line_after_a_step_line_that_prints_the_training_values_stays_apart(write_log):
    # 1644heihei/3D-VAE old_backup/train.py L66-92: every 30 batches print(f"Epoch {epoch+1}, Step {step}:
    # Reconstruction Loss={rec}, KL Loss={kl}, Total Loss={total}") then print(f"Output stats: min=...,
    # max=..., mean=...") of the decoded volume: the step line holds the step's values, the next line is no part
    lines = []
    for k, step in enumerate((0, 30, 60, 90)):
        lines += [
            f"Epoch 1, Step {step}: Reconstruction Loss=1.5{k}, KL Loss=10{k}.0, Total Loss=3{k}.5",
            f"Output stats: min=-0.{k}1, max=0.{k}9, mean=0.00{k}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 30, 60, 90]
    assert list(parsed.rows["loss"]) == [30.5, 31.5, 32.5, 33.5]
    assert not {"x_min", "x_max", "x_mean"} & set(parsed.rows.columns)


@pytest.mark.parametrize(
    "fmt",
    [
        # AdityaAshvin/ScalingDown scripts/training/t5_base_common_reasoning/training.py L688-705: python logging
        # "%(asctime)s - %(levelname)s - %(message)s", f"Stage {s}, Epoch {e}, Batch {b}, Training Loss (avg over
        # last 100): {x:.4f}", then the validation's sample and the same with "Validation Loss"
        "2024-10-31 21:{m:02d}:00,000 - INFO - Stage 1, Epoch 1, Batch {step}, {what} Loss (avg over last 100): "
        "{x:.4f}",
        # a translator's training script found in public code: log(f"Step {step}/{args.train_steps} | Loss (avg
        # over last 20): {running/20:.4f}") (its evaluation prints lines of its own)
        "2024-10-31 21:{m:02d}:00,000 - INFO - Step {step}/2000 | {what} Loss (avg over last 20): {x:.4f}",
    ],
    ids=["stage_epoch_batch", "step_of_total"],
)
def test_a_number_in_an_aside_between_the_key_and_its_value_is_none_of_its(write_log, fmt):
    lines = []
    for k, (step, x, y) in enumerate(((25, 2.4486, 0.0975), (50, 1.3275, 0.128), (75, 0.9532, 0.1252))):
        lines.append(fmt.format(m=2 * k, step=step, what="Training", x=x))
        lines.append(f"2024-10-31 21:{2 * k:02d}:30,000 - INFO - Validation Example:")
        lines.append(f"2024-10-31 21:{2 * k:02d}:{30 + 7 * k},000 - INFO - True Answer: Answer: {k + 1}")
        lines.append(fmt.format(m=2 * k + 1, step=step, what="Validation", x=y))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [25, 50, 75]
    assert list(parsed.rows["loss"]) == [2.4486, 1.3275, 0.9532]
    stamps = list(parsed.rows["timestamp"])
    assert [b - a for a, b in zip(stamps, stamps[1:], strict=False)] == [120.0, 120.0]  # the training lines'
    assert [e["eval_loss"] for e in evals(parsed)] == [0.0975, 0.128, 0.1252]
    # the key as printed, its aside with it (what summary.json's generic block names)
    assert any(key.startswith("Training Loss (avg over last ") for key in parsed.keymap["mapped"])


def test_a_number_in_a_bracket_inside_a_key_is_the_keys(write_log):
    # lucidrains/audiolm-pytorch audiolm_pytorch/trainer.py SoundStreamTrainer.train_step: losses_str =
    # f"{steps}: soundstream total loss: {logs['loss']:.3f}, soundstream recon loss: {logs['recon_loss']:.3f}", then
    # for each scale of the multi-scale discriminator losses_str += f" | discr (scale {scale_factor}) loss:
    # {loss:.3f}"; self.print(losses_str). The scale is the key's, and the generator's total is the loss.
    lines = []
    for step, total, d in ((101, 4.872, 2.284), (102, 4.893, 2.336), (103, 4.375, 2.332)):
        lines.append(
            f"{step}: soundstream total loss: {total:.3f}, soundstream recon loss: 0.001 | discr (scale 1) loss: "
            f"{d:.3f} | discr (scale 0.5) loss: 1.894 | discr (scale 0.25) loss: 1.829"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [101, 102, 103]
    assert list(parsed.rows["loss"]) == [4.872, 4.893, 4.375]
    assert "loss_scale" not in parsed.rows  # `(scale 1)` names a discriminator, no loss scale of 1


@pytest.mark.parametrize(
    "step_line, summary",
    [
        # FareedKhan-dev/train-llm-from-scratch sft_rlhf_guide.ipynb (cell 59, the SFT loop): logger(f"SFT Epoch
        # {epoch+1}, Step {step+1}/{len(loader)}, Loss: {loss:.4f}, LR: {lr:.3e}") each batch, then logger(f"End of
        # SFT Epoch {epoch+1}, Avg Loss: {mean:.4f}"), logger prefixing f"[{time.strftime('%Y-%m-%d %H:%M:%S')}] "
        (
            "[2025-05-14 15:52:{s:02d}] SFT Epoch {e}, Step {i}/2, Loss: {x:.4f}, LR: 5.000e-05",
            "[2025-05-14 15:52:{s:02d}] End of SFT Epoch {e}, Avg Loss: {x:.4f}",
        ),
        # facebookresearch/denoiser denoiser/solver.py: LogProgress's f"Train | Epoch {epoch + 1} | {i}/{n} |
        # {speed:.1f} it/sec | Loss {loss:.5f}" a few times an epoch, then f'Train Summary | Epoch {epoch + 1} |
        # {_summary(formatted)}' (demucs/solver.py prints the same pair)
        (
            "[2025-05-14 15:52:{s:02d}] Train | Epoch {e} | {i}/2 | 1.5 it/sec | Loss {x:.5f}",
            "[2025-05-14 15:52:{s:02d}] Train Summary | Epoch {e} | Loss={x:.5f}",
        ),
    ],
    ids=["end_of_epoch", "train_summary"],
)
def test_an_epochs_summary_after_its_steps_is_no_step(write_log, step_line, summary):
    lines = []
    for e in (1, 2, 3):
        lines.append(step_line.format(s=3 * e, e=e, i=1, x=60.0 - e))
        lines.append(step_line.format(s=3 * e + 1, e=e, i=2, x=55.0 - e))
        lines.append(summary.format(s=3 * e + 2, e=e, x=57.5 - e))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2] * 3
    assert list(parsed.rows["loss"]) == [59.0, 54.0, 58.0, 53.0, 57.0, 52.0]
    assert evals(parsed) == []  # the epoch's mean of the training loss: no evaluation either


@pytest.mark.parametrize(
    "step_line",
    [
        # WenmuZhou/PSENet.pytorch train.py train_epoch(), every display_interval batches: '[{}/{}], [{}/{}], step:
        # {}, {:.3f} samples/sec, batch_loss: {:.4f}, batch_loss_c: {:.4f}, batch_loss_s: {:.4f}, time:{:.4f},
        # lr:{}'.format(epoch, config.epochs, i, all_step, cur_step, ...)
        "[{e}/100], [{i}/11], step: {s}, 3.163 samples/sec, batch_loss: {x:.4f}, batch_loss_c: 0.4429, "
        "batch_loss_s: 0.5517, time:3.1618, lr:0.0001",
        # WenmuZhou/DBNet.pytorch trainer/trainer.py _train_epoch, every log_iter global steps: '[{}/{}], [{}/{}],
        # global_step: {}, speed: {:.1f} samples/sec, acc: {:.4f}, iou_shrink_map: {:.4f}, {}, lr:{:.6}, time:{:.2f}'
        "[{e}/100], [{i}/11], global_step: {s}, speed: 24.5 samples/sec, acc: 0.8123, iou_shrink_map: 0.6021, "
        "loss: {x:.4f}, lr:0.001, time:2.95",
    ],
    ids=["psenet", "dbnet"],
)
def test_a_summary_counted_by_the_outer_position_of_the_steps_is_no_step(write_log, step_line):
    # after each epoch both print '[{}/{}], train_loss: {:.4f}, time: {:.4f}, lr: {}'.format(epoch, epochs,
    # train_loss, time.time() - start, lr) (PSENet.pytorch train.py main(), DBNet.pytorch base/base_trainer.py
    # _on_epoch_finish): the epoch's mean loss and wall time, no step of its own
    prefix, lines = "2019-10-13 05:41:{:02d} INFO      train.py: ", []
    for e in (8, 9, 10):
        lines.append(prefix.format(e) + step_line.format(e=e, i=0, s=11 * e, x=0.5 + e / 100))
        lines.append(prefix.format(e + 1) + step_line.format(e=e, i=10, s=11 * e + 10, x=0.4 + e / 100))
        lines.append(prefix.format(e + 2) + f"[{e}/100], train_loss: 0.{e + 50}00, time: 3.5803, lr: 0.0001")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [88, 98, 99, 109, 110, 120]
    assert list(parsed.rows["loss"]) == [0.58, 0.48, 0.59, 0.49, 0.6, 0.5]


@pytest.mark.parametrize(
    "fmt",
    [
        # Latticeworks1/CPTFM train.py main(): f"epoch {epoch+1:3d}/{args.epochs}  train {train_loss:.4f}  val
        # {val_loss:.4f}  mr {mask_ratio:.2f}  pf {prefix_frac:.2f}  lr {lr:.2e}"
        "epoch {e:3d}/300  train {x:.4f}  val {v:.4f}  mr 0.57  pf 0.14  lr 7.38e-04",
        # the same two words in other loops: print(f"epoch {epoch:3d}  train {train_loss:.4f}  val {val_loss:.4f}  lr
        # {lr_now:.2e}  ({time.time() - t_start:.0f}s)") (the same words in many loops in public code)
        "epoch {e:3d}  train {x:.4f}  val {v:.4f}  lr 7.38e-04  (12s)",
    ],
)
def test_the_stages_word_alone_names_the_training_and_validation_loss(write_log, fmt):
    lines = [fmt.format(e=e, x=0.03 - e / 1e4, v=0.025 - e / 1e4) for e in (110, 111, 112)]
    # CPTFM after a restart: f"resumed from epoch {start}  best_val {best_val:.4f}", the checkpoint's record
    lines.append("resumed from epoch 111  best_val 0.0139")
    lines += [fmt.format(e=e, x=0.04 - e / 1e4, v=0.03 - e / 1e4) for e in (112, 113)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [110, 111, 112, 112, 113]
    assert list(parsed.rows["loss"]) == pytest.approx([0.019, 0.0189, 0.0188, 0.0288, 0.0287])
    assert list(parsed.rows["eval_loss"]) == pytest.approx([0.014, 0.0139, 0.0138, 0.0188, 0.0187])
    assert evals(parsed) == []  # the resume line quotes the checkpoint's best: no evaluation


def test_a_number_after_an_at_sign_is_part_of_its_key(write_log):
    # FranxYao/Long-Context-Data-Engineering (a user's paste on its GitHub tracker): a step's metrics one `name
    # value ` a line under `step {s} token {t}m `, among them the loss per position bucket,
    # train/per_length_loss/loss@{2**k}: the bucket is the key's, not a counter rising over the lines
    lines = []
    for s, loss, norm in ((1, 5.5021, 249.4825), (50, 2.2328, 12.5982), (100, 2.1, 3.25)):
        lines += [f"step {s} token {5 * s}m ", f"train/loss {loss} ", f"train/grad_norm {norm} "]
        lines += [f"train/per_length_loss/loss@{2**k} {4 - k / 10 - s / 100:.4f} " for k in range(1, 7)]
        lines.append("")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 50, 100]
    assert list(parsed.rows["loss"]) == [5.5021, 2.2328, 2.1]
    assert list(parsed.rows["grad_norm"]) == [249.4825, 12.5982, 3.25]


def test_a_top_k_accuracy_is_its_own_key(write_log):
    # pytorch/examples imagenet/main.py: ProgressMeter's "Epoch: [{}]".format(epoch) and "[{:4d}/5005]" then
    # AverageMeter's '{name} {val:6.2f} ({avg:6.2f})' for 'Time', 'Data', 'Loss' (':.4e'), 'Acc@1' and 'Acc@5',
    # joined by tabs
    lines = [
        f"Epoch: [0][{i:4d}/5005]\tTime  0.{500 + i:03d} ( 0.600)\tData  0.010 ( 0.020)\tLoss 6.{900 - i:03d}e+00 "
        f"(6.9000e+00)\tAcc@1   0.{i:02d} (  0.10)\tAcc@5   1.{i:02d} (  0.50)"
        for i in range(0, 50, 10)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 10, 20, 30, 40]
    top1 = [c for c in parsed.rows.columns if "acc" in c and "1" in c]
    assert len(top1) == 1 and list(parsed.rows[top1[0]]) == [0.0, 0.1, 0.2, 0.3, 0.4]


def test_a_line_after_each_step_line_that_counts_the_epochs_samples_continues_that_step(write_log):
    # tflearn/tflearn tflearn/callbacks.py TermLogger.termlogs(): "Training Step: " + str(global_step) + " " then
    # " | total loss: %.5f" and (helpers/trainer.py, since the step timer) " | time: %.3fs", then per optimizer
    # "| " + name + " | epoch: %03d" + " | loss: %.5f" + " - acc: %.4f" [+ " | val_loss: %.5f" + " - val_acc:
    # %.4f" at a snapshot] + " -- iter: %0Nd/%d" (the samples seen in the epoch, of the data set's size); here a
    # batch of 64 and 320 samples, five steps an epoch, and a snapshot's validation at step 6
    times = [0.275, 0.186, 0.302, 8.9, 0.326, 0.291]
    lines = []
    for step in range(3, 9):
        epoch, seen = (step - 1) // 5 + 1, (step - 1) % 5 * 64 + 64
        loss = 2.5 - step / 10
        snap = f" | val_loss: {loss + 0.1:.5f} - val_acc: 0.5{step}00" if step == 6 else ""
        lines += [
            f"Training Step: {step}  | total loss: {loss:.5f} | time: {times[step - 3]:.3f}s",
            f"| Adam | epoch: {epoch:03d} | loss: {loss:.5f} - acc: 0.{step}000{snap} -- iter: {seen:03d}/320",
        ]
        if snap:
            lines.append("--")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [3, 4, 5, 6, 7, 8]  # not the samples 192, 256, 320, 64, 128, 192 as steps
    assert list(parsed.rows["loss"]) == [2.2, 2.1, 2.0, 1.9, 1.8, 1.7]
    assert list(parsed.rows["step_time_s"]) == times
    # the samples of the epoch seen: a value of the step, as printed
    samples = [c for c in parsed.rows.columns if c.startswith("x_") and "iter" in c]
    assert len(samples) == 1 and list(parsed.rows[samples[0]]) == [192, 256, 320, 64, 128, 192]
    # the snapshot's validation on its optimizer line: the evaluation's value at that step, no row of its own
    assert row_at(parsed, 7)["eval_loss"] == 2.0
    assert pd.isna(row_at(parsed, 5)["eval_loss"])


def test_a_line_per_optimizer_after_each_step_line_continues_that_step(write_log):
    # the same TermLogger with two optimizers, one line each after the step's (tflearn examples/basics/logical.py,
    # XOR: two `regression(..., optimizer='sgd')` ops fit together, four samples a batch, as a user's notebook shows
    # it: "| SGD_0 | epoch: 400 | loss: 0.40857 -- iter: 4/4" then "| SGD_1 | ..."); the step line's total loss
    # sums them (tflearn/helpers/trainer.py); which optimizer's line is the step's own is not known
    lines = []
    for k, step in enumerate((397, 398, 399, 400)):
        first, second = 0.45 - k / 100, 0.41 + k / 1000
        lines += [
            f"Training Step: {step}  | total loss: {first + second:.5f} | time: {(0.006, 0.004, 0.009, 0.005)[k]}s",
            f"| SGD_0 | epoch: {step:03d} | loss: {first:.5f} -- iter: 4/4",
            f"| SGD_1 | epoch: {step:03d} | loss: {second:.5f} -- iter: 4/4",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [397, 398, 399, 400]
    assert list(parsed.rows["loss"]) == [0.86, 0.851, 0.842, 0.833]  # 0.45 + 0.41, 0.44 + 0.411, ...
    assert list(parsed.rows["step_time_s"]) == [0.006, 0.004, 0.009, 0.005]


def test_lines_of_a_steps_outputs_after_its_line_join_its_row(write_log):
    # BVLC/caffe src/caffe/solver.cpp Solver::Step(), at every display interval: "Iteration " << iter_ << " (" <<
    # per_s << " iter/s, " << lapse << "s/" << display << " iters), loss = " << smoothed_loss_, then for each
    # output blob "    Train net output #" << score_index++ << ": " << output_name << " = " << value (+ " (* " <<
    # loss_weight << " = " << weighted << " loss)" for a loss), behind glog's prefix
    lines = []
    for k, (it, loss) in enumerate(((100, 2.25), (200, 1.75), (300, 1.5), (400, 1.25))):
        stamp = f"I0815 20:4{k}:26.81"
        lines += [
            f"{stamp}0891 52129 solver.cpp:218] Iteration {it} (4.5 iter/s, 22.2s/100 iters), loss = {loss}",
            f"{stamp}0901 52129 solver.cpp:237]     Train net output #0: accuracy = 0.{k + 5}",
            f"{stamp}0911 52129 solver.cpp:237]     Train net output #1: loss = {loss} (* 1 = {loss} loss)",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert list(parsed.rows["loss"]) == [2.25, 1.75, 1.5, 1.25]
    accuracy = [c for c in parsed.rows.columns if "accuracy" in c]
    assert len(accuracy) == 1 and list(parsed.rows[accuracy[0]]) == [0.5, 0.6, 0.7, 0.8]


def test_two_lines_that_print_the_same_step_with_other_keys_are_one_row(write_log):
    # BVLC/caffe src/caffe/solver.cpp Solver::Step(): LOG_IF(INFO, Caffe::root_solver()) << "Iteration " << iter_
    # << ", loss = " << smoothed_loss_, then each output's "    Train net output #" << j << ": " << name << " = "
    # << value, and src/caffe/solvers/sgd_solver.cpp ApplyUpdate(): "Iteration " << this->iter_ << ", lr = " <<
    # rate, every display interval, behind glog's "I0815 20:41:26.810891 52129 file:line] "
    lines = []
    for k, (it, loss) in enumerate(((1660, 2.19062), (1680, 2.07286), (1700, 2.07381), (1720, 2.21451))):
        ss = f"20:4{k}:26.81"
        lines += [
            f"I0815 {ss}0891 52129 solver.cpp:232] Iteration {it}, loss = {loss}",
            f"I0815 {ss}0901 52129 solver.cpp:248]     Train net output #0: loss = {loss} (* 1 = {loss} loss)",
            f"I0815 {ss}1189 52129 sgd_solver.cpp:106] Iteration {it}, lr = 0.00{k + 1}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1660, 1680, 1700, 1720]
    assert list(parsed.rows["loss"]) == [2.19062, 2.07286, 2.07381, 2.21451]
    assert list(parsed.rows["lr"]) == [0.001, 0.002, 0.003, 0.004]
    stamps = list(parsed.rows["timestamp"])
    assert [b - a for a, b in zip(stamps, stamps[1:], strict=False)] == [60.0, 60.0, 60.0]


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


@pytest.mark.parametrize(
    "batch",
    [
        # kaldi-asr/kaldi's PyTorch chain recipe: logging.info('epoch {},
        # learning rate {}') once an epoch, then 'Process {}/{}({:.6f}%) global average objf: {:.6f} over {} frames,
        # current batch average objf: {:.6f} over {} frames, epoch {}' every 100 batches
        "Process {b}/3161({p:.6f}%) global average objf: -0.{o} over {f}.0 frames, current batch average objf: "
        "-0.{o} over 6400 frames, epoch 0",
        # k2-fsa/snowfall's MMI recipe: the same header, then 'processing batch {},
        # current epoch is {}/{} global average objf: {:.6f} over {} frames ({:.1f}% kept), current batch ...'
        "processing batch {b}, current epoch is 0/10 global average objf: -0.{o} over {f} frames (99.5% kept), "
        "current batch average objf: -0.{o} over 6400 frames (99.0% kept) ",
    ],
)
def test_an_epochs_header_that_states_its_lr_is_no_trainer_beside_its_batches(write_log, batch):
    lines = ["2020-01-31 16:17:23,226 INFO [train.py:185] epoch 0, learning rate 0.001"]
    lines += [
        f"2020-01-31 16:{17 + b // 100}:24,536 INFO [train.py:102] "
        + batch.format(b=b, p=100 * b / 3161, o=900 - b, f=6400 * (b + 1))
        for b in (0, 100, 200, 300)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300]


def test_a_block_whose_lines_print_two_losses_takes_its_first_lines(write_log):
    # PaddlePaddle/benchmark static_graph/OCR/paddle/ocr_recognition/train.py: every log_period iterations
    # print("\nTime: %s; Iter[%d]; Avg loss: %.3f; Avg seq err: %.3f" % (time.time(), ...)) then
    # "kpis\ttrain_cost\t%f" (the same average) and "kpis\ttrain_acc\t%f" for the benchmark's monitor
    lines = []
    for k in range(1, 5):
        loss = 1.5 - k / 20
        lines += [
            "",
            f"Time: {1552370000 + 20 * k}.123; Iter[{100 * k}]; Avg loss: {loss:.3f}; Avg seq err: 0.192",
        ]
        lines += [f"kpis\ttrain_cost\t{loss + 0.0004:f}", f"kpis\ttrain_acc\t{0.8:f}"]
    log = write_log("\n".join(lines) + "\n")
    parsed = frame(log)
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert row_at(parsed, 2)["loss"] == 1.45
    summary = api.analyze(str(log)).summary
    why = summary["generic"]["keys"]["kpis\ttrain_cost"]["why"]
    assert "not printed" not in why and "first line" in why


def test_the_best_epochs_values_after_early_stopping_join_no_step(write_log):
    # XDZhelheim/STAEformer model/train.py: per epoch print(datetime.datetime.now(), "Epoch", epoch + 1, " \tTrain
    # Loss = %.5f" % train_loss, "Val Loss = %.5f" % val_loss); on stopping "Early stopping at epoch: %d", then
    # "Best at epoch %d:" and the best epoch's "Train Loss = %.5f" and its metrics
    lines = [
        f"2023-11-04 23:2{e - 70}:29.577102 Epoch {e}  \tTrain Loss = 12.1{e}0 Val Loss = 13.10359"
        for e in range(74, 80)
    ]
    lines += ["Early stopping at epoch: 79", "Best at epoch 49:", "Train Loss = 12.20174"]
    lines += ["Train RMSE = 22.04260, MAE = 12.42602, MAPE = 8.16751", "Val Loss = 13.09674"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(74, 80))
    assert row_at(parsed, 6)["loss"] == 12.179


def test_a_vali_loss_is_the_evaluations(write_log):
    # thuml/Autoformer exp/exp_main.py (and zhouhaoyi/Informer2020, OpenSTL after them): print("Epoch: {0}, Steps:
    # {1} | Train Loss: {2:.7f} Vali Loss: {3:.7f} Test Loss: {4:.7f}") once an epoch, Steps the batches of one
    lines = [
        f"Epoch: {e}, Steps: 625 | Train Loss: 0.0{30 - e}4789 Vali Loss: 0.0{40 - e}48867 Test Loss: 0.0312345"
        for e in (1, 2, 3)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    assert row_at(parsed, 2)["loss"] == 0.0284789 and row_at(parsed, 2)["eval_loss"] == 0.03848867


# ------------------------------------------------------------------------------------------------
# evaluations, events, ranks


def test_a_dicts_word_value_names_its_pass(write_log):
    # fastai course22p2 miniai/learner.py MetricsCB._log prints the dict of each pass: {'loss': f'{v:.3f}', 'epoch':
    # learn.epoch, 'train': 'train' if learn.model.training else 'eval'}; the Trainer's dicts hold numbers only, so
    # its set leaves them to the log's own reading
    lines = []
    for epoch in range(4):
        lines.append(f"{{'loss': '{0.07 - epoch / 100:.3f}', 'epoch': {epoch}, 'train': 'train'}}")
        lines.append(f"{{'loss': '{0.05 - epoch / 100:.3f}', 'epoch': {epoch}, 'train': 'eval'}}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert list(parsed.rows["loss"]) == [0.07, 0.06, 0.05, 0.04]
    assert [e["line"] for e in evals(parsed)] == [2, 4, 6, 8]


def test_a_table_of_scores_under_an_evaluations_heading_is_one_evaluation(write_log):
    # stanza/models/tagger.py: every log_step steps '{}: step {}/{}, loss = {:.6f} ({:.3f} sec/batch), lr: {:.6f}',
    # at eval_interval print "Evaluating on dev set..." and the scorer's tab-separated table of its scores
    lines = [
        f"2020-08-28 00:5{i}:15: step {20 * i}/100, loss = {1.5 - i / 10:.6f} (2.{i}00 sec/batch), lr: 0.003000"
        for i in range(1, 6)
    ]
    lines += ["Evaluating on dev set...", "UPOS\tXPOS\tUFeats\tAllTags", "97.25\t96.50\t95.75\t93.00"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60, 80, 100]
    assert row_at(parsed, 2)["step_time_s"] == 2.2
    assert [e["line"] for e in evals(parsed)] == [8]


def test_a_result_line_printed_only_under_an_evaluations_heading_is_its_event(write_log):
    # cs231n assignment2 PyTorch.ipynb train_part34: print('Iteration %d, loss = %.4f' % (t, loss.item())), then
    # check_accuracy_part34 prints 'Checking accuracy on validation set' and 'Got %d / %d correct (%.2f)'
    lines = []
    for t in (100, 200, 300, 400):
        lines += [f"Iteration {t}, loss = 1.{t // 100}000", "Checking accuracy on validation set"]
        lines += [f"Got {500 + t // 10} / 1000 correct ({50 + t / 100:.2f})", ""]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert [e["line"] for e in evals(parsed)] == [3, 7, 11, 15]  # each at its result's line


def test_an_epochs_accuracy_check_beside_the_iterations_is_an_evaluation(write_log):
    # cs231n assignment2 cs231n/solver.py Solver.train: "(Iteration %d / %d) loss: %f" every print_every
    # iterations and, at each epoch's end, "(Epoch %d / %d) train acc: %f; val_acc: %f"
    lines = []
    for t in range(0, 40, 5):
        if t % 10 == 0:
            lines.append(f"(Epoch {t // 10} / 4) train acc: 0.{300 + t}000; val_acc: 0.{250 + t}000")
        lines.append(f"(Iteration {t + 1} / 40) loss: {2.5 - t / 20:.6f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(1, 40, 5))
    assert [e["line"] for e in evals(parsed)] == [1, 4, 7, 10]
    # the epochs planned, as the evaluation's own counter prints them (no line of a header after an evaluation)
    from logparse.steps.runfacts import log_facts

    assert log_facts(parsed, [])["num_epochs"].value == 4


def test_a_return_printed_at_some_steps_under_their_counter_is_an_evaluation(write_log):
    # tensorflow/agents docs/tutorials/1_dqn_tutorial.ipynb: print('step = {0}: loss = {1}'.format(step,
    # train_loss)) every log_interval steps, print('step = {0}: Average Return = {1}'.format(step, avg_return))
    # every eval_interval steps
    lines = []
    for step in range(200, 1800, 200):
        lines.append(f"step = {step}: loss = 0.{step // 100}5")
        if step % 400 == 0:
            lines.append(f"step = {step}: Average Return = {step / 100}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(200, 1800, 200))
    assert [int(e["step"]) for e in evals(parsed)] == [400, 800, 1200, 1600]


def test_steps_that_print_an_evaluation_metric_of_the_batch_are_still_steps(write_log):
    # Darmasus/Darma training/train_base.py: every --log-every steps f"[ep {epoch} step {global_step:5d}
    # t={elapsed:7.0f}s vram={peak_mem_mb:5d}MB] L={L_val:.4f}  D={D_val:.4f}  PSNR={psnr:5.2f}  R={R_val:.4f} bpp"
    # (the batch's PSNR; peak_mem_mb = torch.cuda.max_memory_allocated() // (1024 * 1024)), and at a save
    # 'saved checkpoints/base.pt (epoch {}, step {})'
    lines = [
        f"[ep 0 step {s:5d} t={5 + 2 * s:7.0f}s vram= 5904MB] L=0.1{s:03d}  D=0.1129  PSNR= 9.47  R=0.5510 bpp"
        for s in range(0, 100, 20)
    ]
    lines.insert(3, "saved checkpoints/base.pt (epoch 0, step 50)")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 20, 40, 60, 80]
    assert evals(parsed) == []
    assert set(parsed.rows["memory_gib"]) == {5904 / 1024}


def test_a_config_that_says_when_to_evaluate_is_no_evaluation(write_log):
    # a dataclass's repr behind a logger (a SmolLM2 pre-training loop's `logger.info(args)`): its
    # `eval_interval=500` is a setting, and the line's pairs are the run's facts
    head = (
        "[2025-02-17 17:56:46 - INFO] ModelArgs(dim=576, n_layers=30, n_heads=9, vocab_size=49152, max_seq_len=2048,"
        " steps=5050, breakpoint_step=5000, save_interval=1000, eval_interval=500, grad_accum_steps=8, device='cuda')"
    )
    lines = [
        f"[2025-02-17 17:59:{10 + i:02d} - INFO] Step {i:>4}/5050 | Avg. Loss: {89 - i / 10:.4f} | LR: 0.000001"
        for i in range(1, 6)
    ]
    run = api.resolve(str(write_log("\n".join([head, *lines]) + "\n")))
    assert steps_of(run.parsed) == [1, 2, 3, 4, 5] and evals(run.parsed) == []
    got = {k: run.facts[k].value for k in ("grad_accum", "num_layers", "hidden_size", "seq_len")}
    assert got == {"grad_accum": 8, "num_layers": 30, "hidden_size": 576, "seq_len": 2048}


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


def test_an_evaluation_printed_over_lines_is_one_event(write_log):
    # OpenNMT-py onmt/utils/statistics.py Statistics.output: "Step %s; acc: %.1f; ppl: %.1f; xent: %.1f; lr: %.5f;
    # ... %.0f sec;" behind its logger's "[%(asctime)s %(levelname)s] "; at each validation
    # onmt/utils/report_manager.py ReportMgr._report_step logs "Train perplexity: %g", "Train accuracy: %g",
    # "Validation perplexity: %g", "Validation accuracy: %g" one a line
    lines = []
    for step in (20, 40, 60, 80):
        lines.append(
            f"[2026-12-06 01:13:{step // 2:02d},135 INFO] Step {step}/  300; acc: 14.3; ppl:  22.8; xent: 3.1; "
            f"lr: 1.00000; {step} sec;"
        )
        if step % 40 == 0:
            lines += [
                f"[2026-12-06 01:13:{step // 2:02d},500 INFO] Train perplexity: 21.{step}",
                f"[2026-12-06 01:13:{step // 2:02d},500 INFO] Train accuracy: 13.{step}",
                f"[2026-12-06 01:13:{step // 2:02d},501 INFO] Validation perplexity: 19.{step}",
                f"[2026-12-06 01:13:{step // 2:02d},501 INFO] Validation accuracy: 15.{step}",
            ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60, 80]
    # one validation at step 40 and one at 80, each over its two lines: an event apiece, at its first line
    assert [e["line"] for e in evals(parsed)] == [5, 11]


def test_evaluations_of_two_splits_printed_together_are_two_events(write_log):
    # karpathy/build-nanogpt train_gpt2.py prints f"validation loss: {val_loss_accum.item():.4f}" and then, from its
    # HellaSwag evaluation, f"HellaSwag accuracy: {num_correct_norm}/{num_total}={acc_norm:.4f}" before the step's
    # own f"step {step:5d} | loss: {loss_accumulated.item():.6f} | lr {lr:.4e} | ... | dt: {dt*1000:.2f}ms | tok/sec:
    # {tokens_per_sec:.2f}"; a loop of its own prints `val acc:` and then `test acc at best val:`
    lines = []
    for step in (0, 1, 2, 3):
        if step % 2 == 0:
            lines += [f"validation loss: 10.9{step}", f"HellaSwag accuracy: 2435/10042=0.242{step}"]
        lines.append(
            f"step {step:5d} | loss: 10.98{step} | lr 6.0000e-06 | norm: 1.0 | dt: 4100.00ms | tok/sec: 1279.3"
        )
    lines += ["val acc: 0.9375", "test acc at best val: 0.9192"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert [e["line"] for e in evals(parsed)] == [1, 2, 5, 6, 9, 10]


def test_an_evaluations_loss_said_to_be_made_before_training_is_an_evaluation(write_log):
    # dichev/deep-learning-from-scratch examples/transformers/reproduce_gpt.py: print(f"Initial val loss: {loss:.4f}")
    # before its first step, then f"Step {i}/{n}: lr=... | grad_norm=... | loss=... | tok/sek=... | duration=..."
    lines = ["Found 99 train shards and 1 val shards", "Initial val loss: 10.9347", "Training..."]
    lines += [
        f"Step {s}/19073: lr=8.39161e-07 | grad_norm=14.2035 | loss=10.9{s:02d} | tok/sek=5671{s}.7 | duration=9.2 sec"
        for s in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert [(e["line"], e["eval_loss"]) for e in evals(parsed)] == [(2, 10.9347)]
    assert row_at(parsed, 5)["tokens_per_s"] == 56712.7


def test_a_validation_bar_printed_once_is_an_evaluation(write_log):
    # atisioma/Crack-SEG train.py: tqdm(train_loader, desc=f"Train Epoch {epoch}") with set_postfix(Loss=..., Dice=...,
    # IoU=..., LR=...), and every fifth epoch tqdm(val_loader, desc="Validate") with set_postfix(**{"Val Loss": ...})
    bar = "100%|██████████|"
    lines = [
        f"Train Epoch {e}: {bar} 30/30 [00:04<00:00,  6.9{e % 10}it/s, Loss=0.{990 - e}, Dice=0.78{e % 10}, "
        f"IoU=0.670, LR=1.00e-04]"
        for e in range(46, 51)
    ]
    lines.append(
        f"Validate: {bar} 8/8 [00:00<00:00, 18.73it/s, Val Loss=0.1229, Val Dice=0.736, Val IoU=0.609]"
    )
    lines.append(
        f"Train Epoch 51: {bar} 30/30 [00:04<00:00,  6.66it/s, Loss=0.0942, Dice=0.790, IoU=0.679, LR=8.50e-05]"
    )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [46, 47, 48, 49, 50, 51]
    assert [(e["line"], e["step"], e["eval_loss"]) for e in evals(parsed)] == [(6, 50, 0.1229)]


def test_a_retrievals_recall_and_average_precision_printed_once_are_an_evaluation(write_log):
    # ISChenawei/DMNIL: after an epoch's `Epoch: [e][i/N]` lines, a `[Evaluate]` rule, then "Recall@1: {:.4f} -
    # Recall@5: ... - Recall@top1: ... - AP: {:.4f}"
    lines = [
        f"Epoch: [0][{i}/400]\tTime 5.539 (5.709)\tData 0.000 (0.139)\tLoss {4 - i / 1000:.3f} (9.720)"
        for i in range(340, 400, 20)
    ]
    lines += ["-" * 30 + "[Evaluate]" + "-" * 30, "Compute Scores:"]
    lines.append(
        "Recall@1: 49.7583 - Recall@5: 72.5426 - Recall@10: 80.1743 - Recall@top1: 81.1914 - AP: 54.9932"
    )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [340, 360, 380]
    assert [e["line"] for e in evals(parsed)] == [6]


def test_a_loss_alone_under_an_evaluations_heading_is_the_evaluations_loss(write_log):
    # a GPT-2 LoRA fine-tuner on Alpaca: logger.info(f"Epoch {e} | Step {s}/{n} | Loss: ... | PPL: ... | LR: ... |
    # Grad: ... | Time: ...s") every 10 steps; after the epoch logger.info("📊 Evaluation Results:") and its metrics
    # indented under it, one a line
    prefix = "INFO:__main__:"
    lines = [
        prefix
        + f"Epoch 0 | Step {s}/6501 | Loss: 0.5{s % 97:03d} | PPL: 1.72 | LR: 1.53e-04 | Grad: 0.281 | Time: 0.524s"
        for s in range(6450, 6510, 10)
    ]
    lines += [prefix + "📊 Evaluation Results:", prefix + "   Loss: 0.5301", prefix + "   Perplexity: 1.70"]
    lines += [prefix + "   Tokens: 2,982,385"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(6450, 6510, 10))
    assert [(e["line"], e["step"], e["eval_loss"]) for e in evals(parsed)] == [(8, 6500, 0.5301)]
    assert row_at(parsed, 6)["eval_loss"] == 0.5301


def test_lines_of_scores_alone_are_evaluations(write_log):
    # CPM-Bee tutorials/decoder_tuning (the DecT runner): every 20 epochs print("Total epoch: {}. DecT loss:
    # {}".format(epoch, loss)), print("val acc:", eval_res), and where the val accuracy improves print("test acc
    # at best val:", test_res); at the end print("Total time:", t) and print("Final acc:", res)
    lines = [
        "Total epoch: 20. DecT loss: 0.079",
        "val acc: 0.9375",
        "test acc at best val: 0.9193",
        "Total epoch: 40. DecT loss: 0.0587",
        "val acc: 0.9375",
        "Total epoch: 60. DecT loss: 0.0553",
        "val acc: 0.9375",
        "Total time: 36.72",
        "Final acc: 0.9204",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60]
    assert list(parsed.rows["loss"]) == [0.079, 0.0587, 0.0553]
    assert [e["line"] for e in evals(parsed)] == [2, 3, 5, 7, 9]
    assert not any("acc" in column for column in parsed.rows.columns)  # no score joins a step's row


def test_a_setting_named_like_a_score_before_the_steps_is_no_evaluation(write_log):
    # a run's configuration printed before its steps (Lightning's trainer arguments as YAML: `precision: 16`),
    # then the DecT runner's epoch lines; only the score printed once after the steps is an evaluation
    lines = [
        "precision: 16",
        *(f"Total epoch: {20 * k}. DecT loss: 0.0{9 - k}" for k in (1, 2, 3)),
        "Final acc: 0.92",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60]
    assert [e["line"] for e in evals(parsed)] == [5]


def _fcn_epochs(epochs: int) -> list[str]:
    # xliu59/Image-Semantic-Segmentation FCN.py train(): 'Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
    # epoch, i * len(images), len(train_loader.dataset), 100. * i / len(train_loader), loss), then print('Start
    # testing') and four indented metrics
    lines = []
    for e in range(epochs):
        lines += [f"Train Epoch: {e} [{i * 320}/1464 ({i * 22}%)]\tLoss: 0.{9 - e}{i}0000" for i in range(4)]
        lines += [
            "Start testing",
            f"    Accuracy: {79.5 + e}",
            f"    Accuracy Class: {26.25 + e}",
            f"    Mean IU: {19.75 + e}",
            f"    FWAV Accuracy: {65.125 + e}",
        ]
    return lines


def _glue_epochs(epochs: int) -> list[str]:
    # huggingface/transformers examples/run_glue.py (v2): logger.info("***** Eval results {} *****".format(prefix))
    # then, per metric in sorted order, logger.info("  %s = %s", key, str(result[key])), behind its logging format
    # '%(asctime)s - %(levelname)s - %(name)s -   %(message)s'; a loop's own step lines between
    lines = []
    for e in range(epochs):
        lines += [
            f"05/01/2020 10:{e}{i}:00 - INFO - __main__ -   step {100 * (4 * e + i + 1)} | loss {2 - e / 4 - i / 10:.4f}"
            for i in range(4)
        ]
        lines += [
            f"05/01/2020 10:{e}5:00 - INFO - __main__ -   ***** Eval results  *****",
            f"05/01/2020 10:{e}5:00 - INFO - __main__ -     acc = 0.8{e}25",
            f"05/01/2020 10:{e}5:00 - INFO - __main__ -     acc_and_f1 = 0.8{e}5",
            f"05/01/2020 10:{e}5:00 - INFO - __main__ -     f1 = 0.8{e}75",
        ]
    return lines


@pytest.mark.parametrize(
    ("lines", "steps", "heading"),
    [
        (_fcn_epochs(3), [0, 320, 640, 960] * 3, [5, 14, 23]),
        (_glue_epochs(2), [100, 200, 300, 400, 500, 600, 700, 800], [5, 13]),
    ],
)
def test_an_evaluation_announced_by_a_heading_is_one_event_each(write_log, lines, steps, heading):
    # the results printed under a line of words alone that says an evaluation: one evaluation per heading
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == steps
    assert [e["line"] for e in evals(parsed)] == [h + 1 for h in heading]


def test_a_sentence_about_the_validation_data_heads_no_evaluation(write_log):
    # MaxNickell/ShortLLM's RL fine-tuning: "Using stratified val subset of 495 samples" names the data, not an
    # evaluation under way: the epoch's banner after it is no evaluation's result
    lines = ["Using stratified val subset of 495 samples", "=== RL Epoch 1/10 ==="]
    lines += [f"Step {s}: avg_reward=1.{s // 100}750, loss=-{s // 100}.9704" for s in range(100, 600, 100)]
    lines += ["Step 500 [EVAL]: train_reward=1.3807, val_reward=1.3232, val_optimal=53.33%"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert [e["line"] for e in evals(parsed)] == [8]
    # a heading of an evaluation under way counts what it goes over, and still heads the results under it
    lines = []
    for e in range(1, 4):
        lines += [f"step {e * 100 + i * 10} loss {3 - e / 10 - i / 100:.3f}" for i in range(5)]
        lines += ["Evaluating on 500 images", f"  loss: 0.{e}5", f"  accuracy: 0.8{e}"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in evals(parsed)] == [7, 15, 23]
    # and a value after a key's sign is no count: `Validation accuracy: 0` heads nothing (OpenNMT-py's epoch end,
    # then `Decaying learning rate to 0.000125`)
    lines = [
        f"Epoch  9, {b:5d}/  725; acc:   0.00; ppl:   1.{99 - b // 50}; 5306 src tok/s"
        for b in range(50, 750, 50)
    ]
    lines += ["Validation perplexity: 8.3781", "Validation accuracy: 0", "Decaying learning rate to 0.000125"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert "Decaying" not in " ".join(e["text"] for e in evals(parsed))


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # MIC-DKFZ/nnUNet nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py print_to_log_file (each line stamped
        # f"{datetime}: "): on_epoch_start 'Epoch {e}', 'Current learning rate: {lr}'; on_epoch_end 'train_loss
        # {}', 'val_loss {}', 'Pseudo dice [...]', 'Epoch time: {} s', and on a new best f"Yayy! New best EMA pseudo
        # Dice: {best_ema}"
        (
            [
                line
                for e, best in ((0, True), (1, False), (2, True))
                for line in (
                    f"2024-04-26 09:4{2 * e}:10.910043: Epoch {e}",
                    f"2024-04-26 09:4{2 * e}:10.914042: Current learning rate: 0.0{100 - e}",
                    f"2024-04-26 09:4{2 * e + 1}:39.493872: train_loss 0.{7 - e}088",
                    f"2024-04-26 09:4{2 * e + 1}:39.498914: val_loss 0.{5 - e}628",
                    f"2024-04-26 09:4{2 * e + 1}:39.505914: Epoch time: 148.5{e} s",
                    *(
                        [f"2024-04-26 09:4{2 * e + 1}:39.507914: Yayy! New best EMA pseudo Dice: 0.{e}5"]
                        if best
                        else []
                    ),
                )
            ],
            [4, 10, 15],
        ),
        # a fine-tuning loop's print(f"Epoch {epoch}: Train Loss = {avg_loss:.4f}, Val Acc = {val_acc:.4f}"), then
        # where it improves print(f"New best validation accuracy: {val_acc:.4f}"): the
        # evaluation rides on the epoch's row, the best so far is no second one
        (
            [
                line
                for e, best in ((1, True), (2, True), (3, False), (4, True))
                for line in (
                    f"Epoch {e}: Train Loss = 0.{9 - e}125, Val Acc = 0.{e}250",
                    *([f"New best validation accuracy: 0.{e}250"] if best else []),
                )
            ],
            [],
        ),
    ],
)
def test_the_best_score_so_far_is_no_evaluation_of_its_own(write_log, lines, expected):
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert len(steps_of(parsed)) >= 3
    assert [e["line"] for e in evals(parsed)] == expected


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


@pytest.mark.parametrize(
    "save",
    [
        # rasbt/LLMs-from-scratch ch05/03_bonus_pretraining_on_gutenberg/pretraining_simple.py: print(f"Saved
        # {file_name}") of output_dir / f"model_pg_{global_step}.pth", quoted in its README with markdown's "> "
        "> Saved model_checkpoints/model_pg_{step}.pth",
        # custom loops: print(f"Saved checkpoint_{step}.pth") after torch.save(model.state_dict(), ...)
        "Saved checkpoint_{step}.pth",
        "--> Found New Best Model (0.41)! Saving to model_best.pth",
        # a folder's name is not what was saved: karpathy/nanochat nanochat/checkpoint_manager.py logs the
        # checkpoint's metadata beside its model ("Saved metadata to: {meta_path}"), no save of a model of its own
        "",
    ],
)
def test_a_checkpoint_named_by_its_path_alone_is_a_save(write_log, save):
    # the step lines: the same README's f"Ep {epoch+1} (Step {global_step}): Train loss {train_loss:.3f}, Val loss
    # {val_loss:.3f}"; the save after step 300
    line = "> Ep 1 (Step {}): Train loss {:.3f}, Val loss {:.3f}"
    lines = [line.format(s, 9 - s / 100, 9.5 - s / 100) for s in (100, 200, 300)]
    lines.append(save.format(step=312) or "Saved metadata to: out/base_checkpoints/d2/meta_000312.json")
    lines += [line.format(s, 9 - s / 100, 9.5 - s / 100) for s in (400, 500)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    ev = parsed.events
    saves = [] if ev.empty else [int(r.line) for r in ev[ev["event"] == "checkpoint_save"].itertuples()]
    assert saves == ([4] if save else [])
    assert steps_of(parsed) == [100, 200, 300, 400, 500]


def test_an_average_valid_loss_line_after_the_epoch_is_an_evaluation(write_log):
    # tkipf/c-swm train.py: print('Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(...)) per log interval, then
    # print('====> Epoch: {} Average train loss: {:.6f}') and, on the validation set, '====> Average valid loss: {:.6f}'
    lines = [f"Epoch: 7 [ {i}/100000 ] \t Loss: 0.3{i:02d}971" for i in range(6, 90, 10)]
    lines += ["====> Epoch: 7 Average train loss: 0.336299", "====> Average valid loss: 0.341634"]
    lines += [f"Epoch: 8 [ {i}/100000 ] \t Loss: 0.3{i:02d}971" for i in range(6, 40, 10)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["eval_loss"] for e in evals(parsed)] == [0.341634]


def test_a_forecasters_error_metrics_after_training_are_an_evaluation(write_log):
    # laiguokun/LSTNet ports (a PyTorch one prints 'Epoch {}/{}, step {}/{}, loss = {:.4f}' per 10 batches, then
    # the test set's 'RMSE {:.4f}, MAPE {:.4f}' once after training)
    lines = [f"Epoch 2/2, step {s}/542, loss = 0.00{s % 9 + 1}" for s in range(10, 80, 10)]
    lines.append("RMSE 30.9601, MAPE 0.3924")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(10, 80, 10))
    assert [e["line"] for e in evals(parsed)] == [8]


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


def test_a_time_over_its_lines_own_count_of_steps_reads_alike_in_every_lane(write_log, monkeypatch):
    # google/trax trax/supervised/training.py (7c189c2c) Loop.run: 'Step % 6d: %s' % (step, 'Ran %d train steps in
    # %0.2f secs' % (n_steps, elapsed_time)), n_steps the steps since the last report: here 10, or 5 every fourth
    # report. The fast lane divides by each line's own count as the one-pass reading does.
    from tests.test_chunks import _lane_rows

    lines, step, want = [], 0, []
    for i in range(1, 3001):
        n = 5 if i % 4 == 0 else 10
        step += n
        lines.append(f"Step {step:6d}: Ran {n} train steps in {n * (0.2 + i % 7 / 100):0.2f} secs")
        want.append(0.2 + i % 7 / 100)
    log = write_log("\n".join(lines) + "\n")
    made_rows = _lane_rows(monkeypatch)
    one = parse_log(str(log), load_sets())
    made_rows.clear()
    ranges = parse_log(str(log), load_sets(), jobs=1, chunk_bytes=40_000)
    assert sum(made_rows) > 0.8 * 3000  # the lane read them
    assert len(one.rows) == 3000 and one.format == "generic"
    assert one.rows.drop(columns=["pattern"]).equals(ranges.rows.drop(columns=["pattern"]))
    assert ranges.rows["step_time_s"].tolist() == pytest.approx(want, rel=1e-12)


def test_a_records_unset_values_are_its_own_and_read_alike_in_ranges(write_log):
    # esmaeil-abedi-dev/verifier-as-reward train_verifier_reward.py log_point: a JSON object a record, its `loss` and
    # `mean_reward` None (null) at the step-0 baseline; here also once midway (an interval of skipped updates)
    lines = [json.dumps({"type": "config", "steps": 3000, "lr": 2e-05})]
    for step in range(0, 3001, 1):
        unset = step in (0, 1500)  # the baseline, and an interval whose updates were all skipped
        loss = None if unset else round(0.7 - step / 10000, 4)
        lines.append(
            json.dumps({"step": step, "mean_reward": None if unset else 0.05, "loss": loss, "acc": 0.5})
        )
    log = write_log("\n".join(lines) + "\n")
    one = parse_log(str(log), load_sets())
    assert one.format == "generic" and len(one.rows) == 3001
    assert list(one.rows["step"][:3]) == [0, 1, 2]
    assert math.isnan(one.rows["loss"].iloc[0]) and one.rows["loss"].iloc[1] == 0.6999
    assert math.isnan(one.rows["loss"].iloc[1500]) and one.rows["loss"].iloc[1501] == 0.5499
    ranges = parse_log(str(log), load_sets(), jobs=1, chunk_bytes=40_000)
    assert one.rows.drop(columns=["pattern"]).equals(ranges.rows.drop(columns=["pattern"]))


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


def test_patterns_new_keeps_a_time_over_its_lines_own_count_of_steps(tmp_path, write_log):
    # google/trax trax/supervised/training.py Loop.run: 'Step % 6d: %s' % (step, 'Ran %d train steps in %0.2f secs'
    # % (n_steps, elapsed_time)); 20 s over 10 steps, then 6 s over 5 steps
    lines = [
        f"Step {s:6d}: Ran {n} train steps in {t:0.2f} secs"
        for s, n, t in ((10, 10, 20.0), (15, 5, 6.0), (25, 10, 20.0), (30, 5, 6.0), (40, 10, 20.0))
    ]
    log = write_log("\n".join(lines) + "\n")
    out = tmp_path / "sets" / "mine.toml"
    assert run_apart(["patterns", "new", str(log), "-o", str(out)]).exit_code == 0
    assert run_apart(["patterns", "test", str(out.parent)]).exit_code == 0
    mine = api.resolve(log, patterns=(str(out.parent),), format="mine")
    assert list(mine.steps["step"]) == [10, 15, 25, 30, 40]
    assert list(mine.steps["step_time_s"]) == pytest.approx([2.0, 1.2, 2.0, 1.2, 2.0], rel=1e-12)


def test_a_bar_counting_to_the_records_total_keeps_its_frames_and_leaves_the_time_to_them(write_log):
    # a loop that redraws tqdm(total=8) with set_postfix(loss=...) every step (tqdm/std.py format_meter) and
    # logs its own `step {s}/8 | loss ... | ... ms/step` every second step: both count the run's 8 steps
    lines = []
    for s in range(1, 9):
        lines.append(
            f"{s * 100 // 8:3d}%|#    | {s}/8 [00:0{s}<00:0{8 - s},  4.{s}0it/s, loss={3 - s / 10:.3g}]"
        )
        if s % 2 == 0:
            lines.append(f"step {s}/8 | loss {3 - s / 10:.4f} | 250.0 ms/step")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    steps = api.parse(str(parsed.path))
    assert list(steps["step"]) == list(range(1, 9))  # every step the bar drew, not only the logged ones
    by_step = steps.set_index("step")
    assert list(by_step["loss"]) == pytest.approx([3 - s / 10 for s in range(1, 9)])
    # the records' own time where they print it; the bar's smoothed rate is no step's time
    assert list(by_step.loc[[2, 4, 6, 8], "step_time_s"]) == [0.25] * 4
    assert by_step.loc[[1, 3, 5, 7], "step_time_s"].isna().all()


def test_a_metric_in_long_form_is_a_column_per_tag_and_no_restart(write_log):
    # TensorBoard's scalar events exported one per line (tensorboard EventAccumulator.Scalars(tag): wall_time, step,
    # value), as a diffusers run's events are written out: every step's loss, then every step's lr
    loss = {s: 1.2 - s / 20 for s in range(1, 7)}
    lr = {s: 2.5e-4 * s for s in range(1, 7)}
    lines = [
        f'{{"tag": "loss", "step": {s}, "value": {v!r}, "wall_time": {1.7e9 + s}}}' for s, v in loss.items()
    ]
    lines += [
        f'{{"tag": "lr", "step": {s}, "value": {v!r}, "wall_time": {1.7e9 + s}}}' for s, v in lr.items()
    ]
    a = api.analyze(str(write_log("\n".join(lines) + "\n")))
    steps = a.steps.set_index("step")
    assert list(steps.index) == list(range(1, 7))
    assert list(steps["loss"]) == [loss[s] for s in range(1, 7)]
    assert list(steps["lr"]) == [lr[s] for s in range(1, 7)]
    assert a.summary["restarts"] == []  # the lr rows go back to step 1 as another kind of line, not a resume


# ------------------------------------------------------------------------------------------------
# what a value is: units, rates, clocks


def test_names_listed_before_values_listed_alike(write_log):
    # VisualComputingInstitute/triplet-reid train.py: log.info('iter:{:6d}, loss min|avg|max: {:.3f}|{:.3f}|{:6.3f},
    # batch-p@{}: {:.2%}, ETA: {} ({:.2f}s/it)') of the batch's per-sample losses (their mean is what it minimizes)
    lines = [
        f"2020-02-25 16:09:2{i},295 [INFO] train: iter: {30 + i:>5}, loss min|avg|max: 0.7{i}0|0.9{i}0| 3.5{i}7, "
        f"batch-p@3: 16.15%, ETA: 2:26:17 (0.3{i}s/it)"
        for i in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [31, 32, 33, 34]
    assert list(parsed.rows["loss"]) == [0.91, 0.92, 0.93, 0.94]
    assert list(parsed.rows["step_time_s"]) == [0.31, 0.32, 0.33, 0.34]


def test_each_stages_seconds_glued_to_its_tag(write_log):
    # microsoft/recommenders recommenders/models/deeprec/models/graphrec/lightgcn.py LightGCN.fit: "Epoch %d
    # (train)%.1fs: train loss = %.5f = (mf)%.5f + (embed)%.5f" and, every eval_epoch epochs, "Epoch %d
    # (train)%.1fs + (eval)%.1fs: ..." with the ranking metrics after: the training's seconds are the epoch's
    lines = []
    for epoch in range(1, 21):
        train = 0.7 + epoch % 3 / 10
        if epoch % 5:
            lines.append(
                f"Epoch {epoch} (train){train:.1f}s: train loss = 0.{50 - epoch}000 = (mf)0.1 + (embed)0.2"
            )
        else:
            lines.append(
                f"Epoch {epoch} (train){train:.1f}s + (eval)0.3s: train loss = 0.{50 - epoch}000 = (mf)0.1 + "
                f"(embed)0.2, recall = 0.1{epoch}, ndcg = 0.3{epoch}"
            )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(1, 21))
    assert list(parsed.rows["step_time_s"]) == pytest.approx([0.7 + e % 3 / 10 for e in range(1, 21)])
    assert row_at(parsed, 5)["loss"] == 0.45


def test_a_rate_in_brackets_after_a_value_is_its_own_value(write_log):
    # TF-slim tensorflow/contrib/slim/python/slim/learning.py train_step: logging.info('global step %d: loss =
    # %.4f (%.3f sec/step)', np_global_step, total_loss, time_elapsed): the bracket holds the step's seconds,
    # not a running average of the loss
    lines = [
        f"INFO:tensorflow:global step {s}: loss = {1 - s / 100:.4f} ({1 + s / 1000:.3f} sec/step)"
        for s in range(1, 4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    assert list(parsed.rows["loss"]) == [0.99, 0.98, 0.97]
    assert list(parsed.rows["step_time_s"]) == [1.001, 1.002, 1.003]


def test_a_bare_per_second_after_a_value_is_samples_per_second(write_log):
    # open_clip src/open_clip_train/train.py train_one_epoch: f"Train Epoch: {epoch} [{num_samples:>{sample_digits}}/
    # {samples_per_epoch} ({percent_complete:.0f}%)] " f"Data (t): {data_time_m.avg:.3f} " f"Batch (t):
    # {batch_time_m.avg:.3f}, {samples_per_second:#g}/s, {samples_per_second_per_gpu:#g}/s/gpu " f"LR:
    # {optimizer.param_groups[0]['lr']:5f} " + loss_log, loss_log "Contrastive_loss: {val:#.5g} ({avg:#.5g})";
    # samples_per_second = batch_size * world_size / batch_time (here 256 samples on 2 GPUs)
    lines = [
        f"2024-06-29,15:4{i}:40 | INFO | Train Epoch: 0 [{256 * i:>6}/109468 ({256 * i * 100 // 109468}%)] "
        f"Data (t): 0.100 Batch (t): {t:.3f}, {256 / t:#g}/s, {128 / t:#g}/s/gpu LR: 0.000100 "
        f"Logit Scale: 14.286 Contrastive_loss: {1 - i / 10:#.5g} ({1 - i / 20:#.5g})"
        for i, t in ((1, 0.5), (2, 0.4), (3, 0.25))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows
    assert list(rows["step_time_s"]) == [0.5, 0.4, 0.25]
    assert list(rows["samples_per_s"]) == [512.0, 640.0, 1024.0]
    assert list(rows["samples_per_s_per_gpu"]) == [256.0, 320.0, 512.0]
    assert list(rows["loss"]) == [0.9, 0.8, 0.7]


def test_the_longest_of_a_steps_times_is_the_steps_and_a_clock_must_rise(write_log):
    # espnet2 espnet2/train/reporter.py Reporter.log_message: f"{epoch}epoch:{key}:{start}-{end}batch: " then
    # "k=v" joined by ", "; espnet2/train/trainer.py train_one_epoch registers iter_time (the wait for the next
    # batch: reporter.measure_iter_time), forward_time, backward_time, optim_step_time and train_time =
    # time.perf_counter() - start_time, the whole iteration since the last one ended: no clock since training began
    times = [0.014, 0.016, 0.013, 0.015, 0.014]
    lines = [
        f"[host] 2020-11-11 16:36:{30 + 5 * i:02d},446 (trainer:486) INFO: 5epoch:train:{375 * i + 1}-{375 * (i + 1)}"
        f"batch: iter_time=0.00{i + 1}, forward_time=0.005, loss={1.7 + i / 100:.3f}, backward_time=0.005, "
        f"optim_step_time=2.005e-04, lr_0=0.100, train_time={t:.3f}"
        for i, t in enumerate(times)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows
    assert list(rows["step_time_s"]) == times
    assert list(rows["x_iter_time"]) == [0.001, 0.002, 0.003, 0.004, 0.005]  # a part of the step, kept
    assert "train_elapsed_s" not in rows or rows["train_elapsed_s"].isna().all()


def test_a_time_with_no_key_that_rises_is_the_clock_since_training_began(write_log):
    # OpenNMT-py onmt/utils/statistics.py Statistics.output: "Step %s; acc: %6.2f; ppl: %5.2f; xent: %4.2f; lr:
    # %7.5f; %3.0f/%3.0f tok/s; %6.0f sec" % (..., time.time() - start): seconds since training began; xent is the
    # cross-entropy it trains on (ppl = exp(xent))
    lines = [
        f"[2019-03-21 18:3{i}:43,773 INFO] Step {50 * (i + 1)}/200000; acc:  31.18; ppl: 57.53; xent: 4.0{i}; "
        f"lr: 0.00028; 5092/261 tok/s;   {100 + 148 * i:4d} sec"
        for i in range(5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows
    assert list(rows["train_elapsed_s"]) == [100.0, 248.0, 396.0, 544.0, 692.0]
    assert list(rows["loss"]) == [4.0, 4.01, 4.02, 4.03, 4.04]
    assert "step_time_s" not in rows or rows["step_time_s"].isna().all()


def test_a_time_with_no_key_that_goes_up_and_down_is_the_steps(write_log):
    # karpathy/llm.c train_gpt2.py: f"step {step+1:4d}/{args.num_iterations} | train loss {lossf:.6f} | norm
    # {norm:.4f} | lr {lr:.2e} | ({(t1-t0)*1000:.2f} ms | {tokens_per_second:.0f} tok/s)"
    ms = [412.5, 398.25, 405.0, 399.5, 401.75]
    lines = [
        f"step {s + 1:4d}/50 | train loss {5 - s / 10:.6f} | norm 1.2000 | lr 6.00e-04 | ({t:.2f} ms | "
        f"{round(4096 / t * 1000)} tok/s)"
        for s, t in enumerate(ms)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [round(v, 9) for v in parsed.rows["step_time_s"]] == [t / 1000 for t in ms]


def test_the_learning_rate_of_a_printed_list_is_the_item_that_holds_steady(write_log):
    # jaywalnut310/vits train.py train_and_evaluate: logger.info('Train Epoch: {} [{:.0f}%]'.format(epoch, 100. *
    # batch_idx / len(train_loader))) then logger.info([x.item() for x in losses] + [global_step, lr]), losses =
    # [loss_disc, loss_gen, loss_fm, loss_mel, loss_dur, loss_kl]; lr = optim_g.param_groups[0]['lr'] under
    # ExponentialLR(gamma=0.999875) stepped once an epoch, here from 2e-4 at epoch 1
    losses = [
        [3.0000238, 1.4992263, 1.4684797e-05, 0.2452947, 1.7586746, -0.5710883],
        [2.9873, 1.5012, 1.599153e-06, 0.2704768, 1.5593206, -0.0706983],
        [3.0001, 1.4969582, 1.2474944e-06, 0.2309423, 1.8005414, -0.6056144],
        [2.8765, 1.6012, 3.2e-06, 0.2511, 1.7021, -0.3313],
    ]
    lines = []
    for k, items in enumerate(losses):
        epoch = 11 + k
        lr = 2e-4 * 0.999875 ** (epoch - 1)
        lines += [
            f"INFO:vits:====> Epoch: {epoch - 1}",
            f"INFO:vits:Train Epoch: {epoch} [{5 + 30 * k}%]",
            f"INFO:vits:{[*items, 6200 + 200 * k, lr]}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [6200, 6400, 6600, 6800]
    want = [2e-4 * 0.999875 ** (epoch - 1) for epoch in (11, 12, 13, 14)]
    assert list(parsed.rows.loc[parsed.rows["kind"] == "step", "lr"]) == want


def test_a_clock_beside_a_step_time_is_never_the_steps(write_log):
    # a loop's own record per step, as tests/data/captures/accelerate/capture_accel.py writes it (json.dumps of
    # {"epoch", "step", "loss", "lr", "step_time", "logged", "time": time.time()}), with `time` written first: a
    # time the key model reads as a step's, whose values rise line after line (seconds since 1970): the row's clock
    step_times = [0.0238, 0.0788, 0.0542, 0.0582, 0.0601]
    clock = [1796156467.52, 1796156467.6, 1796156467.66, 1796156467.72, 1796156467.78]
    lines = [
        f'{{"time": {now}, "epoch": 0, "step": {s}, "loss": {4.2 - s / 100:.2f}, "step_time": {dt}}}'
        for s, (now, dt) in enumerate(zip(clock, step_times, strict=True), 1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows
    assert list(rows["step_time_s"]) == step_times
    assert list(rows["timestamp"]) == clock  # the row's stamp, as a logger prefix's would be


def test_a_bracket_after_the_key_names_the_bracketed_value_after_its_own(write_log):
    # BasicSR basicsr/utils/logger.py MessageLogger.__call__: f"[{exp_name[:5]}..][epoch:{epoch:3d}, iter:{iter:8,d},
    # lr:(" + f"{v:.3e}," per lr + ")] " then f"[eta: {eta_str}, " f"time (data): {iter_time:.3f} ({data_time:.3f})] "
    # then f"{k}: {v:.4e} " per loss: the iteration's seconds, then the data loading's in brackets
    times = [(0.365, 0.002), (0.375, 0.003), (0.39, 0.002), (0.377, 0.004)]
    lines = [
        f"2020-08-15 15:5{i}:30,390 INFO: [My_ES..][epoch:{207 + i:3d}, iter:{400 + 100 * i:8,d}, lr:(1.000e-04,)] "
        f"[eta: 1 day, 18:13:17, time (data): {t:.3f} ({d:.3f})] l_g_pix: 3.1516e-04 l_g_percep: 5.2308e-01"
        for i, (t, d) in enumerate(times)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows
    assert list(rows["step_time_s"]) == [t for t, _ in times]
    assert list(rows["x_data_time_s"]) == [d for _, d in times]


@pytest.mark.parametrize(
    ("fmt", "avg_column"),
    [
        # pjreddie/darknet src/detector.c train_detector: printf("%ld: %f, %f avg, %f rate, %lf seconds, %d images\n",
        # get_current_batch(net), loss, avg_loss, get_current_rate(net), what_time_is_it_now()-time, i*imgs)
        ("{it}: {loss:f}, {avg:f} avg, {lr:f} rate, {dt:f} seconds, {imgs} images", "x_avg"),
        # AlexeyAB/darknet src/detector.c: "\n %d: %f, %f avg loss, %f rate, %lf seconds, %d images, %f hours left\n":
        # `avg loss`, the running average of the loss printed before it (kept as printed)
        (
            "{it}: {loss:f}, {avg:f} avg loss, {lr:f} rate, {dt:f} seconds, {imgs} images, 1.250000 hours left",
            "x_avg_loss",
        ),
    ],
)
def test_a_word_after_a_value_names_it_or_is_its_unit(write_log, fmt, avg_column):
    seconds = [3.514, 1.574, 3.294, 2.851, 3.012]
    lines = [
        fmt.format(it=75 + i, loss=600 - i, avg=500 + i, lr=0.001, dt=dt, imgs=64 * (75 + i))
        for i, dt in enumerate(seconds)
    ]
    rows = frame(write_log("\n".join(lines) + "\n")).rows
    assert list(rows["step_time_s"]) == seconds
    assert list(rows[avg_column]) == [500.0, 501.0, 502.0, 503.0, 504.0]
    # the value with no key before the average is the step's loss; `rate`, a fraction that holds, the lr
    assert list(rows["loss"]) == [600.0, 599.0, 598.0, 597.0, 596.0]
    assert list(rows["lr"]) == [0.001] * 5


@pytest.mark.parametrize(
    "lines,planned",
    [
        # PaddleClas ppcls/engine/train/utils.py log_info: "[Train][Epoch {}/{}][Iter: {}/{}]{}, {}, ..." (one epoch
        # in view: the epoch is a value of the record, its total the plan)
        (
            [
                f"[2024/07/31 20:24:{i:02d}] ppcls INFO: [Train][Epoch 24/120][Iter: {i * 10}/304]lr(PiecewiseDecay): "
                f"0.00100000, loss: {0.05 + i / 100:.5f}, batch_cost: 0.6{i}000s"
                for i in range(4)
            ],
            120,
        ),
        # an epoch counted as the step, with its total: "Training Epoch:[{}/{}]\t loss={:.5f}\t lr={:.6f}"
        (
            [f"Training Epoch:[{e}/1500]\t loss={10 - e / 100:.5f}\t lr=0.000100" for e in range(137, 141)],
            1500,
        ),
        # a line of its own per epoch, as MONAI's tutorials print it
        (
            [
                line
                for e in (1, 2)
                for line in (
                    f"epoch {e}/300",
                    *(f"{i}/16, train_loss: {0.5 - i / 100:.4f}" for i in (1, 2, 3)),
                )
            ],
            300,
        ),
    ],
    ids=["epoch-value", "epoch-counter", "epoch-line"],
)
def test_the_epochs_a_run_plans_are_a_fact(write_log, lines, planned):
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [f.value for f in parsed.facts["num_epochs"]][-1] == planned


@pytest.mark.parametrize(
    "lines",
    [
        # a loop whose lines say their rank (`print(f"rank {rank}: step ...")`, no launcher prefix)
        [f"rank {r}: step {s}/80 | loss {2.2 - s / 100 + r / 10:.4f}" for s in (10, 20, 30) for r in (0, 1)],
        # an epoch counted as the step, with its total
        [f"Training Epoch:[{e}/1500]\t loss={10 - e / 100:.5f}\t lr=0.000100" for e in range(137, 141)],
    ],
    ids=["rank", "epochs-planned"],
)
def test_patterns_new_writes_a_set_that_loads_for_what_no_column_holds(tmp_path, write_log, lines):
    # the inferred reading reads the rank a line prints and the epochs it plans; a pattern set has no column for
    # them, so the set written leaves them out and still loads, its samples passing
    log = write_log("\n".join(lines) + "\n")
    out = tmp_path / "sets" / "mine.toml"
    assert run_apart(["patterns", "new", str(log), "-o", str(out)]).exit_code == 0
    assert run_apart(["patterns", "test", str(out.parent)]).exit_code == 0


@pytest.mark.parametrize(
    ("train", "test"),
    [
        # leela-zero/leela-zero training/tf/tfprocess.py: every 1000 steps "step {}, policy={:g} mse={:g} reg={:g}
        # total={:g} ({:g} pos/s)", and at each test interval the test set's "step {}, policy={:g} training
        # accuracy={:g}%, mse={:g}" at a step already printed
        (
            "step {s}, policy={p:g} mse={m:g} reg=0.100594 total={t:g} (312.5 pos/s)",
            "step {s}, policy={p:g} training accuracy=60.6523%, mse={m:g}",
        ),
        # LeelaChessZero/lczero-training tf/tfprocess.py: "step {}, lr={:g} policy={:g} value={:g} mse={:g} reg={:g}
        # total={:g} ({:g} pos/s)" and the test set's "step {}, policy={:g} value={:g} policy accuracy={:g}% value
        # accuracy={:g}% mse={:g}"
        (
            "step {s}, lr=0.02 policy={p:g} value=0.75 mse={m:g} reg=0.1 total={t:g} (2048 pos/s)",
            "step {s}, policy={p:g} value=0.8 policy accuracy=41.5% value accuracy=55.25% mse={m:g}",
        ),
    ],
    ids=["leela-zero", "lczero-training"],
)
def test_a_rarer_line_that_measures_a_printed_step_again_is_an_evaluation(write_log, train, test):
    lines = [train.format(s=1000 * k, p=1.7 - k / 100, m=0.19, t=2.5 - k / 100) for k in range(537, 545)]
    lines.append(test.format(s=544000, p=1.6875, m=0.193161))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000 * k for k in range(537, 545)]
    assert [e["line"] for e in evals(parsed)] == [9]
    assert evals(parsed)[0]["step"] == 544000
    # the step's own row keeps the training line's values
    assert row_at(parsed, 8)["x_policy"] == pytest.approx(1.7 - 544 / 100)


@pytest.mark.parametrize(
    ("head", "rest"),
    [
        # jwyang/faster-rcnn.pytorch trainval_net.py: every disp_interval steps print("[session %d][epoch %2d][iter
        # %4d/%4d] loss: %.4f, lr: %.2e"), print("\t\t\tfg/bg=(%d/%d), time cost: %f"), print("\t\t\trpn_cls: %.4f,
        # rpn_box: %.4f, rcnn_cls: %.4f, rcnn_box %.4f")
        (
            "[session 1][epoch  1][iter {s:4d}/13464] loss: {loss:.4f}, lr: 1.00e-03",
            [
                "\t\t\tfg/bg=({fg}/{bg}), time cost: 27.{k}46884",
                "\t\t\trpn_cls: 0.0{k}48, rpn_box: 0.0632, rcnn_cls: 0.0789, rcnn_box 0.1352",
            ],
        ),
        # a public fork of it with a mask and a pose head, its train script: print("[%s][session
        # %d][epoch %2d][iter %4d / %4d]"), print("\t\tloss: %.4f, lr: %.2e"), print("\t\tfg/bg=(%d/%d), time cost:
        # %f"), print("\t\trpn_cls: %.4f, rpn_box: %.4f, rcnn_cls: %.4f, rcnn_box %.4f, mask %.4f, pose %.4f")
        (
            "[coco_run][session 1][epoch  2][iter {s:4d} / 7330]",
            [
                "\t\tloss: {loss:.4f}, lr: 1.00e-02",
                "\t\tfg/bg=({fg}/{bg}), time cost: 41.{k}5",
                "\t\trpn_cls: "
                "0.0{k}48, rpn_box: 0.0632, rcnn_cls: 0.0789, rcnn_box 0.1352, mask 0.2{k}, pose 0.3",
            ],
        ),
    ],
    ids=["faster-rcnn.pytorch", "fork"],
)
def test_indented_lines_after_a_record_line_are_that_records(write_log, head, rest):
    lines = []
    for k, fg in enumerate([51, 36, 39, 64, 13]):  # (foreground rois of the batch: as they come)
        s, loss = 4200 + 100 * k, 0.46 - k / 100
        lines.append(head.format(s=s, loss=loss))
        lines.extend(r.format(loss=loss, fg=fg, bg=256 - fg, k=k) for r in rest)
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [4200, 4300, 4400, 4500, 4600]
    rows = parsed.rows
    assert len(rows) == 5  # the indented lines are no rows of their own
    assert list(rows["loss"]) == pytest.approx([0.46 - k / 100 for k in range(5)])
    # the parts printed on the record's last line are its row's
    assert list(rows["x_rpn_cls"]) == pytest.approx([0.0048 + k / 100 for k in range(5)])
    assert list(rows["line"]) == [1 + (len(rest) + 1) * k for k in range(5)]


@pytest.mark.parametrize(
    ("marker", "planned"),
    [
        # allenai/allennlp 0.x allennlp/training/trainer.py _train_epoch: logger.info("Epoch %d/%d", epoch,
        # self._num_epochs - 1), epochs from 0: the total printed is the last epoch's number
        ("Epoch 0/139", 140),
        # the same logger line of epoch + 1 and the epochs (a public train loop: logger.info("Epoch %d/%d", epoch
        # + 1, num_epochs))
        ("Epoch 1/30", 30),
        ("Epoch 3/30", 30),
    ],
    ids=["from-0", "from-1", "later"],
)
def test_one_epoch_line_before_the_steps_says_the_epochs_planned(write_log, marker, planned):
    # allennlp 0.x trainer with no_tqdm: logger.info("Batch %d/%d: %s", batch_num, num_batches, description) every
    # 10 s, behind the logging format '%(asctime)s - %(levelname)s - %(name)s - %(message)s'
    prefix = "2017-10-14 16:48:{:02d},962 - INFO - allennlp.training.trainer - "
    lines = [prefix.format(27) + "Beginning training.", prefix.format(27) + marker]
    lines += [
        prefix.format(48 + 10 * k) + f"Batch {b}/17168: accuracy: 0.{25 + k}, loss: {6.66 - k:.2f} ||"
        for k, b in enumerate([1, 567, 1128, 1701])
    ]
    log = write_log("\n".join(lines) + "\n")
    parsed = frame(log)
    assert steps_of(parsed) == [1, 567, 1128, 1701]
    assert [f.value for f in parsed.facts["num_epochs"]][-1] == planned
    # one epoch in view does not show whether the batch counts within the epoch or the whole run: the steps stay
    # as printed
    assert list(api.analyze(str(log)).steps["step"]) == [1, 567, 1128, 1701]


def test_a_rarer_record_of_the_trainings_own_metrics_at_a_printed_step_stays_that_steps(write_log):
    # the Flax NNX MNIST example (google/flax docs_nnx/mnist_tutorial), as tests/data/captures/flax logs it: every
    # step {"kind": "step", "step": s, "loss": ...}, and every 25 steps the interval's training metrics
    # {"kind": "train", "step": s, "loss": ..., "accuracy": ...}: the training's, no evaluation
    lines = [f'{{"kind": "step", "step": {s}, "loss": {1.5 - s / 100}}}' for s in range(20, 31)]
    lines.insert(
        6, '{"kind": "train", "step": 25, "loss": 1.2232470512390137, "accuracy": 44.11057662963867}'
    )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert evals(parsed) == []
    assert parsed.rows.loc[parsed.rows["line"] == 7, "x_accuracy"].tolist() == [44.11057662963867]


def test_a_training_table_of_one_or_two_epochs_is_read(write_log):
    # fastai's console output (fastprogress ConsoleMasterBar.write: the names, then a row of stats per epoch, as
    # tests/data/captures/fastai shows): a fit of one or two epochs prints fewer rows than a table's counter needs
    # to rise over, but its counter column is named the epoch and its rows hold a training loss
    header = "epoch     train_loss  valid_loss  accuracy  time    "
    rows = [(0, 0.384739, 0.230190, 0.925, "00:12"), (1, 0.201134, 0.180712, 0.941, "00:11")]
    lines = [header, *(f"{e:<10d}{t:<12.6f}{v:<12.6f}{a:<10.6f}{tm:<8s}" for e, t, v, a, tm in rows)]
    for n in (1, 2):
        parsed = frame(write_log("\n".join(lines[: 1 + n]) + "\n", f"fit{n}.log"))
        assert steps_of(parsed) == [0, 1][:n]
        first = row_at(parsed, 2)
        assert first["loss"] == 0.384739 and first["eval_loss"] == 0.230190


def test_a_norm_between_bars_and_a_clock_in_minutes(write_log):
    # Rocket-Ramuel/Aria-AI aria/pretrain.py, every 10 steps and at step 1: f"step {step}/{max_steps}  loss
    # {loss:.4f}  lr {lr:.2e}  |g| {gnorm:.2f}  {elapsed / 60:.1f}m": `|g|` the gradient's norm, the last value the
    # minutes since training began
    lines = ["model: 6.52M params (4.43M non-embedding)"]
    minutes = [0.0, 0.1, 0.3, 0.4, 0.5, 0.7]
    for k, (step, m) in enumerate(zip([1, 10, 20, 30, 40, 50], minutes, strict=True)):
        lines.append(
            f"step {step}/5000  loss {9.0 - k / 10:.4f}  lr {3e-6 * step:.2e}  |g| {4.5 - k / 4:.2f}  {m:.1f}m"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 10, 20, 30, 40, 50]
    first, last = row_at(parsed, 2), row_at(parsed, 7)
    assert (first["grad_norm"], last["grad_norm"]) == (4.5, 3.25)
    assert last["progress_total"] == 5000 and last["lr"] == 1.5e-4
    assert last["train_elapsed_s"] == pytest.approx(0.7 * 60)  # 0.7 minutes
    assert row_at(parsed, 4)["train_elapsed_s"] == pytest.approx(0.3 * 60)


@pytest.mark.parametrize(
    "fmt",
    [
        # tensorflow/nmt nmt/train.py print_step_info: "%sstep %d lr %g step-time %.2fs wps %.2fK ppl %.2f gN %.2f
        # %s, %s" % (prefix, global_step, lr, avg_step_time, speed, train_ppl, avg_grad_norm, result_summary,
        # time.ctime())
        "  step {s} lr 1 step-time 0.45s wps 12.34K ppl 51.20 gN {g:.2f} bleu 0.00, Wed Jul  3 17:1{k}:58 2019",
        # guoday/ctrNet-tool src/misc_utils.py print_step_info (after nmt's): "%sepoch %d step %d lr %g logloss
        # %.6f gN %.2f, %s" % (prefix, epoch, global_step, lr, train_ppl, avg_grad_norm, time.ctime())
        "  epoch 0 step {s} lr 0.001 logloss 0.191605 gN {g:.2f}, Wed Jul  3 17:1{k}:58 2019",
    ],
)
def test_the_gradient_norm_printed_as_gn(write_log, fmt):
    norms = [5.25, 4.5, 3.75, 3.0]
    lines = [fmt.format(s=100 * (k + 1), g=g, k=k) for k, g in enumerate(norms)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert list(parsed.rows["grad_norm"]) == norms


@pytest.mark.parametrize(
    ("fmt", "stride"),
    [
        # irom-princeton/dppo agent/pretrain/train_diffusion_agent.py run(), every log_freq epochs:
        # log.info(f"{self.epoch}: train loss {loss_train:8.4f} | t:{timer():8.4f}"), util/timer.Timer's call the
        # seconds since its previous call; Hydra's job logging '[%(asctime)s][%(name)s][%(levelname)s] - %(message)s'
        ("{n}: train loss {loss:8.4f} | t:{t:8.4f}", 1),
        # the same repository's agent/pretrain/train_agent.py, every log_freq batches (here 50): f"Epoch {epoch} Batch
        # {batch_ind}: train loss {loss_train:8.4f} | t:{timer():8.4f}"
        ("Epoch 0 Batch {n}: train loss {loss:8.4f} | t:{t:8.4f}", 50),
    ],
)
def test_an_unknown_key_whose_values_are_the_seconds_between_the_stamps_is_the_time(write_log, fmt, stride):
    times = [58.8116, 61.066, 47.7092, 62.0678]
    stamp, lines = 1731426183.864, []
    for k, t in enumerate(times):
        stamp += t
        clock = pd.Timestamp(stamp, unit="s").strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
        msg = fmt.format(n=(k + 1) * stride, loss=0.1624 - k / 1000, t=t)
        lines.append(f"[{clock}][agent.pretrain.train_diffusion_agent][INFO] - {msg}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [stride, 2 * stride, 3 * stride, 4 * stride]
    assert list(parsed.rows["loss"]) == [0.1624, 0.1614, 0.1604, 0.1594]
    assert list(parsed.rows["step_time_s"]) == pytest.approx([t / stride for t in times])


def test_an_unknown_key_that_is_not_the_time_between_the_stamps_stays_as_printed(write_log):
    # the same layout whose last value is no time: a count that does not follow the stamps' gaps
    lines = [
        f"[2024-11-12 15:4{k}:03,864][agent][INFO] - {k + 1}: train loss 0.16{k}0 | t:{[12, 50, 7, 33][k]:8.4f}"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert "step_time_s" not in parsed.rows or parsed.rows["step_time_s"].isna().all()
    assert list(parsed.rows["x_t"]) == [12, 50, 7, 33]


def test_a_time_named_the_log_interval_is_read_per_step(write_log):
    # OpenBMB/VoxCPM src/voxcpm/training/tracker.py TrainingTracker.log_metrics: f"[{split}] step {self.step}:
    # {formatted}" + f", log interval: {dt:.2f}s" with dt = now - self._last_log_time, called every log_interval
    # steps (scripts/train_voxcpm_finetune.py: `if step % log_interval == 0`), here 10
    intervals = [4.73, 4.65, 4.77, 4.80]
    lines = [
        f"[train] step {step}: loss/diff: 0.63{k}490, loss/stop: 0.000001, lr: 0.000008, epoch: 19.454094, "
        f"grad_norm: 0.88288{k}, log interval: {dt:.2f}s"
        for k, (step, dt) in enumerate(zip([980, 990, 1000, 1010], intervals, strict=True))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [980, 990, 1000, 1010]
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(4.65 / 10)
    assert row_at(parsed, 4)["step_time_s"] == pytest.approx(4.80 / 10)
    assert row_at(parsed, 2)["grad_norm"] == 0.882881


@pytest.mark.parametrize(
    "fmt",
    [
        # kaituoxu/Speech-Transformer src/solver/solver.py _run_one_epoch: 'Epoch {0} | Iter {1} | Average Loss
        # {2:.3f} | Current Loss {3:.6f} | {4:.1f} ms/batch' (the epoch's mean so far, then loss.item())
        "Epoch 3 | Iter {step} | Average Loss {avg:.3f} | Current Loss {cur:.6f} | 201.5 ms/batch",
        # an optimizer's loop in public code: "Step {}, Current Loss {:.4f}, Best Loss {:.4f}, Time {:.1f}"
        "Step {step}, Current Loss {cur:.4f}, Best Loss {avg:.4f}, Time 12.5",
    ],
    ids=["average_current", "current_best"],
)
def test_the_steps_own_loss_beside_its_statistics_is_the_loss(write_log, fmt):
    values = [(11, 1.2, 1.1443), (21, 1.19, 1.1367), (31, 1.18, 1.1502)]
    text = "\n".join(fmt.format(step=s, avg=a, cur=c) for s, a, c in values) + "\n"
    parsed = frame(write_log(text))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["step"]) == [11, 21, 31]
    assert [round(x, 6) for x in rows["loss"]] == [
        float(f"{c:.4f}") if "Best" in fmt else c for _, _, c in values
    ]


def test_letters_for_keys_and_a_total_that_is_their_sum(write_log):
    # dbolya/yolact train.py: print(('[%3d] %7d ||' + (' %s: %.3f |' * len(losses)) + ' T: %.3f || ETA: %s || timer:
    # %.3f') % tuple([epoch, iteration] + loss_labels + [total, eta_str, elapsed])): B, C, M, S are the box, class,
    # mask and semantic losses (S no seconds), T their sum, timer the moving average of an iteration's seconds
    rows = [
        (0, (7.666, 7.013, 4.458, 1.997), 9.527),
        (10, (6.981, 6.276, 5.049, 1.818), 0.29),
        (20, (6.642, 6.06, 5.533, 1.561), 0.286),
        (30, (6.168, 5.853, 5.514, 1.35), 0.289),
    ]
    lines = []
    for it, parts, timer in rows:
        b, c, m, s = parts
        total = round(b + c + m + s, 3)
        lines.append(
            f"[  0] {it:7d} || B: {b:.3f} | C: {c:.3f} | M: {m:.3f} | S: {s:.3f} | T: {total:.3f} || "
            f"ETA: 2 days, 18:01:36 || timer: {timer:.3f}"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 10, 20, 30]
    assert list(parsed.rows["loss"]) == [21.134, 20.124, 19.796, 18.885]
    assert list(parsed.rows["step_time_s"]) == [9.527, 0.29, 0.286, 0.289]


@pytest.mark.parametrize(
    "fmt",
    [
        # okuvshynov/slowllama finetune.py: logging.info(f'backprop done, loss after forward pass = {loss}') each
        # iteration, behind logging's "%(asctime)s %(message)s" (its README's log, the iteration lines filtered out)
        "2023-09-10 22:{m:02d}:35,569 backprop done, loss after forward pass = {x}",
        # a notebook's loop that prints its loss and lr and nothing that counts
        "loss: {x}, lr: 0.0003",
    ],
    ids=["slowllama", "loss_lr"],
)
def test_steps_printed_without_their_number_are_rows_in_order(write_log, fmt):
    losses = [2.9539270401000977, 2.9073102474212646, 2.7192320823669434, 2.7223477363586426]
    lines = ["Loading model", *(fmt.format(m=k, x=x) for k, x in enumerate(losses)), "done"]
    path = write_log("\n".join(lines) + "\n")
    parsed = frame(path)
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["line"]) == [2, 3, 4, 5]
    assert list(rows["loss"]) == losses
    a = api.analyze(str(path))
    assert list(a.steps["step"]) == [1, 2, 3, 4]  # numbered in order, and said
    assert "steps_unnumbered" in {w.code for w in a.run.warnings}


@pytest.mark.parametrize(
    "fmt",
    [
        # KichangKim/DeepDanbooru deepdanbooru/commands/train_project.py (output posted at
        # github.com/KichangKim/DeepDanbooru/issues/42): every few batches
        # 'Epoch[{epoch}] Loss={:.6f}, P={:.6f}, R={:.6f}, F1={:.6f}, Speed = {:.1f} samples/s, {:.2f} %, ETA = ...'
        "Epoch[{e}] Loss={x:.6f}, P=0.625461, R=0.082422, F1=0.145650, Speed = 7.2 samples/s, 99.{k}8 %, "
        "ETA = 2021-09-12 16:55:43",
        # 1025378573/T5-Finetune train.log: logging's "%(asctime)s - %(levelname)s - %(message)s" of f"Epoch {epoch} -
        # Batch loss: {loss:.4f}" after every batch, under a '##### Epoch {epoch} #####' header
        "2025-03-02 05:16:2{k},962 - INFO - Epoch {e} - Batch loss: {x:.4f}",
    ],
    ids=["deepdanbooru", "t5_finetune"],
)
def test_an_epoch_that_stays_over_its_lines_is_their_epoch_not_their_counter(write_log, fmt):
    losses = [(1, 3.366), (1, 3.4243), (1, 3.3012), (1, 3.2229), (2, 3.1), (2, 3.05)]
    lines = ["##### Epoch 1 #####"]
    for k, (e, x) in enumerate(losses):
        if k == 4:
            lines.append("##### Epoch 2 #####")
        lines.append(fmt.format(e=e, x=x, k=k))
    path = write_log("\n".join(lines) + "\n")
    rows = api.parse(str(path))
    assert list(rows["loss"]) == [x for _, x in losses]  # one row each: none merged into its epoch's
    assert list(rows["epoch_index"]) == [e for e, _ in losses]


def test_a_value_printed_twice_is_read_from_its_finer_copy(write_log):
    # ChristianAlexander/gpt-fine-tuner README.md: its `show` command's console.table of an OpenAI fine-tuning job's
    # events, each metrics event with its message (f"Step {step}/{total}: training loss={loss:.2f}") and its data
    # ('{"step":10,"train_loss":0.4045186936855316,...}'): one loss, printed with 2 digits and in full
    losses = [(10, 0.4045186936855316), (20, 0.152922585606575), (30, 0.036188364028930664)]
    lines = []
    for k, (step, x) in enumerate(losses):
        lines.append(
            f"│ {k:^7} │ '2023-08-27T17:3{k}:32.000Z' │ 'metrics' │ 'Step {step}/100: training loss={x:.2f}' │ "
            f'\'{{"step":{step},"train_loss":{x!r},"train_mean_token_accuracy":0.91}}\' │'
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30]
    assert list(parsed.rows["loss"]) == [x for _, x in losses]
    assert list(parsed.rows["x_training_loss"]) == [0.4, 0.15, 0.04]  # the coarser copy kept as printed


@pytest.mark.parametrize(
    "save",
    [
        # Adityak204/SmolLM2-Implementation log_files/training_20250124_083835.log: loguru's
        # logger.info(f"Saved new best model at epoch {epoch} with loss {avg_loss:.4f}") after each epoch's line
        "Saved new best model at epoch {epoch} with loss {loss:.4f}",
        # Shymaa2611/Fine-tuning_GPT2 utils.py save_checkpoint: print(f"Checkpoint saved at epoch {epoch} with loss
        # {loss:.4f} to {filepath}")
        "Checkpoint saved at epoch {epoch} with loss {loss:.4f} to ckpt/epoch_{epoch}.pt",
    ],
)
def test_a_save_note_that_repeats_the_epochs_loss_is_no_second_row(write_log, save):
    # the step line: the same log's logger.info(f"Epoch {epoch} | Avg Loss: {avg_loss:.4f}"), behind loguru's
    # "{time:YYYY-MM-DD HH:mm:ss} | {level} | {message}"
    lines = []
    for epoch in range(5):
        loss = 5.5 - 0.4 * epoch
        lines.append(f"2025-01-24 08:{41 + 3 * epoch}:32 | INFO | Epoch {epoch} | Avg Loss: {loss:.4f}")
        lines.append(f"2025-01-24 08:{41 + 3 * epoch}:35 | INFO | " + save.format(epoch=epoch, loss=loss))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4]
    assert [row_at(parsed, 2 * k + 1)["loss"] for k in range(5)] == pytest.approx([5.5, 5.1, 4.7, 4.3, 3.9])
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert [int(r.line) for r in saves.itertuples()] == [2, 4, 6, 8, 10]


@pytest.mark.parametrize(
    "test_split",
    [
        # tkipf/pygcn pygcn/train.py train(): print('Epoch: {:04d}'.format(epoch+1), 'loss_train: {:.4f}', 'acc_train:
        # {:.4f}', 'loss_val: {:.4f}', 'acc_val: {:.4f}', 'time: {:.4f}s') (print's blank between the parts)
        "",
        # jwzhanggy/Graph-Bert code/MethodGraphBertNodeClassification.py: the same line with the test split's
        # 'loss_test: {:.4f}', 'acc_test: {:.4f}' before the time
        " loss_test: {test:.4f} acc_test: 0.7820",
    ],
)
def test_the_stage_after_the_loss_name_says_the_evaluations_loss(write_log, test_split):
    lines = []
    for epoch in range(0, 50, 10):
        train, val = 1.9 - epoch / 40, 1.8 - epoch / 100
        lines.append(
            f"Epoch: {epoch + 1:04d} loss_train: {train:.4f} acc_train: 0.9000 loss_val: {val:.4f} acc_val: 0.7067"
            + test_split.format(test=val - 0.1)
            + f" time: 0.1{epoch:02d}9s"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 11, 21, 31, 41]
    row = row_at(parsed, 2)
    assert row["loss"] == pytest.approx(1.65)  # loss_train at epoch 11
    assert row["eval_loss"] == pytest.approx(1.7)  # loss_val, the validation split's
    assert row["step_time_s"] == pytest.approx(0.1109)


def test_a_split_after_a_loss_of_no_stage_says_the_evaluations_loss(write_log):
    # MouseLand/cellpose cellpose/core.py (1.x) train loop: core_logger.info('Epoch %d, Time %4.1fs, Loss %2.4f, Loss
    # Test %2.4f, LR %2.4f'%(iepoch, time.time()-tic, lavg, lavgt, LR[iepoch])) every 10 epochs (and the first ten)
    lines = [
        f"2021-12-10 09:40:{52 + k},305 [INFO] Epoch {e}, Time {5.2 + 4 * k:4.1f}s, Loss {1.3378 - 0.01 * k:2.4f}, "
        f"Loss Test {2.5 / (k + 1):2.4f}, LR 0.2000"
        for k, e in enumerate((8, 9, 10, 20, 30))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [8, 9, 10, 20, 30]
    row = row_at(parsed, 4)
    assert row["loss"] == pytest.approx(1.3078) and row["eval_loss"] == pytest.approx(0.625)
    assert row["train_elapsed_s"] == pytest.approx(17.2)


@pytest.mark.parametrize(
    "line",
    [
        # kalekarnn/SmolLM2-to-DeepSeek-with-MLHA-and-MoE train.py: every 10 steps print(f"\nStep {step}/{num_steps} |
        # Loss: {loss:.4f} | Average Loss: {avg_loss:.4f} | Time for 10 steps: {time_taken:.2f}s"), the time since
        # the previous print
        "Step {step}/10100 | Loss: 0.0848 | Average Loss: 1.4974 | Time for 10 steps: {took:.2f}s",
        # the same count after the words of a longer key and a time in words: f"Completed step {step}. Time elapsed
        # for {interval} steps: {elapsed:.6f} seconds."
        "Completed step {step}. Loss: 0.0848. Time elapsed for 10 steps: {took:.6f} seconds.",
    ],
)
def test_a_count_of_steps_inside_the_key_says_what_the_time_covers(write_log, line):
    took = [51.76, 48.14, 47.13, 48.14]
    lines = [line.format(step=5070 + 10 * k, took=t) for k, t in enumerate(took)]
    parsed = frame(write_log("\n\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5070, 5080, 5090, 5100]
    # the time of 10 steps over 10: 51.76 s / 10
    assert [row_at(parsed, 2 * k + 1)["step_time_s"] for k in range(4)] == pytest.approx(
        [t / 10 for t in took]
    )


@pytest.mark.parametrize(
    "line",
    [
        # sandmanklepfer-crypto/0.5B-AGI-Lab logs/lora.log: '  [s20] ce=1.3487' per logged step, '[ep1] avg=1.3119'
        # after each epoch's steps
        "  [s{step}] ce={loss:.4f}",
        # training scripts' f"[S{step}] loss={loss:.4f}  ema={ema_loss:.4f}  n_occ={n_occ}"
        "[S{step}] loss={loss:.4f}  ema=1.2000  n_occ=3",
        # and f"[it{it}/{len(loader)}] loss={log['loss']:.3f} i2t_acc={...:.1f}% ..."
        "[it{step}/200] loss={loss:.3f} i2t_acc=41.0%",
    ],
)
def test_a_counter_glued_to_a_short_tag_in_brackets(write_log, line):
    lines = []
    for k in range(1, 9):
        lines.append(line.format(step=20 * k, loss=1.5 / k))
        if k % 4 == 0:
            lines.append(f"[ep{k // 4}] avg={1.0 / k:.4f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60, 80, 100, 120, 140, 160]
    assert row_at(parsed, 2)["loss"] == pytest.approx(0.75, abs=1e-3)  # 1.5 / 2 as printed


@pytest.mark.parametrize(
    "colon, step_line",
    [
        # karpathy/build-nanogpt train_gpt2.py: print(f"total desired batch size: {total_batch_size}"), print(f"=>
        # calculated gradient accumulation steps: {grad_accum_steps}"); at step 0 (and every 250 steps), before the
        # step's line, print(f"validation loss: {val_loss_accum.item():.4f}") and print(f"HellaSwag accuracy:
        # {num_correct_norm}/{num_total}={acc_norm:.4f}"); print(f"step {step:5d} | loss: {loss_accum.item():.6f} |
        # lr {lr:.4e} | norm: {norm:.4f} | dt: {dt*1000:.2f}ms | tok/sec: {tokens_per_sec:.2f}")
        (
            ": ",
            "step {step:5d} | loss: {loss:.6f} | lr 6.0000e-05 | norm: 1.2000 | dt: 4180.00ms | tok/sec: 125428.91",
        ),
        # khushijp22/gpt2-from-scratch src/train/train_gpt2.py: the same lines with a blank before every colon,
        # f"step : {step} | loss : {loss_accum.item():.6f} | tok/sec : {tokens_per_sec} | lr : {lr:.6e} | dt : {dt:.2f}s"
        (
            " : ",
            "step : {step} | loss : {loss:.6f} | tok/sec : 117513.7055951451 | lr : 1.574803e-06 | dt : 4.18s",
        ),
    ],
)
def test_a_language_models_first_evaluation_before_its_first_step(write_log, colon, step_line):
    lines = [
        f"total desired batch size{colon}491520",
        f"=> calculated gradient accumulation steps{colon}10",
        f"validation loss{colon}10.9824",
        f"HellaSwag accuracy{colon}2435/10042=0.2425",
    ]
    lines += [step_line.format(step=k, loss=10.98 - k / 10) for k in range(5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4]
    assert [int(e["line"]) for e in evals(parsed)] == [3, 4]
    assert [o.value for o in parsed.facts["tokens_per_step"]][:1] == [491520]
    assert [o.value for o in parsed.facts["grad_accum"]][:1] == [10]


def test_an_evaluation_that_prints_the_steps_losses_after_its_splits_word(write_log):
    # shentianxiao/language-style-transfer code/style.py: every steps_per_checkpoint steps losses.output('step %d,
    # time %.0fs,' % (step, time.time() - start_time)), the Accumulator adding ' loss %.2f, rec %.2f, adv %.2f, d0
    # %.2f, d1 %.2f'; after each epoch dev_losses.output('dev') on the dev set, then the next epoch's banner
    line = "step {step}, time {t}s, loss {loss:.2f}, rec 27.00, adv 6.06, d0 0.61, d1 0.60"
    lines = [line.format(step=1000 * k, t=320 * k, loss=30 + k) for k in range(1, 4)]
    lines += ["dev loss 25.11, rec 19.31, adv 5.80, d0 0.65, d1 1.89", "-" * 20 + "epoch 2" + "-" * 20]
    lines += [line.format(step=1000 * k, t=320 * k, loss=30 + k) for k in range(4, 7)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000, 4000, 5000, 6000]
    assert [int(e["line"]) for e in evals(parsed)] == [4]


def test_a_summary_beside_steps_whose_counter_did_not_qualify_is_no_step(write_log):
    # apple/corenet's logger: "Epoch: {:3d} [{:8d}/{:8d}], loss: ..., top1: ..., LR: [...], Avg. batch load time:
    # ..., Elapsed time: ..." every interval of training, the same for the validation's batches (another total),
    # then "*** Training summary for epoch N" / "*** Validation summary for epoch N" with the means on the line
    # after ("\t loss=... || top1=..."). Where the epoch lines are not read as steps, the summaries' counter-less
    # lines are not read as the steps instead.
    t = "2024-04-27 03:47:{:02d} - LOGS    - "
    lines = []
    for e in (0, 1):
        for k in range(4):
            it = 12500 * e + 2000 * k + 1
            lines.append(
                t.format(k)
                + f"Epoch: {e:3d} [{it:8d}/10000000], loss: 1.{7 - k}{e}36, top1: 3{k}.5, LR: [0.001], "
                f"Avg. batch load time: 0.003, Elapsed time: {17.2 * k:.2f}"
            )
        lines += [
            t.format(30) + f"*** Training summary for epoch {e}",
            f"\t loss=1.{6 - e}252 || top1=36.176",
        ]
        for k, it in enumerate((4, 8004)):
            lines.append(
                t.format(40 + k)
                + f"Epoch: {e:3d} [{it:8d}/   10000], loss: 1.{4 - k}251, top1: 49.1004, LR: [0.001], "
                "Avg. batch load time: 0.000, Elapsed time: 10.90"
            )
        lines += [
            t.format(50) + f"*** Validation summary for epoch {e}",
            f"\t loss=1.{4 - e}33 || top1=48.47",
        ]
    path = write_log("\n".join(lines) + "\n")
    try:
        parsed = frame(path)
    except UnrecognisedLog:
        return
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    summary_lines = {i + 1 for i, line in enumerate(lines) if line.startswith("\t")}
    assert not set(rows["line"]) & summary_lines


def test_one_line_printed_by_the_training_and_the_validation_loops(write_log):
    # apple/corenet corenet/metrics/stats.py Statistics.iter_summary: ", ".join(["Epoch: {:3d} [{:8d}/{:8d}]"
    # .format(epoch, n_processed_samples, total_samples), "loss: ..", "top1: ..", "LR: [..]",
    # "Avg. batch load time: {:1.3f}", "Elapsed time: {:5.2f}"]); the training prints its global iteration over
    # max_iterations, the validation the same line with its samples over the validation set's size
    lines = []
    iteration = 1
    for epoch in (0, 1):
        for k in range(4):
            lines.append(
                f"2024-04-27 03:4{k}:00 - LOGS    - Epoch: {epoch:3d} [{iteration:8d}/{10000000:8d}], "
                f"loss: {2.5 - iteration / 10000:.4f}, top1: {10 + k}.5, LR: [0.001], "
                f"Avg. batch load time: 0.003, Elapsed time: {17.5 * k:5.2f}"
            )
            iteration += 1000
        for seen in (4, 8004):
            lines.append(
                f"2024-04-27 03:49:00 - LOGS    - Epoch: {epoch:3d} [{seen:8d}/{10000:8d}], loss: 1.4{epoch}00, "
                f"top1: 49.1, LR: [0.001], Avg. batch load time: 0.000, Elapsed time: {seen / 800:5.2f}"
            )
    lines.append("2024-04-27 03:49:54 - LOGS    - Training took 00:04:12.86")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 1001, 2001, 3001, 4001, 5001, 6001, 7001]
    assert row_at(parsed, 1)["loss"] == 2.4999 and row_at(parsed, 1)["progress_total"] == 10000000
    assert evals(parsed) and all(e.get("step") != 4 for e in evals(parsed))
    assert parsed.facts["final_runtime_s"][0].value == 4 * 60 + 12.86


def test_a_scripts_own_total_beside_a_frameworks_start_up_lines(write_log):
    # DLLXW/baby-llama2-chinese pretrain.py keeps llama2.c's start-up prints ("tokens per iteration will be:
    # {tokens_per_iter:,}", "breaks down as: ...") and logs its own 'Epoch:[{}/{}]({}/{}) loss:{:.3f} lr:{:.7f}
    # epoch_Time:{}min:' behind "[%(asctime)s][%(filename)s][%(levelname)s] "; no bar counts its steps, so the
    # total in its brackets is the epoch's planned iterations
    lines = [
        "tokens per iteration will be: 4,096",
        "breaks down as: 1 grad accum steps * 1 processes * 8 batch size * 512 max seq len",
    ] + [
        f"[2024-03-30 16:0{k}:53,476][pretrain.py][INFO] Epoch:[0/1]({100 * k}/33282) loss:{9 - k:.3f} "
        f"lr:{k * 3e-5:.7f} epoch_Time:{136 - k}.0min:"
        for k in range(5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300, 400]
    assert list(parsed.rows["progress_total"]) == [33282] * 5
    facts = {name: observed[0].value for name, observed in parsed.facts.items()}
    assert facts["micro_batch_size"] == 8 and facts["seq_len"] == 512 and facts["world_size"] == 1


def test_a_step_line_printed_only_under_an_evaluation_heading_is_the_evaluations(write_log):
    # a point-cloud codec's trainer (PccAI): logger.info(f"    batch count: {i}/{n}, iter: {i}, " + ", ".join(losses)),
    # each epoch's logger.info(f"Validation at epoch {epoch}") then the validation's batches in the same layout
    lines = [
        f"[2023-03-10 19:58:{30 + 2 * k}] {'':4}batch count: {220 + 20 * k}/308, iter: {220 + 20 * k}, "
        f"xyz_loss: 0.07{k}, loss: 0.09{k}, aux_loss: 81{k}.39"
        for k in range(5)
    ]
    lines += [
        "[2023-03-10 19:58:38] Validation at epoch 5",
        "[2023-03-10 19:58:47]     batch count: 0/309, iter: 0, xyz_loss: 0.067, loss: 0.075",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [220, 240, 260, 280, 300]
    assert [e["line"] for e in evals(parsed)] == [7]


def test_a_values_line_printed_in_lockstep_with_its_step_joins_it(write_log):
    # tenstorrent tt-train's nano_gpt example: fmt::print("Step: {}, Loss: {}\n", ...), then "Full step time {} ms,
    # cache entries: {}" and the data loader's two timings, every step
    lines = []
    for k in range(4):
        lines += [
            f"Step: {393 + k}, Loss: 2.4{k}625",
            f"Full step time 22{k}.598 ms, cache entries: 90",
            f"dataloader host only step time 0.05{k} ms",
            f"dataloader step time 0.1{k}6 ms",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [393, 394, 395, 396]
    assert [round(t, 9) for t in parsed.rows["step_time_s"]] == [0.220598, 0.221598, 0.222598, 0.223598]


def test_a_csv_header_over_rows_separated_by_tabs(write_log):
    # a dialogue fine-tuner's train_log.tsv (aobaruwa/Chatbot_Compressor): the header written
    # "epoch,step,grad_step,tr_loss,tr_ppl", each row "\t".join(...); step counts micro-batches, grad_step the
    # optimizer's steps (16 micro-batches each): the step is the optimizer's
    rows = [f"1\t{16 * k}\t{k}\t7.{9 - k}450\t1.{k}412" for k in range(1, 6)]
    parsed = frame(write_log("epoch,step,grad_step,tr_loss,tr_ppl\n" + "\n".join(rows) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert row_at(parsed, 3)["loss"] == 7.745


def test_a_logging_record_glued_behind_a_bar_frame_padded_with_blanks_is_its_own_record(write_log):
    # allenai/OLMoE's open-instruct SFT job log: each line a container stamp, then tqdm's frame after its \r, then
    # the logger's record; tqdm pads a frame shorter than the one before with blanks (`27.08s/it] 08/02/2024 ...`)
    rates = ["78.42s/it]", "39.68s/it]", "27.08s/it] ", "21.14s/it]", "17.88s/it]"]
    lines = [
        f"2024-08-03T04:5{k}:48.487524938Z \r  0%|          | {k + 1}/9500 [01:18<206:55:43, {rate}"
        f"08/02/2024 21:5{k}:48 - INFO - __main__ -   Step: {k + 1}, LR: {k + 1}.0e-08, Loss: 81{k}.4"
        for k, rate in enumerate(rates)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert row_at(parsed, 3)["loss"] == 812.4


def test_a_bar_of_ascii_in_brackets(write_log):
    # a C++/CUDA trainer's own bar: "Training [" + '=' * filled + ' ' * (40 - filled) + "] {pct:.1f}% {step}/{total} |
    # {rate:.2f} it/s | ETA: {eta:.1f} s | loss={loss:.6f} | validation_loss={val:.6f}"
    lines = []
    for k in range(1, 12):  # (more states than a shape keeps variants of its literal text)
        step, filled = 5000 * k, 40 * 5000 * k // 58874
        lines.append(
            f"Training [{'=' * filled}{' ' * (40 - filled)}] {100 * step / 58874:.1f}% {step}/58874 | 4.62 it/s | "
            f"ETA: {(58874 - step) / 4.62:.1f} s | loss=3.{k:02d}0492 | validation_loss=3.{k:02d}8841"
        )
        lines.append(f"Saved validation checkpoint at step {step} to output/ckpt_{step}.bin")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(5000, 60000, 5000))
    row = row_at(parsed, 3)
    assert (row["loss"], row["eval_loss"], row["progress_total"]) == (3.020492, 3.028841, 58874)


def test_a_record_of_scores_before_the_first_update_is_an_evaluation(write_log):
    # a GRPO loop's metrics.jsonl: the model evaluated before its first update, {"iteration": 0, "accuracy": ...},
    # then one object per update with its loss
    first = '{"iteration": 0, "accuracy": 0.9162, "combined_score": 0.9162, "lccp": 0.8392, "n_scored": 150}'
    rest = [
        f'{{"iteration": {k}, "loss": 0.000{k}, "mean_reward": 0.9{k}, "learning_rate": {k}.0e-06, "iter_time_s": 4{k}.5}}'
        for k in range(1, 5)
    ]
    parsed = frame(write_log("\n".join([first, *rest]) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert [e["line"] for e in evals(parsed)] == [1]
    assert row_at(parsed, 3)["step_time_s"] == 42.5


def test_a_perplexity_on_a_held_out_corpus_between_steps_is_an_evaluation(write_log):
    # Vahe1994/AQLM's PV-tuning notebooks: print("STEP", step), every few steps print("wikitext2 ppl (naive)",
    # ppl), then print("AVG entropy(not correct):", ...) and print("train loss:", loss)
    lines = []
    for k in range(6):
        lines.append(f"STEP {k}")
        if k % 5 == 0:
            lines.append(f"wikitext2 ppl (naive) 9.3{k}1968536376953")
        lines += [f"AVG entropy(not correct): 11.8{k}6497523567893", f"train loss: 0.06{k}2287216186524"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4, 5]
    assert row_at(parsed, 5)["loss"] == 0.0612287216186524  # (STEP 1's row, on its line)
    assert [e["line"] for e in evals(parsed)] == [2, 18]


def test_the_periodic_estimate_of_both_losses_beside_each_steps_line(write_log):
    # a NumPy GPT's loop: every 500 steps print(f"step {it:5d} | train_loss {tl:.4f} | val_loss {vl:.4f} | val_ppl
    # {ppl:.2f} | lr {lr:.2e} | tok/s {tps:.0f}"), every 50 print(f"  step {it:5d} | loss {loss:.4f} | lr {lr:.2e}")
    lines = []
    for step in range(0, 1050, 50):
        if step % 500 == 0:
            lines.append(
                f"step {step:5d} | train_loss {11 - step / 200:.4f} | val_loss {10.9 - step / 200:.4f} | "
                f"val_ppl 54354.64 | lr 6.00e-04 | tok/s 17099"
            )
        lines.append(f"  step {step:5d} | loss {10.8 - step / 250:.4f} | lr 6.00e-04")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(0, 1050, 50))
    assert row_at(parsed, 2)["loss"] == 10.8
    assert [(e["step"], e["eval_loss"]) for e in evals(parsed)] == [(0, 10.9), (500, 8.4), (1000, 5.9)]


def test_a_print_glued_after_a_bars_frame(write_log):
    # a LoRA fine-tuner that prints its saves without a newline after tqdm's frame, "Fine-tuning" the bar's
    # description and set_postfix(smoothed_loss=...): "Fine-tuning:   7%|###| 2000/26807 [10:53<2:15:40,
    # 3.05it/s, smoothed_loss=0.4660]Saved intermediate checkpoint: out/checkpoint_step2000"
    lines = []
    for k in range(1, 6):
        n = 2000 * k
        frame_text = (
            f"Fine-tuning: {100 * n // 26807:3d}%|###       | {n}/26807 [{11 * k}:0{k}<1:0{k}:40,  3.05it/s, "
            f"smoothed_loss=0.4{k}60]"
        )
        lines.append(frame_text + f"Saved intermediate checkpoint: out/checkpoint_step{n}")
    lines.append("Fine-tuning: 100%|##########| 26807/26807 [2:26:47<00:00,  3.04it/s, smoothed_loss=0.4436]")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [2000, 4000, 6000, 8000, 10000, 26807]
    assert row_at(parsed, 2)["loss"] == 0.426 and row_at(parsed, 2)["train_elapsed_s"] == 22 * 60 + 2
    assert row_at(parsed, 6)["train_elapsed_s"] == 2 * 3600 + 26 * 60 + 47


def test_a_step_record_printed_after_a_bars_first_frame_is_read_on_every_line(write_log):
    # smeetrs/deep_avsr (a user's paste on its GitHub tracker): each step's print lands after the next epoch bar's first frame, `Train:   0%|
    # | 0/512 [00:00<?, ?it/s]Step: 183 || Tr.Loss: ...`; where the bar is not drawn, the same record stands alone
    lines = []
    for step in range(183, 191):
        record = f"Step: {step} || Tr.Loss: 3.2{step % 10}1490  Val.Loss: 3.221430 || Tr.CER: 1.000  Val.CER: 1.000"
        bar = "Train:   0%|                                       | 0/512 [00:00<?, ?it/s]"
        lines.append(bar + record if step % 3 else record)
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(183, 191))
    assert row_at(parsed, 2)["loss"] == 3.241490


def test_an_early_stopping_count_beside_each_epoch_is_no_position_within_it(write_log):
    # an encoder-decoder homework's loop: logger.info(f"Epoch {epoch:03d}: train={tl:.4f}, val={vl:.4f},
    # ppl={ppl:.2f}" + (" [BEST]" if best else f" (no improve {bad}/{patience})"))
    bad = [0, 1, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
    lines = [
        f"2025-11-04 11:{10 + k}:09,272 - INFO - Epoch {105 + k:03d}: train=0.1{k:02d}2, val=0.09{k % 10}1, ppl=1.10"
        + (" [BEST]" if not b else f" (no improve {b}/10)")
        for k, b in enumerate(bad)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(105, 117))
    assert row_at(parsed, 5)["loss"] == 0.1042


def test_steps_with_no_counter_behind_an_ascii_bar_and_their_running_mean(write_log):
    # MonoCon's engine: print(f"| Progress [{'#' * filled}{' ' * (20 - filled)}][{pct:5.2f}%] | LR {lr:.6f} | Loss
    # {loss:8.4f} ({avg:8.4f}) |") each logged step, under an epoch banner "{'=' * 36} Epoch {e:3d} / {E} {'=' * 37}"
    lines = ["=" * 36 + " Epoch  15 / 200 " + "=" * 37]
    for k in range(6):
        filled = 2 * k
        lines.append(
            f"| Progress [{'#' * filled}{' ' * (20 - filled)}][{0.86 + 10.78 * k:5.2f}%] | LR 0.00037{k} | "
            f"Loss {6.5 + k / 10:8.4f} ({7.07 - k / 100:8.4f}) |"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert list(parsed.rows["loss"]) == [6.5, 6.6, 6.7, 6.8, 6.9, 7.0]
    assert row_at(parsed, 2)["lr"] == 0.00037
    assert parsed.facts["num_epochs"][0].value == 200


def test_batch_losses_with_no_counter_beside_their_epochs_summary(write_log):
    # a T5 fine-tuner's logging.info(f"Epoch {epoch} - Batch loss: {loss:.4f}") every 5th batch, then
    # f"Epoch {epoch} - Average Train Loss: {avg:.4f}", the validation's f"Epoch {epoch} - Validation BLEU: BLEU-1
    # {b1:.2f}, ...", and f"Epoch {epoch} - New best model saved with BLEU-2: {b2:.2f}"
    stamp = "2025-03-02 05:32:{:02d},128 - INFO - "
    lines = [stamp.format(k) + f"Epoch 2 - Batch loss: 0.{k + 1}686" for k in range(6)]
    lines += [
        stamp.format(30) + "Epoch 2 - Average Train Loss: 0.5625",
        stamp.format(40)
        + "Epoch 2 - Validation BLEU: BLEU-1 71.65, BLEU-2 65.76, BLEU-3 46.57, BLEU-4 31.75",
        stamp.format(41) + "Epoch 2 - New best model saved with BLEU-2: 65.76",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert list(parsed.rows["loss"]) == [0.1686, 0.2686, 0.3686, 0.4686, 0.5686, 0.6686]
    assert [e["line"] for e in evals(parsed)] == [8]


def test_batch_losses_under_an_epoch_and_its_plan_state_the_epochs_planned(write_log):
    # Tro-fish/RoViQA-Visual_Question_Answering: print(f"Epoch [{epoch + 1}/{num_epochs}], Batch Loss: {loss.item()}")
    # each batch, no batch counter: the total after the epoch is the epochs planned, no steps' total
    lines = [f"Epoch [1/5], Batch Loss: 10.7{5 - k}2995491027832" for k in range(5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert list(parsed.rows["loss"])[:2] == [10.752995491027832, 10.742995491027832]
    assert [f.value for f in parsed.facts["num_epochs"]][-1] == 5
    assert "progress_total" not in parsed.rows or parsed.rows["progress_total"].isna().all()


def test_a_result_with_an_evaluation_word_heads_no_evaluation(write_log):
    # airsplay/lxmert src/pretrain/lxmert_pretrain.py: print("The training loss for Epoch %d is %0.4f" % ...), its
    # parts' "The losses are " + ..., the QA accuracies, then print("The valid loss is %0.4f" % ...) and its parts:
    # the valid loss states a value, so it is an evaluation's result, not a heading over the parts' line after it
    lines = []
    for epoch in range(3):
        lines += [
            f"The training loss for Epoch {epoch} is {9.6 - epoch:.4f}",
            f"The losses are Mask_LM: 2.9{epoch}73 Matched: 0.4321 QA: 3.2009",
            f"Overall Accu 0.2{epoch}24, gqa Accu 0.2581, visual7w Accu 0.1256, vqa Accu 0.2816,",
            f"The valid loss is {6.6 - epoch:.4f}",
            f"The losses are Mask_LM: 1.8{epoch}81 Matched: 0.2997 QA: 2.5245              Overall Accu 0.2{epoch}93",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2]
    assert [e["line"] for e in evals(parsed)] == [4, 9, 14]


def test_a_counter_printed_as_a_range_counts_its_end(write_log):
    # apache/mxnet python/mxnet/callback.py Speedometer: 'Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec\t%s=%f'
    # with count - frequent and count: each range starts where the one before ended, its end the batches done
    lines = ["Experimental: start training from scratch with (gpu(0),gpu(1),gpu(2),gpu(3))"]
    lines += [
        f"Epoch[{e}] Batch [{b - 20}-{b}]\tSpeed: 6.{b % 7} samples/sec\tLoss={30 - b / 10 - 5 * e:.6f}"
        for e in (0, 1)
        for b in (20, 40, 60, 80)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step"].tolist() == [20, 40, 60, 80] * 2
    assert rows["epoch_index"].tolist() == [0] * 4 + [1] * 4
    assert rows["loss"].tolist() == pytest.approx([28.0, 26.0, 24.0, 22.0, 23.0, 21.0, 19.0, 17.0])


def test_a_block_headed_by_training_and_evaluation_holds_a_step_and_its_evaluation(write_log):
    # Chaitanya-1204/small_lm GPT_training: one block an epoch between rules, its heading naming both stages and
    # its lines saying which value is whose
    lines = ["Num Epochs: 20", "Total Training Steps: 38500"]
    for epoch, (train, val) in enumerate([(5.5784, 4.6412), (4.1101, 4.1852), (3.766, 3.9816)], 1):
        lines += [
            "-" * 80,
            "=" * 60,
            f"Training and Evaluation Results for Epoch {epoch}",
            "Seq Length: 256",
            f"Train Loss: {train:.4f} | Perplexity: {2.718281828**train:.4f}",
            f"Eval  Loss: {val:.4f} | Perplexity: {2.718281828**val:.4f}",
            "=" * 60,
            "",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["loss"].tolist() == [5.5784, 4.1101, 3.766]
    assert [e["eval_loss"] for e in evals(parsed)] == [4.6412, 4.1852, 3.9816]
    # the steps planned are no total of a counter of epochs
    assert "progress_total" not in rows or rows["progress_total"].isna().all()


def test_a_stamp_alone_on_a_ruled_line_heads_the_record_after_it(write_log):
    # a diffusion model's log.txt: "[%Y-%m-%d %H:%M:%S]" and a rule, then `Step: N` and `Loss: x` on their own lines
    lines = ["[2024-09-16 17:35:47]====================", "Training model...", ""]
    clock = ["17:38:51", "17:41:56", "17:45:01", "17:48:05"]
    for i, (at, loss) in enumerate(zip(clock, [-0.4057, -0.4294, -1.1110, -1.2142], strict=True), 1):
        lines += [f"[2024-09-16 {at}]--------------------", f"Step: {2000 * i}", f"Loss: {loss}"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [2000, 4000, 6000, 8000]
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["loss"].tolist() == [-0.4057, -0.4294, -1.1110, -1.2142]
    # each step is stamped by the line above it: 17:41:56 - 17:38:51, 17:45:01 - 17:41:56, 17:48:05 - 17:45:01
    assert rows["timestamp"].diff().iloc[1:].tolist() == [185.0, 185.0, 184.0]


def test_a_counter_under_the_counters_namespace_is_the_step_before_the_examples_seen(write_log):
    # eric-mitchell/direct-preference-optimization trainers.py: rank0_print(f'train stats after
    # {self.example_counter} examples: {formatted_stats}'), the stats holding 'counters/examples' and
    # 'counters/updates' (the batches done) and their floats formatted as strings
    line = (
        "train stats after {e} examples: {{'logps_train/chosen': '-319.18', 'loss/train': '{loss}', "
        "'examples_per_second': '52.133', 'grad_norm': '0', 'counters/examples': {e}, 'counters/updates': {u}}}"
    )
    losses = ["0.70236", "0.69782", "0.70011", "0.69120"]
    lines = [line.format(e=32 * u, u=u, loss=x) for u, x in enumerate(losses, 1)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["loss"].tolist() == [float(x) for x in losses]


def test_values_a_sentence_states_are_read_by_their_keys(write_log):
    # intel-analytics/BigDL bigdl/optim/DistriOptimizer.scala: s"$header Trained $batchSize records in $time
    # seconds. Throughput is $throughput records/second. Loss is $loss. Current learning rate is $lr. ..."
    line = (
        "2018-04-13 07:12:{s:02d} INFO  DistriOptimizer$:392 - [Epoch 42 {n}/1281167][Iteration {it}][Wall Clock "
        "{clock}s] Trained 3072 records in {t} seconds. Throughput is {tp} records/second. Loss is {loss}. Current "
        "learning rate is {lr}. Current weight decay is 1.0E-4. Current momentum is 0.9."
    )
    values = [
        (1.468526684, 2091.8926, 1.72319),
        (1.472631731, 2086.0613, 1.9208802),
        (1.423323064, 2158.3293, 1.98872),
    ]
    lines = [
        line.format(
            s=15 + 2 * k,
            n=933888 + 3072 * k,
            it=17442 + k,
            clock=26290.6678 + 1.5 * k,
            t=t,
            tp=tp,
            loss=x,
            lr=0.07595911266872037 - 8.5e-7 * k,
        )
        for k, (t, tp, x) in enumerate(values)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [17442, 17443, 17444]
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["loss"].tolist() == [x for _, _, x in values]
    assert rows["step_time_s"].tolist() == [t for t, _, _ in values]
    assert rows["samples_per_s"].tolist() == [tp for _, tp, _ in values]
    assert rows["lr"].iloc[0] == 0.07595911266872037


def test_an_evaluation_of_an_agent_said_once_is_an_event(write_log):
    # a GRPO CartPole notebook: print(f"Episode {i}, Avg reward: {avg:.2f}") while training, then once
    # print(f"Evaluation: Average reward over {n} episodes: {mean:.2f}")
    lines = [f"Episode {10 * k}, Avg reward: {20.0 + 9.5 * k:.2f}" for k in range(1, 9)]
    lines.append("Evaluation: Average reward over 10 episodes: 500.00")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10 * k for k in range(1, 9)]
    assert [e["line"] for e in evals(parsed)] == [9]


def test_a_summary_counted_slower_than_the_steps_is_no_step_though_named_alike(write_log):
    # rasbt/LLMs-from-scratch's classifier fine-tuning (ch06): print(f"Ep {epoch+1} (Step {global_step:06d}): Train
    # loss ...") every eval_freq steps, then after each epoch a copy's print(f"Training accuracy at step {epoch} is :
    # {train_accuracy*100:.2f}%"): its `step` is the epoch
    lines = []
    for epoch in range(3):
        for k in range(3):
            step = 150 * epoch + 50 * k
            lines.append(
                f"Epoch {epoch + 1} (Step {step:06d}) : Train loss {2.6 - step / 250:.3f}, Val loss {2.4 - step / 300:.3f}"
            )
        lines += [
            f"Training accuracy at step {epoch} is : {65 + 10 * epoch:.2f}%",
            f"Val accuracy at step {epoch} is : {67.5 + 5 * epoch:.2f}%",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 50, 100, 150, 200, 250, 300, 350, 400]


def test_a_bar_kept_at_its_end_each_epoch_with_the_loss_in_its_description_reads_as_steps(write_log):
    # a notebook's per-epoch tqdm bar, pbar.set_description(f"Train Loss: {avg}"), kept only at 100%: each line is
    # one epoch's end, nothing on it counts from line to line
    losses = [7.57700734924276, 7.30027816376096, 7.0569374572355015, 6.898823283666968]
    clocks = ["12:59", "12:52", "12:51", "12:48"]
    lines = [
        f"Train Loss: {x}: 100%|██████████| 1511/1511 [{c}<00:00,  1.9{k}it/s]"
        for k, (x, c) in enumerate(zip(losses, clocks, strict=True))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["loss"].tolist() == losses
    assert rows["line"].tolist() == [1, 2, 3, 4]
    # numbered in the order they come when the run is resolved, and said so
    a = api.analyze(str(write_log("\n".join(lines) + "\n", "bars.log")))
    assert a.steps["step"].tolist() == [1, 2, 3, 4]
    assert "steps_unnumbered" in {w.code for w in a.run.warnings}


def test_a_bar_at_the_counter_itself_times_the_step_though_both_stand_still(write_log):
    # a DPO notebook's per-epoch tqdm bar (no total) described f"[E{epoch}] step {step}/{total} | Loss=...", kept at
    # its end: the bar's count is the step counter on every line, so its rate is the step's
    rates = [1.18, 1.18, 1.19, 1.18]
    lines = []
    for e, (r, x) in enumerate(zip(rates, [1.068, 0.955, 0.899, 0.845], strict=True), 1):
        lines += [
            f"[E{e}] step 1562/1562 | Loss={x:.3f} DPO=0.4{e}4 LM=0.{e}01 Δ=1{e}.87: : 1562it [22:0{e},  {r}it/s]",
            "Saved checkpoint to ./dpo.pt",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step"].tolist() == [1562] * 4
    assert rows["step_time_s"].tolist() == pytest.approx([1 / r for r in rates], rel=1e-12)


def test_a_header_whose_rules_divide_groups_of_columns_and_a_note_that_leads_its_row(write_log):
    # AI4Finance-Foundation/ElegantRL elegantrl/train/evaluator.py (c3c97710): the header f"{'ID':<3}{'Step':>8}
    # {'maxR':>8} |{'avgR':>8}{'stdR':>7}{'avgS':>7}{'stdS':>6} |{'expR':>8}{'objC':>7}{'etc.':>7}", a row
    # f"{id:<3}{total_step:8.2e}{r_max:8.2f} |{r_avg:8.2f}{r_std:7.1f}{s_avg:7.0f}{s_std:6.0f} |{r_exp:8.2f}" and
    # one '{:7.2f}' per value of the agent's log tuple (more values than names: `etc.`); when a new best return
    # is saved, the row's first three values and its first rule are printed alone on the line before it
    header = f"{'ID':<3}{'Step':>8}{'maxR':>8} |{'avgR':>8}{'stdR':>7}{'avgS':>7}{'stdS':>6} |"
    header += f"{'expR':>8}{'objC':>7}{'etc.':>7}"
    lines = ["#" * 80, header]
    best = -95.16
    runs = (
        (32, -95.16, 80, 0.53),
        (806000, -96.87, 63, 0.02),
        (3130000, -80.5, 153, 0.01),
        (7210000, -95.85, 130, 0.4),
    )
    for step, avg, length, critic in runs:
        if avg >= best:
            best = avg
            lines.append(f"{0:<3}{step:8.2e}{best:8.2f} |")
        row = f"{0:<3}{step:8.2e}{best:8.2f} |{avg:8.2f}{0.1:7.1f}{length:7.0f}{1:6.0f} |{-0.05:8.2f}"
        lines.append(row + "".join(f"{v:7.2f}" for v in (critic, 0.04, -0.5)))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [32, 806000, 3130000, 7210000]  # (the saves' lines lead their rows: no rows)
    rows = parsed.rows
    assert list(rows["x_avgr"]) == [-95.16, -96.87, -80.5, -95.85]  # a name over each column past the rules
    assert list(rows["x_avgs"]) == [80, 63, 153, 130]
    assert list(rows["x_objc"]) == [0.53, 0.02, 0.01, 0.4]


def test_a_step_time_in_milliseconds_the_stamps_show_beside_a_rate_of_millions(write_log):
    # saforem2/wordplay src/wordplay/trainer.py Trainer.train (0a3ba5ed, L818-834): every 5 iterations the logger
    # ("[%Y-%m-%d %H:%M:%S][LEVEL][module:line] - ") writes 'step', 'loss', 'dt': dt*1000 (no unit printed),
    # 'dtf', 'dtb' (forward, backward), 'sps', 'mtps': tokens_per_sec / 1e6, 'mfu' as "k=v" pairs; 8 ranks x 16,384 tokens an iteration here
    tokens = 8 * 16384
    lines, second = [], 0.0
    for step in range(5, 55, 5):
        dt = (0.070, 0.075, 0.072)[step % 3]  # seconds: fewer milliseconds than the 8 ranks' `sps`
        second += 5 * dt
        stamp = f"2024-04-02 01:59:{40 + int(second):02d}"
        lines.append(
            f"[{stamp}][INFO][trainer:837] - step={step} loss={4.0 - step / 100:.4f} dt={dt * 1000:.4f} "
            f"dtf={dt * 40:.4f} dtb={dt * 930:.4f} sps={8 / dt:.4f} mtps={tokens / dt / 1e6:.4f} mfu=4.3692"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows
    assert steps_of(parsed) == list(range(5, 55, 5))
    # dt read as seconds would make 50 steps take 5,000 s between stamps 5 s apart: milliseconds
    assert rows["step_time_s"].iloc[0] == pytest.approx(0.072)
    assert rows["step_time_s"].iloc[1] == pytest.approx(0.075)
    # (the step time is dt's, not the inverse of `sps`, a rate of the line)
    assert rows["tokens_per_s"].iloc[0] == pytest.approx(round(tokens / 0.072 / 1e6, 4) * 1e6)
    assert parsed.keymap["mapped"]["mtps"].rule == "scale"


def test_a_header_whose_columns_the_dashes_under_it_mark(write_log):
    # explosion/wasabi's table as spaCy's `spacy train` console logger prints it (spacy/training/loggers.py
    # console_logger: msg.row(table_header, widths=..., aligns=...) then msg.row(["-" * width for width in
    # table_widths]), each row's numbers right-aligned to its column): the epoch `E`, the updates so far `#`,
    # one loss per component and the scores; a name may be two words (`LOSS TEXTCAT`)
    lines = [
        "ℹ Initial learn rate: 0.001",
        "E    #       LOSS TEXTCAT  CATS_SCORE  SCORE ",
        "---  ------  ------------  ----------  ------",
    ]
    rows = (
        (0, 0, 0.25, 30.43, 0.30),
        (0, 4, 1.01, 93.52, 0.94),
        (1, 8, 0.99, 61.35, 0.61),
        (1, 12, 0.98, 100.0, 1.0),
    )
    for epoch, step, loss, cats, score in rows:
        lines.append(f"{epoch:>3}  {step:>6}  {loss:>12.2f}  {cats:>10.2f}  {score:>6.2f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 4, 8, 12]
    assert list(parsed.rows["loss"]) == [0.25, 1.01, 0.99, 0.98]
    assert list(parsed.rows["x_cats_score"]) == [30.43, 93.52, 61.35, 100.0]


def test_a_line_printed_before_every_step_line_from_the_first_leads_its_record(write_log):
    # Challenging6/DSFD.pytorch train.py (96faecf8, L172-181), every 10 iterations: print('Timer: %.4f' % (t1 -
    # t0)) around this iteration's work, then print('epoch:' + repr(epoch) + ' || iter:' + repr(iteration) + ' ||
    # Loss:%.4f' % (tloss)), the loss parts' '->> pal1 conf loss:...' lines and print('->>lr:{}'.format(lr))
    lines = ["Loading wider dataset..."]
    timers = (1.6476, 0.6669, 0.6653, 0.6701)
    for n, timer in enumerate(timers):
        lines += [
            f"Timer: {timer:.4f}",
            f"epoch:0 || iter:{10 * n} || Loss:{26.3755 - n:.4f}",
            f"->> pal1 conf loss:{11.1494 - n / 10:.4f} || pal1 loc loss:{4.9553:.4f}",
            "->>lr:0.0005",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 10, 20, 30]
    assert list(parsed.rows["step_time_s"]) == list(
        timers
    )  # each Timer its own iteration's, not the one before


def test_an_evaluation_line_that_leads_with_its_step_in_a_step_train_val_log_file(write_log):
    # karpathy/build-nanogpt train_gpt2.py writes its log file with f.write(f"{step} val {val_loss:.4f}\n") every
    # 250 steps, before that step's f.write(f"{step} train {loss_accum.item():.6f}\n")
    lines = []
    for step in range(245, 255):
        if step == 250:
            lines.append(f"{step} val {2.2391:.4f}")
        lines.append(f"{step} train {2.3 - step / 1000:.6f}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(245, 255))
    assert len(evals(parsed)) == 1  # the val line: an evaluation at step 250, not a row
    assert evals(parsed)[0]["step"] == 250  # its own number, in the place of the train lines' counter
    step_250 = row_at(parsed, 7)
    assert step_250["step"] == 250 and step_250["loss"] == 2.3 - 250 / 1000  # `train` alone: the loss
    assert step_250["eval_loss"] == 2.2391  # made as step 250 began, before its train line
    assert math.isnan(row_at(parsed, 5)["eval_loss"])


def test_the_training_splits_name_beside_the_held_out_splits_is_the_loss(write_log):
    # bjorvack/lorcana-training: print(f"[pretrain] epoch {epoch:3d}/{epochs}  train={train_loss:.4f}  heldout=
    # {held_loss:.4f}  lr={lr:.2e}" + ("  (best)" if best else "")); a node classifier's line names its loss and
    # prints its splits' accuracies, `Train` among them (pyg-team/pytorch_geometric examples/gcn.py)
    lines = [
        f"[pretrain] epoch {e:3d}/40  train={7 - e / 10:.4f}  heldout={7.1 - e / 10:.4f}  lr=2.{40 - e}e-04  "
        + ("(best)" if e % 2 else "")
        for e in range(14, 19)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [14, 15, 16, 17, 18]
    assert row_at(parsed, 1)["loss"] == 5.6 and row_at(parsed, 1)["eval_loss"] == 5.7
    gcn = [
        f"Epoch: {e:03d}, Loss: {3.9 - e / 10:.4f}, Train: 0.{13 + e}08, Val: 0.{16 + e}80, Test: 0.1{e}10"
        for e in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(gcn) + "\n", "gcn.log"))
    assert row_at(parsed, 1)["loss"] == 3.8 and "x_train" in parsed.rows


def test_a_time_of_day_after_a_level_word_in_the_loggers_bracket_stamps_the_line(write_log):
    # oxwhirl/pymarl src/utils/logging.py get_logger: Formatter('[%(levelname)s %(asctime)s] %(name)s %(message)s',
    # '%H:%M:%S'); src/utils/logging.py Logger.print_recent_stats: "Recent Stats | t_env: {:>10} | Episode: {:>8}\n"
    # then the stats four to a line, '{:<25}{:>8}' each and a tab after each
    lines = []
    stats = (
        ("03:15:26", 100204, 3799),
        ("03:16:06", 100617, 3815),
        ("03:16:38", 101023, 3831),
        ("03:17:12", 101446, 3847),
    )
    for n, (clock, t_env, episode) in enumerate(stats):
        lines += [
            f"[INFO {clock}] my_main Recent Stats | t_env: {t_env:>10} | Episode: {episode:>8}",
            f"{'epsilon:':<25}{'0.0500':>8}\t{'grad_norm:':<25}{'2.1023':>8}\t{'loss:':<25}{0.1679 + n / 100:>8.4f}\t",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert len(steps_of(parsed)) == 4
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 1)["timestamp"] == 40.0  # 03:16:06 - 03:15:26
    assert row_at(parsed, 7)["timestamp"] - row_at(parsed, 5)["timestamp"] == 34.0  # 03:17:12 - 03:16:38


def test_a_counter_out_of_its_total_heads_the_lines_that_print_its_values(write_log):
    # CNN_Numpy train.py: print("-----------train loss & acc-----------"), then print("{}/{} (batchs) completed!"
    # .format(i, batches)), "train mean loss: {}", "train accuracy: {}" every 100 batches
    lines = ["------------start train 0/20----------"]
    losses = (2.302561322392531, 2.2941003309702097, 2.2082550701738346)
    for n, loss in enumerate(losses, start=1):
        lines += [
            "-----------train loss & acc-----------",
            f"{100 * n}/1718 (batchs) completed!",
            f"train mean loss: {loss}",
            f"train accuracy: 0.{15 + n}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300]
    assert [row_at(parsed, 3 + 4 * k)["loss"] for k in range(3)] == list(losses)


def test_a_lone_line_whose_only_key_names_an_evaluations_score_is_an_evaluation(write_log):
    # sebtheiler/tutorials dqn/train_dqn.py: f'Game number: {str(len(rewards)).zfill(6)}  Frame number:
    # {str(frame_number).zfill(8)}  Average reward: {np.mean(rewards[-10:]):0.1f}  Time taken: ...' every 10 games,
    # and print('Evaluation score:', final_score) after each evaluation
    lines = [
        f"Game number: {n:06d}  Frame number: {7943478 + 15000 * k:08d}  Average reward: 115.{k}  Time taken: 69.4s"
        for k, n in enumerate(range(10590, 10650, 10))
    ]
    lines.append("Evaluation score: 124.42857142857143")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(10590, 10650, 10))
    assert [e["line"] for e in evals(parsed)] == [7]


def test_a_bars_rate_in_its_own_unit_is_the_inverse_of_the_time_a_position_takes(write_log):
    # tqdm/std.py format_meter: rate_fmt = f"{rate:5.2f}{unit}/s" (or f"{1 / rate:5.2f}s/{unit}"), `unit` as the
    # bar was made: pykeen/training/training_loop.py trange(..., desc=f"Training epochs on {self.device}",
    # unit="epoch") with set_postfix(loss=..., prev_loss=...)
    rates = (3.82, 4.23, 4.41, 2.45)
    lines = [
        f"Training epochs on cpu: {100 * n // 40:3d}%|#         | {n}/40 [00:0{n}<00:10, {rate:5.2f}epoch/s, "
        f"loss={1.31 - n / 10:.3g}]"
        for n, rate in enumerate(rates, start=1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert row_at(parsed, 1)["step_time_s"] == pytest.approx(1 / 3.82)
    assert row_at(parsed, 4)["step_time_s"] == pytest.approx(1 / 2.45)


def test_steps_a_second_said_per_sec_is_the_inverse_of_the_step_time(write_log):
    # PaddleHub 1.x paddlehub/finetune/task/base_task.py (a6fb663) L853: logger.train("step %d / %d: loss=%.5f
    # %s[step/sec: %.2f]" % (current_step, max_train_steps, avg_loss, 'acc=%.5f ' % acc, run_speed)) behind its
    # logger's '[%(asctime)s] [%(levelname)8s] - '
    lines = [
        f"[2020-07-28 21:28:{21 + 2 * k:02d},658] [   TRAIN] - step {810 + 10 * k} / 900: loss=0.0{5 + k}022 "
        f"acc=0.97813 [step/sec: {rate:.2f}]"
        for k, rate in enumerate((4.07, 4.07, 4.08))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [810, 820, 830]
    assert row_at(parsed, 1)["step_time_s"] == pytest.approx(1 / 4.07)
    assert row_at(parsed, 3)["step_time_s"] == pytest.approx(1 / 4.08)


def test_an_epochs_summary_with_its_validation_loss_after_the_epochs_batch_lines_is_an_evaluation(write_log):
    # IsaacRodgz/ConcatBERT src/train.py: every log_interval batches 'Epoch {:2d} | Batch {:3d}/{:3d} |
    # Time/Batch(ms) {:5.2f} | Train Loss {:5.4f}', after each epoch 'Epoch {:2d} | Time {:5.4f} sec | Train Acc
    # {:5.4f} | Train Loss {:5.4f} | Valid Loss {:5.4f}'
    lines = []
    for epoch in (1, 2):
        lines += [
            f"Epoch {epoch:2d} | Batch {b:3d}/972 | Time/Batch(ms) 69{b // 100}.84 | Train Loss 0.7{b // 100}41"
            for b in (100, 200, 300)
        ]
        lines.append(
            f"Epoch {epoch:2d} | Time 1041.3202 sec | Train Acc 21.7959 | Train Loss 0.6782 | Valid Loss 0.61{epoch}1"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 100, 200, 300]
    assert row_at(parsed, 1)["step_time_s"] == pytest.approx(0.69184)
    assert [e["line"] for e in evals(parsed)] == [4, 8]
    assert [e["eval_loss"] for e in evals(parsed)] == [0.6111, 0.6121]


def test_a_counters_total_over_the_whole_run_is_the_steps_planned(write_log):
    # a microgpt port's train loop: print(f"step {step + 1:5d}/{num_steps:5d} | loss {loss:.4f} | avg50 {avg:.4f} |
    # {rate:6.2f} steps/s | ...") with num_steps = 1000
    lines = [
        f"step {s:5d}/{1000:5d} | loss 3.{3660 - s:04d} | avg50 3.3660 |  15.77 steps/s" for s in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [f.value for f in parsed.facts["train_iters"]] == [1000]


def test_a_counter_that_says_it_counts_the_run_beside_an_epoch_states_the_steps_planned(write_log):
    # TsinghuaAI/CPM-2-Finetune finetune_cpm2.py: 'epoch {:3d}/{:3d} |' + ' global iteration {:8d}/{:8d} |' + '
    # learning rate {:.3} |' + ' lm loss {:.6} |' + ' loss scale {:.1f} |', the total args.train_iters
    lines = [
        f"epoch   0/ 10 | global iteration {s:8d}/{3402:8d} | learning rate 3e-06 | lm loss 7.{s}363 | "
        "loss scale 512.0 |"
        for s in range(20, 60, 10)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [f.value for f in parsed.facts["train_iters"]] == [3402]


def test_a_counter_beside_an_epochs_counts_within_the_epoch_and_states_no_steps_planned(write_log):
    # ClearerVoice-Studio's trainer: 'Train Epoch: {}/{} Step: {}/{} | {:2.3f}s/batch | lr {:1.4e} || Mask_Loss
    # {:2.4f}', the step's total the loader's length
    lines = [
        f"Train Epoch: 0/100 Step: {s}/965 | 1.{s:03d}s/batch | lr 5.0000e-04 || Mask_Loss 1.6{s}"
        for s in range(10, 60, 10)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40, 50]
    assert "train_iters" not in parsed.facts


@pytest.mark.parametrize("epochs", [1, 2])
def test_a_counter_within_the_one_epoch_a_run_plans_states_the_steps_planned(write_log, epochs):
    # jingyaogong/minimind trainer/train_pretrain.py: 'Epoch:[{}/{}]({}/{}) loss:{:.3f} lr:{:.12f} epoch_Time:{}min:'
    # (epoch + 1, args.epochs, step, iter_per_epoch, ...), a pretraining run of one epoch: its loader's length is the
    # run's; of two, the run's steps are not that total
    lines = [
        f"Epoch:[1/{epochs}]({s}/16823) loss:{6.6 - s / 100:.3f} lr:0.000550000000 epoch_Time:87.0min:"
        for s in range(9, 60, 10)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(9, 60, 10))
    if epochs == 1:
        assert [f.value for f in parsed.facts["train_iters"]] == [16823]
    else:
        assert "train_iters" not in parsed.facts


def test_a_number_in_a_time_unit_is_no_counter_whatever_its_key(write_log):
    # kuangliu/pytorch-cifar utils.py progress_bar: ' [' + '=' * cur_len + '>' + '.' * rest_len + ']' then
    # '  Step: ' + format_time(step_time) + ' | Tot: ' + format_time(tot_time) + ' | ' + msg, and ' %d/%d ' %
    # (current+1, total) written over the bar's middle; main.py's msg 'Loss: %.3f | Acc: %.3f%% (%d/%d)'
    lines = [
        f" [{'=' * 20} {n}/391 {'.' * 20}]  Step: {88 + k}ms | Tot: {k + 1}s{k}00ms | Loss: 1.{394 - k} | "
        f"Acc: 49.418% ({128 * n}/50000)"
        for k, n in enumerate((100, 200, 300, 391))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 391]
    assert row_at(parsed, 2)["loss"] == 1.393


def test_bt_beside_dt_is_the_batchs_time_and_dt_the_datas(write_log):
    # HobbitLong/SupContrast main_supcon.py train(): 'Train: [{0}][{1}/{2}]\t' 'BT {batch_time.val:.3f}
    # ({batch_time.avg:.3f})\t' 'DT {data_time.val:.3f} ({data_time.avg:.3f})\t' 'loss {loss.val:.3f}
    # ({loss.avg:.3f})'
    lines = [
        f"Train: [1][{i}/196]\tBT 0.4{i:02d} (1.060)\tDT 0.00{i // 10} (0.093)\tloss 8.9{i:02d} (8.925)"
        for i in (10, 20, 30)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30]
    assert [row_at(parsed, k)["step_time_s"] for k in (1, 2, 3)] == [0.41, 0.42, 0.43]
    assert row_at(parsed, 2)["loss"] == 8.92


def test_a_time_in_brackets_after_a_value_in_no_time_unit_is_no_running_average(write_log):
    # 1tx/CrossForcing's trainer: print(f"epoch {ep:3d}  K={K:2d}  loss={loss:.5e}  v1={v1:.5f}  v30={v30:.5f}
    # ({time.time() - t0:.1f}s)"), the epoch's seconds in brackets after the last score
    lines = [
        f"epoch {e:3d}  K= 1  loss=3.2{e}690e-02  v1=0.1720{e}  v30=0.1783{e}  ({t}s)"
        for e, t in enumerate((5.2, 1.3, 1.4, 1.3))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert [row_at(parsed, k)["step_time_s"] for k in (1, 2, 3)] == [5.2, 1.3, 1.4]


def test_a_consoles_copy_of_the_loggers_step_line_is_no_second_row(write_log):
    # GammA-su/cfm's trainer: logger.info("train step=%d/%d loss=%.4f addr=%.4f gen=%.4f contrast=%.4f step_s=%.3f
    # avg_s=%.3f", ...) behind '%(asctime)s %(levelname)s %(name)s: ', and print(f"step {step}/{steps} loss={loss:.4f}
    # addr={addr:.4f} gen={gen:.4f}") to the console
    lines = []
    for k, step in enumerate((20, 40, 60)):
        loss, addr, gen = f"{11.2183 - k:.4f}", f"{10.6184 - k:.4f}", f"0.{5874 - k:04d}"
        lines.append(
            f"2026-01-14 09:24:{27 + 2 * k:02d},736 INFO train_cfm: train step={step}/6000 loss={loss} addr={addr} "
            f"gen={gen} contrast=0.0125 step_s=0.{242 - k} avg_s=0.242"
        )
        lines.append(f"step {step}/6000 loss={loss} addr={addr} gen={gen}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60]
    # (each step's row is the logger's line: 1, 3 and 5)
    assert [row_at(parsed, k)["step_time_s"] for k in (1, 3, 5)] == [0.242, 0.241, 0.24]
    assert row_at(parsed, 3)["loss"] == 10.2183


def test_a_tally_of_results_worded_line_by_line_beside_the_steps_is_no_step(write_log):
    # Hosh1mi/Tech_challenge: the DPO loop's logger.info(f"epoch={epoch} step={step} loss={loss:.6f}
    # margin={margin:.6f} preference_accuracy={acc:.4f}"), then the evaluation's utils logger prints its tally,
    # f"Correct (format=1, answer=1): {n}/{total} ({share:.1%})" and two more lines worded their own way
    lines = [
        f"__main__ - INFO - epoch=0 step={s} loss=0.5{s % 97:05d} margin=0.334856 preference_accuracy=0.8750"
        for s in (1151, 1159, 1167, 1175)
    ]
    lines += [
        "utils - INFO - Correct (format=1, answer=1): 102/2140 (4.8%)",
        "utils - INFO - Format correct, answer wrong (format=1, answer=0): 464/2140 (21.7%)",
        "utils - INFO - Format incorrect (format=0, answer=0): 1574/2140 (73.6%)",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1151, 1159, 1167, 1175]
    assert "train_iters" not in parsed.facts  # (2140 is the test set's size)


@pytest.mark.parametrize("fraction", [True, False])
def test_a_counter_that_goes_on_across_the_epochs_states_the_steps_planned(write_log, fraction):
    # yoonkim/lstm-char-cnn main.lua: print(string.format("%d/%d (epoch %.2f), train_loss = %6.4f", i, iterations,
    # epoch, train_loss)), the epoch i / the loader's length: a counter that epochs do not restart counts the run,
    # and its total is the steps planned (a whole epoch printed as `epoch 23` then `epoch 24` says the same)
    lines = [
        f"{s}/31675 (epoch {s / 1267 if fraction else s // 1267:.2f}), train_loss = 9{s % 7}.9614 "
        for s in range(29500, 31700, 300)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(29500, 31700, 300))
    assert [f.value for f in parsed.facts["train_iters"]] == [31675]


def test_a_bar_before_each_record_that_prints_the_records_key_is_the_bars_not_the_records(write_log):
    # 1034250765/maize-gene-expression train.py: tqdm(loader, unit='step') with pbar.set_description(f'Train Loss:
    # {loss.item():.4f}') per batch (frames glued on one line once the carriage returns are gone), then after the
    # epoch print(f'[{epoch}/{args.epochs}] Train Loss: {train:.4f}, Valid Loss: {valid:.4f}, Valid PCC: {pcc:.4f}')
    lines = []
    for epoch, (batch, train, valid) in enumerate(
        [(34.5, 32.79, 34.87), (27.5, 23.23, 43.85), (17.7, 15.89, 79.5)]
    ):
        frames = "".join(
            f"Train Loss: {batch - k / 10:.4f}:  {k * 14}%|█▍        | {k}/7 [00:00<00:03,  1.60step/s]"
            for k in range(4)
        )
        lines += [
            "  0%|          | 0/7 [00:00<?, ?step/s]" + frames,
            f"[{epoch + 1}/100] Train Loss: {train:.4f}, Valid Loss: {valid:.4f}, Valid PCC: -0.33{epoch}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    assert [row_at(parsed, line)["loss"] for line in (2, 4, 6)] == [32.79, 23.23, 15.89]
    assert [row_at(parsed, line)["eval_loss"] for line in (2, 4, 6)] == [34.87, 43.85, 79.5]


def test_a_second_run_whose_records_add_keys_is_trained_not_evaluated(write_log):
    # Minamium/kineticEQ train.py: json.dumps({'epoch', 'train_loss', 'val_loss', 'best_val', 'train_time_sec',
    # 'lr', ...}) a line an epoch into log.jsonl; a later version of the script, run into the same file, adds
    # eight val_*_linf diagnostics, and its epochs start again at 1
    first = [
        json.dumps({"epoch": e, "train_loss": 500 / e, "val_loss": 400 / e, "best_val": 400 / e, "lr": 0.001})
        for e in range(1, 6)
    ]
    second = [
        json.dumps(
            {"epoch": e, "train_loss": 40 / e, "val_loss": 0.2 / e, "best_val": 0.2 / e, "lr": 0.001}
            | {"val_pred_linf": 0.36 / e, "val_true_linf": 0.11}
        )
        for e in range(1, 4)
    ]
    parsed = frame(write_log("\n".join(first + second) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5, 1, 2, 3]
    assert row_at(parsed, 6)["loss"] == 40.0
    assert row_at(parsed, 6)["eval_loss"] == 0.2
    assert evals(parsed) == []


def test_a_joint_loss_is_the_total_and_a_ranking_dict_is_the_evaluation(write_log):
    # QinHsiu/ICSRec src/trainers.py: str(post_fix) of {'epoch': epoch, 'rec_avg_loss': '{:.4f}', 'icl_avg_loss':
    # ..., 'joint_avg_loss': ...} (joint = rec_weight * rec + icl), then get_full_sort_score's {'Epoch': epoch,
    # 'HIT@5': ..., 'NDCG@5': ...} on the validation set
    lines = []
    for epoch, (rec, icl) in enumerate([(9.5068, 4.2266), (9.3680, 3.1567), (9.2001, 2.9)]):
        lines += [
            str({"epoch": epoch, "rec_avg_loss": f"{rec:.4f}", "icl_avg_loss": f"{icl:.4f}",
                 "joint_avg_loss": f"{rec + icl:.4f}"}),
            str({"Epoch": epoch, "HIT@5": f"0.00{66 + epoch}", "NDCG@5": "0.0038", "HIT@10": "0.0130"}),
        ]  # fmt: skip
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2]
    assert row_at(parsed, 1)["loss"] == pytest.approx(13.7334)
    assert [(e["line"], e["step"]) for e in evals(parsed)] == [(2, 0), (4, 1), (6, 2)]


def test_values_named_by_their_split_alone_are_the_splits_losses(write_log):
    # facebookresearch/svoice svoice/solver.py: logger.info(f'Epoch {epoch}: ' + ' '.join(f'{k}={v:.5f}' for k, v in
    # metrics.items())) of {'train': train_loss, 'valid': valid_loss, 'best': best_loss}, under hydra's prefix
    lines = [
        f"[2024-10-03 09:27:16,231][svoice.solver][INFO] - Epoch {e}: train={4.6 - e / 10:.5f} "
        f"valid={13.2 - e / 10:.5f} best={13.2 - e / 10:.5f}"
        for e in range(5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4]
    assert row_at(parsed, 2)["loss"] == 4.5
    assert row_at(parsed, 2)["eval_loss"] == 13.1


def test_a_new_best_with_an_arrow_to_its_file_and_the_periodic_save_after_it_are_two_saves(write_log):
    # GeorgiySav/diffusionblocks_llm's C++ trainer: "step %6lld | lr %.2e | train loss %.4f", at each evaluation
    # "step %6lld | val loss %.4f", then "new best val loss %.4f -> <path>.best" and "saved checkpoint to <path>"
    lines = ["parameters: 62.11M across 110 tensors"]
    for step in range(0, 900, 50):
        lines.append(f"step {step:6d} | lr 3.00e-04 | train loss {8.4 - step / 200:.4f}")
        if step and step % 400 == 0:
            lines += [
                f"step {step:6d} | val loss {8.3 - step / 200:.4f}",
                f"step {step:6d} | new best val loss {8.3 - step / 200:.4f} -> checkpoints/llama.ckpt.best",
                f"step {step:6d} | saved checkpoint to checkpoints/llama.ckpt",
            ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(0, 900, 50))
    events = parsed.events[["event", "line", "step"]].to_dict("records")
    assert [(e["event"], e["line"], e["step"]) for e in events] == [
        ("eval", 11, 400),
        ("checkpoint_save", 12, 400),
        ("checkpoint_save", 13, 400),
        ("eval", 22, 800),
        ("checkpoint_save", 23, 800),
        ("checkpoint_save", 24, 800),
    ]
    assert [f.value for f in parsed.facts["total_params"]] == [62_110_000]


def test_a_bars_rate_is_the_pace_of_the_records_printed_after_its_frames(write_log):
    # yangdongchao/AcademiCodec main3_ddp.py: `for x in tqdm(train_loader)` and every print_freq batches
    # logger.log_info('<epoch:{:d}, iter:{:d}, total_loss_g:{:.4f}, ...>') right after the bar's frame, whose
    # position is the batch before the logged one; the record prints no time, tqdm's rate is the step's pace
    lines = [
        f" 42%|####▍     | {k - 1}/18075 [1:26:{k % 60:02d}<1:59:42,  1.{40 + k % 10}it/s]"
        f"<epoch:8, iter:{k}, total_loss_g:{600 + k % 7:.4f}, adv_g_loss:1.9499, loss_d:0.7014>, d_weight: 1.0000"
        for k in range(7570, 7630, 10)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(7570, 7630, 10))
    assert row_at(parsed, 1)["loss"] == 600 + 7570 % 7
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(1 / 1.40)


def test_a_header_record_of_settings_under_the_steps_counter_is_no_step(write_log):
    # eblancocabana/grpo-training-engine's metrics.jsonl: a run_info record at step 0 (its settings: max_steps, the
    # loader's steps_per_epoch), then one train_metrics record a step
    header = {"effective_batch": 4, "epoch": 0, "event": "run_info", "max_steps": 120, "step": 0}
    steps = [
        {
            "epoch": 0,
            "event": "train_metrics",
            "perf/step_time_s": 21.7 + s,
            "step": s,
            "train/loss": 0.01 * s,
        }
        for s in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(json.dumps(r) for r in [header, *steps]) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert [f.value for f in parsed.facts["train_iters"]] == [120]


def test_episode_reports_under_the_updates_counter_are_no_steps(write_log):
    # LionelCCC/RL-Dodge-Agent ppo_agent.py: per finished episode f'ep {episodes_done:5d} | step {global_step:7d} |
    # survived {cur_ep_len:4d} | rollout {update}/{num_updates}', after each update f'=== upd {update:4d}/
    # {num_updates} | step {global_step:7d} | mean_ep_len ... | pg_loss {pg:+.3f} | v_loss {v:.3f} | ... ==='
    lines, episode = [], 0
    for update in range(1, 5):
        for k in range(5):
            episode += 1
            lines.append(
                f"ep {episode:5d} | step {2048 * (update - 1) + 300 * k + 100:7d} | survived {300 + k:4d} | "
                f"rollout {update}/488"
            )
        lines.append(
            f"=== upd {update:4d}/488 | step {2048 * update:7d} | mean_ep_len  298.7 | pg_loss -0.03{update} | "
            f"v_loss 128.9{update} | ent 3.291 | clipfrac 0.026 | sps {3500 + update} ==="
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [2048, 4096, 6144, 8192]


def test_an_evaluations_metrics_after_the_epochs_own_values_keep_the_line_a_step(write_log):
    # THUwangcy/ReChorus's BaseRunner: logging.info('Epoch {:<5} loss={:<.4f} [{:<3.1f} s]    dev=({})
    # [{:<.1f} s] '.format(...)) with ' *' when the best model is saved: the epoch's loss and training seconds, then
    # the validation's ranking metrics and its own seconds
    seconds = [95.6, 93.2, 93.5, 87.4, 87.1, 87.8]
    lines = [
        f"Epoch {e:<5} loss={0.36 - e / 100:.4f} [{t} s]\tdev=(HR@3:0.3{e}30,NDCG@3:0.2{e}14) [1.9 s] *"
        for e, t in enumerate(seconds, start=1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5, 6]
    assert row_at(parsed, 1)["loss"] == 0.35
    assert [row_at(parsed, line)["step_time_s"] for line in range(1, 7)] == seconds


def test_a_model_size_every_step_line_repeats_is_the_runs(write_log):
    # pengzhiliang/MAE-pytorch main_finetune.py: log_stats = {**{f'train_{k}': v ...}, **{f'test_{k}': v ...},
    # 'epoch': epoch, 'n_parameters': n_parameters} written as one JSON line an epoch
    lines = [
        json.dumps({"train_lr": 0.0004 * e, "train_loss": 5.6 - e / 10, "test_loss": 2.2 - e / 20, "epoch": e,
                    "n_parameters": 86406376})
        for e in range(6)
    ]  # fmt: skip
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(6))
    assert [f.value for f in parsed.facts["total_params"]] == [86406376]


def test_one_record_over_lines_that_each_repeat_the_epoch_and_the_iteration_is_one_row(write_log):
    # jdtoscano94's PINN notebooks (RBA/Helmholtz): a dashed rule, then five prints a record, each
    # 'Epoch: {}, It: {}, ' and two of the record's values
    lines = []
    for it in (1, 50, 100, 150):
        lines += [
            "-" * 50,
            f"Epoch: {it}, It: {it}, Time: 1.2{it % 7}s, Learning Rate: 5.0e-03",
            f"Epoch: {it}, It: {it}, Total Error: 7.053e+04, Total Loss: {231.8 - it:.3e}",
            f"Epoch: {it}, It: {it}, Relative L2: 1.555e+00, Relative Linfty: 2.547e+00",
            f"Epoch: {it}, It: {it}, Loss_helmholtz: 7.053e+04, Loss BCs(u): 3.240e+00",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 50, 100, 150]
    assert row_at(parsed, 2)["loss"] == pytest.approx(230.8)
    assert row_at(parsed, 7)["lr"] == 0.005


def test_a_json_state_whose_options_include_a_flag_named_test_is_a_step(write_log):
    # prlz77/ResNeXt.pytorch train.py: state = {k: v for k, v in args._get_kwargs()} updated each epoch with
    # train_loss, test_loss, test_accuracy and epoch, then log.write('%s\n' % json.dumps(state)): the `"test": false`
    # option names no evaluation
    lines = [
        json.dumps({"load": None, "momentum": 0.9, "train_loss": 1.27 - e / 10, "batch_size": 128, "test": False,
                    "test_accuracy": 0.53 + e / 100, "epoch": e, "learning_rate": 0.05, "test_loss": 1.28 - e / 10})
        for e in range(5)
    ]  # fmt: skip
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4]
    assert row_at(parsed, 2)["loss"] == pytest.approx(1.17)
    assert row_at(parsed, 2)["eval_loss"] == pytest.approx(1.18)


def test_an_epoch_column_printed_with_decimals_is_the_tables_counter(write_log):
    # ma-xu/pointMLP-pytorch utils/logger.py: a header of names, then every value of a row as '{0:.6f}'
    header = "`Epoch-Num\tLearning-Rate\tTrain-Loss\tTrain-acc\tValid-Loss\tValid-acc\t"
    rows = [
        f"{e:.6f}\t0.00999{9 - e}\t{2.77 - e / 10:.6f}\t{12.6 + e:.6f}\t{2.57 - e / 10:.6f}\t16.759000\t"
        for e in range(6)
    ]
    parsed = frame(write_log("\n".join([header, *rows]) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4, 5]
    assert row_at(parsed, 3)["loss"] == pytest.approx(2.67)
    assert row_at(parsed, 3)["eval_loss"] == pytest.approx(2.47)


def test_an_epochs_setting_with_decimals_printed_once_is_no_step():
    # cgcnn2's start-up: logging.info("Parsed arguments:") then pprint of its arguments ({'atom_fea_len': 64, ...,
    # 'epoch': 300.0, ...}, a key a line), then 'Epoch [{:03d}/{}] - Train Loss: ..., Valid Loss: ..., LR: [...]'
    # an epoch (a committed log, kept with the excerpts it was measured with)
    parsed = frame(
        ROOT / "benchmarks" / "unseen" / "2026-12-06-s" / "cgcnn2_aws_crystal_regression_epochs.log"
    )
    assert steps_of(parsed) == list(range(1, 12))


def test_the_options_repr_printed_once_is_settings_not_an_evaluation(write_log):
    # IzayoiSakuya111's VAE++ train.py prints its argparse options (one named test='target_test', epoch=1000), then
    # f"Epoch: {epoch} Loss: {loss:.4f}" and the epoch's top-n metrics
    lines = [
        "Namespace(optimizer='Adam', model='MultiVAE', lr_rate=0.001, batch_size=500, hiddenDim=100, epoch=1000, "
        "early_stop=50, topk=20, test='target_test', user_num=36918, is_train=True)",
        "Start time: 2023_11_27_20_23_33",
    ]
    for e in range(5):
        lines += [
            f"Epoch: {e} Loss: {33.65 - e:.4f}",
            f"Epoch: {e} precision@5: 0.00{e + 4}4 ndcg@5: 0.01{e}8",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4]
    assert [e["line"] for e in evals(parsed)] == [4, 6, 8, 10, 12]
    assert [f.value for f in parsed.facts["num_epochs"]] == [1000]


def test_counts_and_settings_printed_once_before_the_steps_are_no_evaluation(write_log):
    # lcmd-epfl/EquiReact train.py: print("total / train / test / val:", ...) of the splits' sizes and
    # print("checkpoint:", args.checkpoint) before its epochs, then "[Epoch e; Iter i/N] train: loss: ..." lines and
    # after each epoch "[Epoch e] mae: ... val loss: ..."
    lines = ["Using random splits", "total / train / test / val: 11883 9506 1188 1189", "checkpoint: None"]
    for epoch in range(1, 3):
        lines += [
            f"[Epoch {epoch}; Iter {i:5d}/ 297] train: loss: 0.{9 - i // 60}1{epoch}"
            for i in range(60, 300, 60)
        ]
        lines.append(f"[Epoch {epoch}] mae: 7.{epoch}20 val loss: 0.5{epoch}01")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in evals(parsed)] == [8, 13]


def test_one_step_printed_over_lines_under_a_head_of_its_counters_alone(write_log):
    # ming024/FastSpeech2 train.py prints at each log step "Epoch [{}/{}], Step [{}/{}]:", then "Total Loss: {:.4f},
    # Mel Loss: {:.4f}, Mel PostNet Loss: {:.4f}, Duration Loss: {:.4f}, F0 Loss: {:.4f}, Energy Loss: {:.4f};" and
    # "Time Used: {:.3f}s, Estimated Time Remaining: {:.3f}s."; an excerpt of one step still reads its loss
    lines = [
        "Epoch [191/1000], Step [115650/608000]:",
        "Total Loss: 68.7120, Mel Loss: 0.2892, Mel PostNet Loss: 0.2889, Duration Loss: 2.2572, F0 Loss: "
        "59.7572, Energy Loss: 6.1195;",
        "Time Used: 28493.331s, Estimated Time Remaining: 97800.871s.",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [115650]
    assert list(parsed.rows["loss"]) == [68.712]


def test_a_position_that_starts_again_in_the_same_epoch_is_the_run_started_again(write_log):
    # delta-lab's CasRel main.py logs "【train】 epoch:{} {}/{} loss:{:.4f}" through logging's "%(asctime)s -
    # %(levelname)s - %(filename)s - %(funcName)s - %(lineno)d - %(message)s"; a second launch appends its argument
    # Namespace to the same file, then counts from 0 in the same epoch
    prefix = "2022-06-27 09:01:{:02d},737 - INFO - main.py - train - 58 - "
    lines = [prefix.format(k) + f"【train】 epoch:0 {109 + k}/45495 loss:0.0{283 + k}" for k in range(5)]
    lines.append(prefix.format(30).replace("train - 58", "<module> - 233") + "Namespace(lr=5e-05, seed=123)")
    lines += [prefix.format(40 + k) + f"【train】 epoch:0 {k}/45495 loss:0.4{409 + k}" for k in range(6)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [109, 110, 111, 112, 113, 0, 1, 2, 3, 4, 5]
    assert list(parsed.rows["loss"])[5] == 0.4409


def test_a_json_record_with_its_options_counts_by_its_epoch_not_the_plan_nor_a_list(write_log):
    # szagoruyko/wide-residual-networks train.lua: print('==> online epoch # '..epoch..' [batchSize = '..
    # opt.batchSize..']') before each epoch, then print('json_stats: '..json.encode(tablex.merge(t, opt, true))):
    # the epoch's record merged with every option, `"max_epoch":200` and the list `"epoch_step":[60,120,160]`
    losses = [1.3907951342754, 0.90608985317059, 0.73168230056763, 0.62283033132553]
    lines = []
    for epoch, loss in enumerate(losses, 1):
        lines.append(f"==> online epoch # {epoch} [batchSize = 128]\t")
        lines.append(
            'json_stats: {"batchSize":128,"train_time":291.7556,"max_epoch":200,'
            f'"epoch":{epoch},"lr":0.1,"test_acc":{50 + epoch}.57,"n_parameters":8949210,'
            f'"epoch_step":[60,120,160],"loss":{loss}}}\t'
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert list(parsed.rows["loss"]) == losses


def test_a_list_printed_after_a_key_gives_no_column(write_log):
    # WZMIAOMIAO/deep-learning-for-image-processing's DeepLabV3 train.py writes results.txt once an epoch:
    # f"[epoch: {epoch}]\n" f"train_loss: {mean_loss:.4f}\n" f"lr: {lr:.6f}\n" and then the ConfusionMatrix's
    # __str__, whose "IoU: {}" is a list of per-class strings ['93.9', '91.5', ...]: no one value of the key
    lines = []
    for epoch, loss in enumerate([0.7098, 0.6005, 0.5840]):
        lines += [
            f"[epoch: {epoch}]",
            f"train_loss: {loss}",
            "lr: 0.000100",
            f"IoU: ['9{epoch}.9', '91.5', '42.6']",
            f"mean IoU: 7{epoch}.9",
            "",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2]
    assert list(parsed.rows["loss"]) == [0.7098, 0.6005, 0.5840]
    assert not [c for c in parsed.rows if c in ("x_iou", "x_value")]


def test_the_epoch_a_pacing_bar_prints_is_the_rows_and_its_last_frame_no_row(write_log):
    # mxoder's LoRA-from-scratch loop: tqdm(loader, desc=f"Epoch {epoch + 1}/{epochs}") and every 5 batches
    # print(f"Step: {step}/{len(loader)}, Loss: ..., Grad Norm: ..."); the bar's frame before each print paces the
    # step, and its last frame at the epoch's end (32/32) has no step line after it
    lines = []
    for epoch in (1, 2):
        for k, step in enumerate((5, 10, 15, 20, 25, 30)):
            lines.append(f"Epoch {epoch}/3:  {10 * k}%|█         | {step - 1}/32 [00:08<00:56,  2.0{k}s/it]")
            lines.append(f"Step: {step}/32, Loss: {2 - 0.1 * k - 0.5 * epoch:.4f}, Grad Norm: 1.9531")
        lines.append(f"Epoch {epoch}/3: 100%|██████████| 32/32 [00:52<00:00,  1.64s/it]")
        lines.append(f"Epoch {epoch} finished, Average Loss: 1.8794")
        lines.append("")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5, 10, 15, 20, 25, 30] * 2
    assert list(parsed.rows["epoch_total"]) == [3] * 12
    assert list(parsed.rows["step_time_s"]) == [2.0, 2.01, 2.02, 2.03, 2.04, 2.05] * 2


def test_a_save_line_that_numbers_its_epoch_is_a_checkpoint_not_a_step(write_log):
    # PyTorch's DDP tutorial (pytorch/examples distributed/ddp-tutorial-series multinode.py) prints
    # f"[RANK {rank}] Epoch {epoch} | Batchsize: {b_sz} | Steps: {len(train_data)}" (here with the loss added) and
    # f"Epoch {epoch} | Training snapshot saved at {self.snapshot_path}"; an excerpt of one epoch of four ranks
    lines = []
    for rank in range(4):
        lines.append(f"[RANK {rank}] Epoch 0 | Batchsize: 32 | Steps: 235 | Loss: 0.2{5 - rank}")
        lines.append("Epoch 0 | Training snapshot saved at ./snapshot.pt")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert list(parsed.rows["line"]) == [1, 3, 5, 7]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [2, 4, 6, 8]


def test_the_source_line_of_a_loggers_prefix_is_no_value(write_log):
    # taishan1994/pytorch_bert_bilstm_crf_ner logs through "%(asctime)s - %(levelname)s - %(filename)s -
    # %(funcName)s - %(lineno)d - %(message)s": "main.py - train - 52 - 【train】 epoch:{} {}/{} loss:{:.4f}" and
    # after an evaluation "main.py - train - 56 - [eval] loss:{:.4f} precision={:.4f} recall={:.4f}
    # f1_score={:.4f}"; the 52 and the 56 are the lines of main.py that logged them
    stamp = "2021-08-05 16:25:0{}"
    lines = [
        f"{stamp.format(k)},698 - INFO - main.py - train - 52 - 【train】 epoch:0 {86 + k}/360 loss:3.{7439 + k}"
        for k in range(4)
    ]
    lines.append(
        f"{stamp.format(5)},155 - INFO - main.py - train - 56 - [eval] loss:65.0829 precision=0.9033 "
        "recall=0.8520 f1_score=0.8769"
    )
    lines += [
        f"{stamp.format(6 + k)},413 - INFO - main.py - train - 52 - 【train】 epoch:0 {90 + k}/360 loss:7.{6484 + k}"
        for k in range(3)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [86, 87, 88, 89, 90, 91, 92]
    assert not [c for c in parsed.rows if c in ("x_train", "x_value")]
    assert [e["line"] for e in evals(parsed)] == [5]


def test_a_time_of_day_joined_by_underscores_opening_the_line_is_its_stamp(write_log):
    # fducau/CWord nmt.py (dl4mt's trainer): print('[{}] Epoch: {}, Update: {}, Cost: {}, UD {}'.format(
    # now.strftime('%H_%M_%S'), eidx, uidx, cost, ud)), ud = time.time() - ud_start around the one update
    stamps = ["02_55_56", "03_00_02", "03_04_01", "03_08_01"]
    lines = [
        f"[{t}] Epoch: 0, Update: {13750 + 250 * k}, Cost: 3{k}.5747642517, UD 0.97693109512{k}"
        for k, t in enumerate(stamps)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [13750, 14000, 14250, 14500]
    stamped = list(parsed.rows["timestamp"])
    # 03:00:02 - 02:55:56, 03:04:01 - 03:00:02, 03:08:01 - 03:04:01
    assert [b - a for a, b in zip(stamped, stamped[1:], strict=False)] == [246.0, 239.0, 240.0]
    assert list(parsed.rows["step_time_s"]) == [
        0.976931095120,
        0.976931095121,
        0.976931095122,
        0.976931095123,
    ]


def test_an_evaluation_at_a_training_lines_step_is_an_evaluation_not_the_steps_other_half(write_log):
    # joeynmt/training.py: "Epoch %3d, Step: %8d, Batch Loss: %12.6f, Tokens per Sec: %8.0f, Lr: %.6f" every
    # logging_freq steps and, at validation_freq, "Validation result (%s) at epoch %3d, step %8d: %s: %6.2f, loss:
    # %8.4f, ppl: %8.4f, duration: %.4fs" at the step the training line printed
    prefix = "2021-10-08 14:5{}:19,672 - INFO - joeynmt.training - "
    lines = [
        prefix.format(k)
        + f"Epoch   1, Step: {100 * (k + 1):8d}, Batch Loss:     5.56052{k}, Tokens per Sec:     "
        f"409{k}, Lr: 0.000300"
        for k in range(5)
    ]
    lines.insert(
        3,
        prefix.format(2)
        + "Validation result (greedy) at epoch   1, step      300: bleu:   1.70, loss: 98871.7656, "
        "ppl:  59.5687, duration: 90.9818s",
    )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert list(parsed.rows["loss"]) == [5.560520, 5.560521, 5.560522, 5.560523, 5.560524]
    assert [e["line"] for e in evals(parsed)] == [4]


def test_a_module_saved_is_a_checkpoint_and_a_save_is_no_evaluations_heading(write_log):
    # Ma-787639046/NLP_Trans logs "[Epoch {}] Module saved!" and "Best Module in [Epoch {}] saved!" after each
    # epoch's validation; a pre-training loop logs "[validation] new best model + tokenizer saved" then
    # "[checkpoint] step 2,000": the save's words head no evaluation
    lines = []
    for epoch, loss in enumerate([8.836, 7.614, 7.036, 6.473], 1):
        lines += [
            f"[INFO] 2021-12-25 21:4{epoch}:42,093 : Epoch:  {epoch}, loss: {loss}",
            f"[INFO] 2021-12-25 21:4{epoch}:43,899 : [Epoch {epoch}] Module saved!",
            f"[INFO] 2021-12-25 21:4{epoch}:44,228 : Best Module in [Epoch {epoch}] saved!",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [2, 3, 5, 6, 8, 9, 11, 12]
    lines = [f"step= {s}/8870 | loss={3 - s / 10000:.4f} | lr=2.718e-04" for s in (1980, 1990, 2000)]
    lines += [
        "[validation] step=2000 loss=3.0143",
        "[validation] new best model + tokenizer saved",
        "[checkpoint] step 2,000",
    ]
    lines += [f"step= {s}/8870 | loss={3 - s / 10000:.4f} | lr=2.718e-04" for s in (2010, 2020)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in evals(parsed)] == [4]


def test_a_line_that_announces_an_evaluation_in_words_alone_is_its_event(write_log):
    # nyu-mll/jiant's trainer logs "Validating..." before the validation's batches, whose lines the reading does not
    # take for an evaluation's results: the announcement is the evaluation's event, one per announcement
    lines = []
    for update in (939, 950, 972, 994):
        lines.append(
            f"07/10 03:47:54 AM: Update {update}: task wmt14_en_de, batch {update} ({update}): perplexity: "
            f"1438.7564, wmt14_en_de_loss: 7.0{update % 100:02d} ||"
        )
    lines += ["07/10 03:48:28 AM: ***** Pass 1000 / Epoch 1 *****", "07/10 03:48:28 AM: Validating..."]
    lines += [
        f"07/10 03:48:35 AM: Batch {b}/157: perplexity: 542.0302, wmt14_en_de_loss: 6.2833 ||"
        for b in (37, 87)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [939, 950, 972, 994]
    assert [e["line"] for e in evals(parsed)] == [6]


def test_a_dotnet_stamp_and_words_a_second(write_log):
    # zhongkaifu/Seq2SeqSharp's README log: .NET's DateTime (en-US: month, day and hour unpadded, a 12-hour clock)
    # after the level, then "Update = '{}' Epoch = '{}' LR = '{}', Current Cost = '{}', ..., WordPerSec = '{}'"
    lines = [
        f"info,9/26/2019 3:{38 + 4 * k}:24 PM Update = '{15600 + 100 * k}' Epoch = '0' LR = '0.002000', Current Cost = "
        f"'2.81743{k}', Avg Cost = '3.551963', SentInTotal = '31948800', SentPerMin = '52153.52', WordPerSec = "
        f"'3951{k}.27'  "
        for k in range(3)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [15600, 15700, 15800]
    assert list(parsed.rows["tokens_per_s"]) == [39510.27, 39511.27, 39512.27]
    stamps = list(parsed.rows["timestamp"])
    assert [b - a for a, b in zip(stamps, stamps[1:], strict=False)] == [
        240.0,
        240.0,
    ]  # 3:42:24 PM - 3:38:24 PM


def test_an_epochs_summary_with_evaluation_metrics_beside_the_steps_is_an_evaluation(write_log):
    # NayeonKim925/big-data-analytics' taxonomy classifier: "  epoch {} step {} loss {:.4f} ({:.2f}s/step)" every
    # 100 steps, then 'EPOCH RESULT: ' + json.dumps({"epoch": ..., "train_loss": ..., "p@1": ..., "mrr_filtered":
    # ...}) after each epoch's evaluation
    lines = []
    for epoch in range(3):
        lines += [
            f"  epoch {epoch} step {s} loss {40 - s / 100 - epoch:.4f} (0.24s/step)" for s in (100, 200, 300)
        ]
        lines.append(
            f'EPOCH RESULT: {{"epoch": {epoch}, "train_loss": 13.438{epoch}, "minutes": 4.1, "p@1": 0.58{epoch}, '
            f'"mrr_filtered": 0.44{epoch}, "f1_top3": 0.428{epoch}}}'
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300] * 3
    assert [e["line"] for e in evals(parsed)] == [4, 8, 12]


def test_the_file_line_and_process_of_a_loggers_prefix_leave_an_evaluations_words_first(write_log):
    # SiaStegNet's train.py logs through "%(asctime)s %(filename)s:%(lineno)d[%(process)d] %(levelname)s
    # %(message)s": "Train epoch: {} [{}/{}]\tAccuracy: {:.2f}%\tLoss: {:.6f}" and, after 'Test', "Test set: Loss:
    # {:.4f}, Accuracy: {:.2f}%)", the evaluation of the epoch's model; an excerpt over one evaluation
    def train(epoch: int, batch: int, k: int) -> str:
        return (
            f" 2020-10-26 13:2{k}:36.%f train.py:215[27649] INFO Train epoch: {epoch} [{batch}/1000]\tAccuracy: "
            f"49.44%\tLoss: 0.72{k}369"
        )

    lines = [train(17, b, k) for k, b in enumerate((600, 800, 1000))]
    lines += [
        " 2020-10-26 13:29:55.%f train.py:270[27649] INFO Time: 14003.732480049133",
        " 2020-10-26 13:29:55.%f train.py:271[27649] INFO Test",
        " 2020-10-26 13:30:38.%f train.py:254[27649] INFO Test set: Loss: 0.7243, Accuracy: 50.11%)",
        " 2020-10-26 13:30:38.%f train.py:282[27649] INFO Best accuracy: 0.503",
        " 2020-10-26 13:30:38.%f train.py:283[27649] INFO Time: 14046.820983886719",
        " 2020-10-26 13:30:38.%f train.py:267[27649] INFO Epoch: 18",
        " 2020-10-26 13:30:38.%f train.py:268[27649] INFO Train",
    ]
    lines += [train(18, b, k) for k, b in enumerate((200, 400))]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [600, 800, 1000, 200, 400]
    assert [e["eval_loss"] for e in evals(parsed)] == [0.7243]


def test_values_and_counters_in_braces(write_log):
    # a lane-segmentation trainer's log: logger.info('epoch: {%d/%d}, step: {%d/%d}, loss : {%.7f}, lr : {%.7f}')
    lines = []
    for epoch in (1, 2, 3):
        for step in (1, 2):
            lines.append(
                f"2022-02-15 17:49:1{epoch},758 INFO epoch: {{{epoch}/300}}, step: {{{step}/2}}, loss : "
                f"{{1.{epoch}0869{step}8}}, lr : {{0.000100{epoch}}}"
            )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 1, 2, 1, 2]
    assert list(parsed.rows["loss"]) == [1.1086918, 1.1086928, 1.2086918, 1.2086928, 1.3086918, 1.3086928]
    assert list(parsed.rows["epoch_total"]) == [300] * 6


def test_a_time_that_matches_the_gap_between_two_stamped_records_is_the_intervals(write_log):
    # xinntao's MMSR (and HDRUNet on it): logging.Formatter('%(asctime)s.%(msecs)03d - %(levelname)s: %(message)s',
    # datefmt='%y-%m-%d %H:%M:%S') and every 100 iterations "<epoch:{:3d}, iter:{:8,d}, lr:{:.3e}, , time:{:.3f}>
    # l_pix: {:.4e}" with the seconds since the last print: 84.443 between 11:31:42.571 and 11:33:07.015
    stamps = ["11:31:42.571", "11:33:07.015", "11:34:32.932", "11:36:03.741", "11:37:49.982"]
    times = ["1145.108", "84.443", "85.917", "90.808", "106.241"]
    lines = [
        f"21-08-10 {at} - INFO: <epoch:193, iter: {505100 + 100 * k:,}, lr:5.000e-05, , time:{t}> l_pix: 7.754{k}e-03"
        for k, (at, t) in enumerate(zip(stamps, times, strict=True))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [505100, 505200, 505300, 505400, 505500]
    assert list(parsed.rows["loss"]) == [0.007754, 0.0077541, 0.0077542, 0.0077543, 0.0077544]
    assert [round(v, 6) for v in parsed.rows["step_time_s"]] == [11.45108, 0.84443, 0.85917, 0.90808, 1.06241]
    assert parsed.rows["timestamp"].diff().round(3).tolist()[1:] == [84.444, 85.917, 90.809, 106.241]


def test_saves_named_by_the_path_between_and_by_a_best_scores_arrow_to_a_pickle(write_log):
    # zezhishao/STEP's easytorch runner logs "Checkpoint {} saved" of the .pt file it wrote; caofy0307/T-GRAASP logs
    # "✔ Best! Corr={:.4f}  →  {path}" of the pickle it wrote
    lines = []
    for epoch in (1, 2, 3):
        lines.append(
            f"2022-09-26 23:1{epoch}:08,830 - easytorch-training - INFO - Epoch {epoch} train_loss: 0.5{epoch}"
        )
        lines.append(
            f"2022-09-26 23:1{epoch}:09,830 - easytorch-training - INFO - Checkpoint checkpoints/TSFormer_100/"
            f"7db68a53/TSFormer_00{epoch}.pt saved"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [2, 4, 6]
    lines = []
    for epoch in (1, 2, 3):
        lines.append(
            f"12:5{epoch}:06    [FT] Ep {epoch:03d} | Loss 1.66{epoch} | Corr 0.168{epoch} | LR 1.00e-04"
        )
        lines.append(f"12:5{epoch}:07    ✔ Best! Corr=0.168{epoch}  →  checkpoints/best_finetune_model.pkl")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [2, 4, 6]


def test_an_announcement_whose_over_is_a_preposition_announces(write_log):
    # karpathy's char-rnn and its forks (LSTM-char-CNN): print('evaluating loss over split index ' .. split_index)
    # before each validation, then the save of its checkpoint
    lines = []
    for epoch in (24, 25):
        lines += [
            f"{step}/31675 (epoch {step / 1267:.2f}), train_loss = 9{k}.9614 "
            for k, step in enumerate(range(1267 * epoch - 400, 1267 * epoch, 100))
        ]
        lines += [
            "evaluating loss over split index 2  ",
            f"saving checkpoint to cv/lm_word-small_epoch{epoch}.00_122.53.t7  ",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in evals(parsed)] == [5, 11]


def test_an_evaluation_that_quotes_the_trainings_cost_under_its_stage_word_is_one(write_log):
    # dl4mt's trainer (fducau/CWord nmt.py): 'Epoch: {}, Update: {}, Cost: {}, UD {}' every dispFreq updates and,
    # after each validation, 'Train: {} Val: {} ValPerp: {}' (the last minibatch's cost, the validation's)
    lines = [
        f"[0{k}_55_56] Epoch: 0, Update: {13750 + 250 * k}, Cost: 3{k}.5747642517, UD 0.976931095123"
        for k in range(4)
    ]
    lines += ["Train: 27.1271324158 Val: 37.2833251953 ValPerp: 30.6101785403", "Seen 1920000 samples"]
    lines += [
        f"[0{k}_25_23] Epoch: 0, Update: {14750 + 250 * (k - 4)}, Cost: 3{k}.0122871399, UD 0.907998800278"
        for k in range(4, 7)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [13750, 14000, 14250, 14500, 14750, 15000, 15250]
    assert [(e["line"], e["eval_loss"]) for e in evals(parsed)] == [(5, 37.2833251953)]


def test_a_time_under_a_key_that_says_only_cost_is_the_steps_time(write_log):
    # lufficc/SSD ssd/engine/trainer.py: 'Iter: {:06d}, Lr: {:.5f}, Cost: {:.2f}s, Eta: {}, ' + losses, the seconds
    # since its last line (every 10 iterations): the stamps 6 s apart say the 5.5 s are the interval's
    lines = [
        f"2018-12-17 13:56:{5 * k + 3:02d},0{k}4 SSD.trainer INFO: Iter: {10 * k:06d}, Lr: 0.0007{k}, Cost: "
        f"5.{k}4s, Eta: 10:1{k}:03, Loss: 1{k}.744, Regression Loss 2.703, Classification Loss: 12.041"
        for k in range(1, 8)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10 * k for k in range(1, 8)]
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(5.24 / 10)
    # attentive-gan-derainnet train_model.py: 'Epoch: {:d} D_loss: {:.5f} G_loss: {:.5f} Ssim: {:.5f} Cost_time:
    # {:.5f}s' of one iteration, every iteration
    lines = [
        f"Epoch: {k} D_loss: 0.5{k}040 G_loss: 11{k}.36253 Ssim: -0.00{k}74 Cost_time: 0.5{k}916s"
        for k in range(8)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 4)["step_time_s"] == pytest.approx(0.53916)
    # MOTIP's '[Epoch: 0] [3900/5030] [tps: 2.84s] overall_loss = ...': the initials, with a time unit, of the time
    # per step (no tokens a second)
    lines = [
        f"[Epoch: 0] [{3900 + 100 * k}/5030] [tps: 2.8{k}s] overall_loss = 4.4{k}45 (5.3163)"
        for k in range(6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(2.81)


def test_a_unit_word_that_a_colon_follows_is_the_next_key(write_log):
    # MedicalDataAugmentationTool's MainLoopBase prints each summary value as 'name: value', one after another
    lines = [
        f"train iter: {5000 + 100 * k} loss: 69{k}.5380 loss_reg: 0.6406 gradient_norm: 68{k}.6187 seconds: 13{k}.668"
        for k in range(6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 3)["grad_norm"] == pytest.approx(682.6187)
    assert "x_gradient_norm_seconds" not in parsed.rows


def test_save_and_a_colon_glued_to_a_checkpoints_file_is_its_save(write_log):
    # dreamer121121/googlenet inception_v1_train_val.py: print('-----save:{}'.format(best_models)) of a .ckpt file
    lines = []
    for k in range(4):
        lines.append(
            f"2019-08-19 23:0{k}:57.695388: Step [{4900 + 100 * k}]  train Loss : 0.05{k}164, training accuracy :  0.9375"
        )
        if k % 2:
            lines.append(f"------save:models\\best_models_{4900 + 100 * k}_0.8925.ckpt")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [3, 6]


def _changeformer_epoch() -> list[str]:
    """An epoch's training lines of wgcban/ChangeFormer's trainer, every 100 batches."""
    return [
        f"Is_training: True. [3,199][{b},445], imps: 20{k}.60, est: 30.6{k}h, G_loss: 1.2{k}750, running_mf1: 0.48650"
        for k, b in enumerate((1, 101, 201, 301, 401))
    ]


def test_two_counts_that_fill_a_bracket_are_two_numbers_not_one_with_a_thousands_comma(write_log):
    # wgcban/ChangeFormer models/trainer.py: 'Is_training: %s. [%d,%d][%d,%d], imps: %.2f, est: %.2fh, G_loss: %.5f,
    # running_mf1: %.5f\n' % (self.is_training, self.epoch_id, self.max_num_epochs-1, self.batch_id,
    # m, ...), every 100 batches, of the training's batches and then the validation's
    lines = _changeformer_epoch()
    lines += [
        "Begin evaluation...",
        "Is_training: False. [3,199][1,64], imps: 155.12, est: 40.19h, G_loss: 1.08056, running_mf1: 0.49266",
    ]
    lines += [
        "Is_training: True. [4,199][1,445], imps: 203.58, est: 30.46h, G_loss: 0.99493, running_mf1: 0.49462"
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 101, 201, 301, 401, 1]
    assert [e["line"] for e in evals(parsed)] == [7]
    assert number_spans("(1,024 tokens) [12,345/50,000]") == [
        (1, 6),
        (16, 22),
        (23, 29),
    ]  # (thousands elsewhere)


def test_a_checkpoint_at_an_iteration_written_with_an_at_sign_is_a_save(write_log):
    # kandivault-source/Sprocket-500M src/train/train.py: print(f"  checkpoint @ iter {it} -> {path}") between its
    # `iter {it:6d} | train ... | val ... | lr ...` lines
    lines = [
        f"iter {20 * k:6d} | train 5.{k}89 | val 5.{k}34 | lr 1.{k}8e-04 | 98,70{k} tok/s | 54.64 GB | 0.05{k}B tok"
        for k in range(1, 7)
    ]
    lines.insert(3, "  checkpoint @ iter 60 -> checkpoints/500m_latest.pt")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20 * k for k in range(1, 7)]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [4]


def test_an_epochs_summary_of_the_training_and_the_validation_under_their_stage_words_is_an_evaluation(
    write_log,
):
    # Lukas1121/LogSentinel finetune.py: print(f"    step {step+1:4d}/{len(loader)}  loss {avg:.4f}") every 20
    # batches, then print(f"[{phase}] Epoch {epoch}/{args.epochs} -- train: {tr:.4f}  val: {va:.4f}  ppl: {ppl:.2f}
    # ({elapsed:.0f}s)") after the epoch's validation
    lines = []
    for epoch in (1, 2):
        lines += [f"    step {s:4d}/328  loss 0.53{s // 20:02d}" for s in range(20, 340, 20)]
        lines += [
            "",
            f"[Unfrozen] Epoch {epoch}/500 -- train: 0.530{epoch}  val: 0.623{epoch}  ppl: 1.86  (7{epoch}s)",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(20, 340, 20)) * 2
    assert [e["line"] for e in evals(parsed)] == [18, 36]
    # (the epochs planned, which only the evaluation's line states)
    assert [f.value for f in parsed.facts["num_epochs"]] == [500]


def test_a_learning_rate_alone_between_step_lines_is_the_next_rows(write_log):
    # LeeJunHyun/Image_Segmentation solver.py: after each epoch's 'Epoch [%d/%d], Loss: %.4f, \n[Training] Acc: ...'
    # it decays the rate and prints 'Decay learning rate to lr: {}.', the rate the next epoch trains with
    lines = []
    for epoch in range(68, 73):
        lines += [
            f"Epoch [{epoch}/100], Loss: 11{epoch % 10}.3787, ",
            f"[Training] Acc: 0.97{epoch}, SE: 0.9331, SP: 0.9780, PC: 0.9084, F1: 0.9115, JS: 0.8460, DC: 0.9115",
            f"Decay learning rate to lr: {5.0e-05 - (epoch - 68) * 1e-06}.",
            f"[Validation] Acc: 0.85{epoch}, SE: 0.4180, SP: 0.9947, PC: 0.6673, F1: 0.4447, JS: 0.3768, DC: 0.4447",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [68, 69, 70, 71, 72]
    assert math.isnan(row_at(parsed, 1)["lr"])
    assert row_at(parsed, 5)["lr"] == pytest.approx(5.0e-05)  # printed after epoch 68's line, epoch 69's rate
    assert row_at(parsed, 17)["lr"] == pytest.approx(5.0e-05 - 3e-06)
    # ChangeFormer's trainer writes 'lr: %0.7f\n' as an epoch begins, once, before its first batch's line
    lines = _changeformer_epoch()
    lines += [
        "Lastest model updated. Epoch_acc=0.4901, Historical_best_acc=0.5015 (at epoch 0)",
        "",
        "lr: 0.0000980",
    ]
    lines += [
        "Is_training: True. [4,199][1,445], imps: 203.58, est: 30.46h, G_loss: 0.99493, running_mf1: 0.49462"
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 9)["lr"] == pytest.approx(9.8e-05)
    assert "lr" not in parsed.rows or math.isnan(row_at(parsed, 5)["lr"])


def test_a_stamp_ruled_with_its_own_glyph_heads_each_steps_lines_and_gives_their_time(write_log):
    # SpencerSzabados/reflected-diffusion-mlp's logger: a `[time]====...` banner around the job's start, then
    # `[time]----...` before each logged step's 'Step: {}' and 'Loss: {}' lines
    lines = ["[2024-09-16 15:15:21]====================", "Job started.", "Creating data loader..."]
    lines += ["[2024-09-16 15:15:22]====================", "Training model...", ""]
    for k in range(1, 6):
        lines += [
            f"[2024-09-16 15:{15 + 3 * k}:3{k}]--------------------",
            f"Step: {2000 * k}",
            f"Loss: 0.0{k}7055",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [2000 * k for k in range(1, 6)]
    stamps = parsed.rows.loc[parsed.rows["kind"] == "step", "timestamp"]  # (seconds since the epoch)
    assert list(stamps.diff().dropna()) == [181.0] * 4


def test_a_list_of_names_beside_a_list_of_values_names_each_value(write_log):
    # Gillis/GPTime model/train.py: logger.info(f"Epoch {epoch}\t[Avg. Loss, Loss]: [{avg:.4f}, {loss:.4f}], {n}")
    lines = [
        f"2021-08-08 15:2{k}:33,421 - GPTime.model.train - INFO - Epoch {10 * k}    [Avg. Loss, Loss]: "
        f"[{10 - k}.4449, {9 - k}.1693], 0"
        for k in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40, 50]
    assert row_at(parsed, 2)["loss"] == pytest.approx(7.1693)
    # hyrun/kgcn run_toxicity.py: the stage's word, then the names, '===>' and the values, for training and validation
    lines = []
    for r in range(3, 8):
        lines += [
            f"2020-12-18 11:1{r}:03,470 - run_toxicity.py - main - L133 ::: train, round, loss, acc, auc  ===> "
            f"{r:03d}, 0.8{r}290, 0.39816, 0.38508,",
            f"2020-12-18 11:1{r}:20,459 - run_toxicity.py - main - L139 ::: val, round, loss, acc, auc ===> "
            f"{r:03d}, 0.7{r}909, 0.48353, 0.50844,",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [3, 4, 5, 6, 7]
    assert row_at(parsed, 3)["loss"] == pytest.approx(0.84290)
    assert [e["line"] for e in evals(parsed)] == [2, 4, 6, 8, 10]
    # JayPatwardhan/ResNet-PyTorch: print('Loss [%d, %d](epoch, minibatch): ' % (epoch + 1, i + 1), running_loss / 100)
    lines = [
        f"Loss [{e}, {i}](epoch, minibatch):  {9 - e}.{i}5963740825653"
        for e in (1, 2, 3)
        for i in (100, 200, 300)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300] * 3
    assert row_at(parsed, 4)["loss"] == pytest.approx(7.10059637408256)


def test_a_line_that_says_the_learning_rate_changes_under_its_epoch_is_the_next_rows_rate_not_a_row(
    write_log,
):
    # PyTorch's ReduceLROnPlateau(verbose=True), torch/optim/lr_scheduler.py _reduce_lr: print('Epoch {}: reducing
    # learning rate of group {} to {:.4e}.'.format(epoch_str, i, new_lr)) after the epoch whose metric it read
    lines = []
    for epoch in range(85, 95):
        lines.append(f"Epoch [{epoch}/650], Train Loss: 0.00{epoch % 10}4, Train L1 Loss: 0.25{epoch}")
        lines.append(f"Epoch [{epoch}/650], Validation Loss: 0.00{epoch % 10}8, Validation L1: 0.28{epoch}")
        if epoch in (87, 93):
            lines.append(f"Epoch 000{epoch}: reducing learning rate of group 0 to {5 / (epoch - 85):.4e}.")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(85, 95))
    assert row_at(parsed, 8)["lr"] == pytest.approx(2.5)  # epoch 88's row, after the line
    assert math.isnan(row_at(parsed, 5)["lr"])


def test_a_stamp_of_month_day_and_year_joined_by_dashes_times_the_rows(write_log):
    # NTMC-Community/MatchZoo main.py: print('[%s]\t[Train:%s] ' % (time.strftime('%m-%d-%Y %H:%M:%S'), tag), end='')
    # then print('Iter:%d\tloss=%.6f' % (i_e, loss)), and '[Eval:test] Iter:%d\t' + metrics after each
    lines = []
    for k in range(2, 8):
        lines.append(f"[05-20-2018 11:55:{3 * k:02d}]\t[Train:train] Iter:{k}\tloss=0.8{k}2642")
        lines.append(
            f"[05-20-2018 11:55:{3 * k + 1:02d}]\t[Eval:test] Iter:{k}\tndcg@3=0.53{k}487\tmap=0.551394"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [2, 3, 4, 5, 6, 7]
    stamps = parsed.rows.loc[parsed.rows["kind"] == "step", "timestamp"]
    assert stamps.iloc[0] == datetime(2018, 5, 20, 11, 55, 6, tzinfo=timezone.utc).timestamp()
    assert list(stamps.diff().dropna()) == [3.0] * 5


def test_a_stamp_of_the_months_name_and_a_comma_in_the_opening_bracket_leaves_the_bare_step_and_loss(
    write_log,
):
    # stanford-futuredata/ColBERT colbert/utils/utils.py print_message: "[" + datetime.now().strftime("%b %d,
    # %H:%M:%S") + "] " + msg, of training.py's print_message(batch_idx, train_loss)
    lines = []
    for k in range(7):
        lines += ["True", f"\t\t\t\t 0.54{k} 5.716{k}", f"[Mar 29, 16:22:0{k}] {k} 6.25{k}948947906494"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(7))
    assert row_at(parsed, 6)["loss"] == pytest.approx(6.251948947906494)
    stamps = parsed.rows.loc[parsed.rows["kind"] == "step", "timestamp"]
    assert list(stamps.diff().dropna()) == [1.0] * 6


def test_a_learning_rate_on_the_line_that_opens_an_epoch_is_its_first_rows(write_log):
    # a PaddlePaddle PredNet loop: print("Starting epoch {} current lr is {}".format(epoch, lr)) before its batches'
    # "Epoch {}, Step {}, total used time {} (s), avg loss so far is {}"
    lines = []
    for epoch, lr in ((1, 0.001), (2, 0.0005)):
        lines.append(f"Starting epoch {epoch} current lr is {lr}")
        lines += [
            f"Epoch {epoch}, Step {s}, total used time {40 * epoch + s / 3:.4f} (s), avg loss so far is 0.03{s}"
            for s in (25, 50, 75, 100)
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [25, 50, 75, 100] * 2
    assert row_at(parsed, 2)["lr"] == pytest.approx(0.001)
    assert row_at(parsed, 7)["lr"] == pytest.approx(0.0005)


def test_a_message_written_twice_by_two_handlers_is_one_record_the_stamped_copy(write_log):
    # 1eftone/EstraNet train_trans.py logs through tf.compat.v1.logging: each message as 'INFO:tensorflow:<msg>' and
    # again behind absl's 'I1212 hh:mm:ss.micro tid train_trans.py:298] <msg>'
    lines = []
    for k in range(1, 5):
        step = f"[{5000 * k:6d}] | gnorm  {9 - k}.33 lr  0.00012{k} | loss  5.5{k}"
        lines += [
            f"INFO:tensorflow:{step}",
            f"I1212 15:1{k}:27.449019 128529813321536 train_trans.py:298] {step}",
        ]
        if k % 2 == 0:
            save = f"Model saved in path: ./checkpoints_ascadv2/trans_ascadv2-{k // 2}"
            lines += [
                f"INFO:tensorflow:{save}",
                f"I1212 15:1{k}:44.155864 128529813321536 train_trans.py:334] {save}",
            ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5000, 10000, 15000, 20000]
    assert row_at(parsed, 2)["loss"] == pytest.approx(5.51)
    assert not pd.isna(row_at(parsed, 2)["timestamp"])
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [5, 11]  # (the first of each pair)


def test_an_evaluation_before_the_first_step_line_is_the_first_rows_unless_one_names_the_step(write_log):
    # karpathy/build-nanogpt's loop evaluates as a step begins: "validation loss: {:.4f}" before "step {:5d} | loss: ..."
    lines = ["using device: cuda", "validation loss: 10.9499", "HellaSwag accuracy: 2486/10042=0.2476"]
    lines += [
        f"step {s:5d} | loss: 10.9{s}5003 | lr 8.3916e-07 | norm: 15.3438 | dt: 4738.40ms" for s in range(5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 4)["eval_loss"] == pytest.approx(10.9499)
    # ... where the evaluation that names the step is the step's (a from-scratch GPT-2 library's "Initial val loss"
    # before "Step 1/19073: ..." and its "Step 1/19073: val_loss=10.8874")
    lines = ["Initial val loss: 10.9347"]
    for s in (1, 2, 3):
        lines += [
            f"Step {s}/19073: lr=8.3916{s}e-07 | grad_norm=14.2035 | loss=10.93955{s}",
            f"Step {s}/19073: val_loss=10.887{s}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 2)["eval_loss"] == pytest.approx(10.8871)


def test_a_measures_name_beside_the_training_loss_leaves_the_epoch_a_training_row(write_log):
    # a clinical forecaster: logging.info(f"Epoch {e}: Train Loss: {tl:.4f}, Val Loss: {vl:.4f}, MAP: {map_dict}, ...")
    # once an epoch; MAP (mean average precision) is the test set's, the line is the epoch's training row
    lines = [
        f"2025-06-27 01:{e:02d}:59,732 - INFO - Epoch {e}: Train Loss: 3.{90 - e}11, Val Loss: 3.{80 - e}29, "
        f"MAP: {{'test_map@20': 0.5{e}43, 'test_map@40': 0.5{e}45}}"
        for e in range(1, 7)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5, 6]
    assert row_at(parsed, 1)["loss"] == pytest.approx(3.8911)
    assert row_at(parsed, 1)["eval_loss"] == pytest.approx(3.7929)
    # a stage the text names in its own word is still the evaluation's (SpeechBrain's `"kind": "valid"` record
    # carries the epoch's train_loss)
    lines = [
        json.dumps({"kind": "valid", "epoch": e, "train_loss": 1.3 / e, "loss": 0.9 / e, "error": 0.3})
        for e in range(1, 5)
    ]
    batches = [
        json.dumps({"kind": "batch", "epoch": e, "loss": 2.0 / e + i / 100})
        for e in range(1, 5)
        for i in range(3)
    ]
    parsed = frame(
        write_log("\n".join(b for e in range(4) for b in (*batches[3 * e : 3 * e + 3], lines[e])) + "\n")
    )
    assert len(evals(parsed)) == 4


def test_a_table_row_that_fills_the_evaluations_loss_and_not_the_trainings_is_an_evaluation(write_log):
    # a TinyStories loop's metrics.csv (csv.DictWriter over step,train_loss,val_loss,lr,...): a training row every
    # 200 steps, a validation row every 100, each leaving the other's loss empty
    lines = ["step,train_loss,val_loss,lr,tokens_step"]
    for step in range(0, 1000, 100):
        if step % 200 == 0:
            lines.append(f"{step},{10 - step / 200:.6f},,{step / 1e6:.8e},49152")
        lines.append(f"{step},,{9.9 - step / 200:.6f},{step / 1e6:.8e},49152")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 200, 400, 600, 800]
    assert [e["step"] for e in evals(parsed)] == list(range(0, 1000, 100))
    assert row_at(parsed, 8)["loss"] == pytest.approx(10 - 400 / 200)


def test_the_loss_on_each_split_under_the_stage_words_is_an_evaluation_at_its_step(write_log):
    # a char-level GPT loop: every 100 steps print(f"step {it:5d} | train {tr:.4f} | val {va:.4f} | lr {lr:.2e} |
    # {t}s") of estimate_loss() over both splits; every 500 steps print(f"  step {it:5d} | loss {loss:.4f} | lr ...")
    # of the step it trained
    lines = []
    for it in range(0, 1100, 100):
        lines.append(
            f"step {it:5d} | train {3 - it / 1000:.4f} | val {3.1 - it / 1000:.4f} | lr 1.00e-03 | {it // 10}s"
        )
        if it % 500 == 0:
            lines.append(f"  step {it:5d} | loss {3.05 - it / 1000:.4f} | lr 1.00e-03")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 500, 1000]
    assert [e["step"] for e in evals(parsed)] == list(range(0, 1100, 100))
    assert row_at(parsed, 8)["eval_loss"] == pytest.approx(3.1 - 0.5)
    # (`step   900`, then `step  1000` one blank narrower: the same layout, two evaluations)
    assert row_at(parsed, 14)["eval_loss"] == pytest.approx(3.1 - 1.0)


def test_a_save_that_names_its_epoch_is_at_that_step_where_the_steps_are_epochs(write_log):
    # a PINN's Hydra log: each `epoch` is one optimizer step (`epoch    500 | loss ...` every 500); save_checkpoint
    # logs 'Checkpoint saved -> <path>  (epoch N, loss X)' at any step the loss improves
    stamp = "[2026-03-22 22:14:{:02d},703][{}][INFO] - "
    lines = [
        stamp.format(1, "src.transfer") + "Checkpoint saved → out/ckpt_best.pt  (epoch 283, loss 8.1168e-02)",
        stamp.format(3, "__main__")
        + "epoch    500 | loss 2.5953e-01 (pde 2.5953e-01, bc 0.0000e+00) | lr 1.00e-04",
        stamp.format(5, "src.transfer") + "Checkpoint saved → out/ckpt_best.pt  (epoch 534, loss 7.5186e-02)",
        stamp.format(7, "__main__")
        + "epoch   1000 | loss 2.3920e-01 (pde 2.3920e-01, bc 0.0000e+00) | lr 9.50e-05",
        stamp.format(9, "src.transfer")
        + "Checkpoint saved → out/ckpt_best.pt  (epoch 1026, loss 3.3416e-02)",
        stamp.format(11, "__main__")
        + "epoch   1500 | loss 2.1920e-01 (pde 2.1920e-01, bc 0.0000e+00) | lr 9.00e-05",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [500, 1000, 1500]
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert saves["step"].tolist() == [283, 534, 1026]


def test_the_lines_of_a_python_warnings_message_are_no_evaluation(write_log):
    # nltk/translate/bleu_score.py:577 warns over several lines (warnings.formatwarning: "{file}:{lineno}:
    # {category}: {message}" then the indented source line); "the BLEU score evaluates to 0" is its text
    lines = []
    for epoch in range(4):
        lines.append(
            f"2024-10-08 16:46:4{epoch},669 - MyLogger - INFO - Epoch: {epoch}, Train Loss: 4.{9 - epoch}29"
        )
        for n in (4, 3):
            lines += [
                "/env/lib/python3.11/site-packages/nltk/translate/bleu_score.py:577: UserWarning:",
                f"The hypothesis contains 0 counts of {n}-gram overlaps.",
                "Therefore the BLEU score evaluates to 0, independently of",
                "how many N-gram overlaps of lower order it contains.",
                "  warnings.warn(_msg)",
            ]
        lines.append(
            f"2024-10-08 16:46:4{epoch},954 - MyLogger - INFO - Epoch: {epoch},Valid ACC: 0.2{epoch}7"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert [e["line"] for e in evals(parsed)] == [12, 24, 36, 48]


def test_an_epoch_that_starts_again_at_one_is_the_script_run_again_into_the_file(write_log):
    # a DNA GAN's train log, appended to by each run: print(f"Epoch {e}/{n} | D_loss={d:.4f} | G_loss={g:.4f} |
    # Time={t:.2f}s"), and between runs "TRAIN started at <date>" and its parameters
    lines = [f"Epoch {e}/50 | D_loss=-4.{e}315 | G_loss=8.{e}211 | Time=11.74s" for e in (48, 49, 50)]
    lines += [
        "Checkpoint saved: checkpoints/stacked_epoch50.pt",
        "TRAIN started at Fri Oct 24 19:56:21 2025",
        "Parameters:",
        "  epochs: 100",
        "  batch: 64",
    ]
    lines += [f"Epoch {e}/100 | D_loss=-3.{e}966 | G_loss=3.{e}216 | Time=111.02s" for e in (1, 2, 3)]
    lines += ["TRAIN started at Fri Oct 24 20:57:18 2025", "Parameters:", "  epochs: 150"]
    lines += [f"Epoch {e}/150 | D_loss=-3.{e}627 | G_loss=2.{e}199 | Time=150.10s" for e in (1, 2, 3, 4)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [48, 49, 50, 1, 2, 3, 1, 2, 3, 4]
    assert row_at(parsed, 9)["step_time_s"] == pytest.approx(111.02)


def test_an_epochs_duration_is_the_step_time_where_the_steps_are_epochs(write_log):
    # a landslide emulator's trainer, resumed at epoch 201: print(f"epoch {e} | train {tr:.4f} (seg .., thick ..) |
    # val ... | lr {lr:.2e} | epoch time {fmt(dt)} | elapsed {fmt(t)} | ETA {fmt(eta)}"), fmt writing `12m 44s`;
    # each epoch a little longer than the last, the elapsed clock since the resume beside it
    times = [(12, 44), (12, 47), (12, 49), (12, 50), (12, 51), (12, 50)]
    lines, elapsed = [], 0
    for k, (m, s) in enumerate(times):
        elapsed += 60 * m + s
        lines.append(
            f"epoch {201 + k} | train 1.11{k}2 (seg 0.0766, thick 1.0367) | val 1.3223 (seg 0.0771, thick 1.2452) | "
            f"lr 3.91e-06 | epoch time {m}m {s}s | elapsed {elapsed // 60}m {elapsed % 60}s | ETA 63h 28m 53s"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(201, 207))
    assert row_at(parsed, 1)["step_time_s"] == pytest.approx(12 * 60 + 44)
    assert row_at(parsed, 6)["train_elapsed_s"] == pytest.approx(elapsed)


def test_an_epoch_said_evaluated_is_an_evaluation_and_an_epochs_seconds_stay_seconds(write_log):
    # a lung-nodule U-Net's train.py: print(f'Epoch {epoch} trained with loss: {loss}. The running time is {t}.')
    # after the training pass, then f'Epoch {epoch} evaluated with loss: {loss}, dice score: {s}. The running
    # time is {t}.' after the validation pass; an epoch takes over an hour, in seconds (time.time() differences)
    lines = []
    for epoch in range(4):
        lines.append(
            f"Epoch {epoch} trained with loss: 0.0{epoch + 1}96626. The running time is 40{epoch}3.88443."
        )
        lines.append(
            f"Epoch {epoch} evaluated with loss: 0.000{epoch + 3}37, dice score: 1.09e-05. The running time is 713.2."
        )
        lines.append(f"Best model saved at epoch: {epoch}")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert row_at(parsed, 1)["step_time_s"] == pytest.approx(4003.88443)
    assert row_at(parsed, 1)["eval_loss"] == pytest.approx(0.000337)
