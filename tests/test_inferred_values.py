"""What the inferred reading (logparse/patterns/infer.py) makes of a step record's values: keys and values
joined by slashes, a timestamp's date joined to its time by a colon, a clock of the day, a duration in days,
hours and minutes, a line of evaluation metrics alone, an asctime stamp, a time of day leading the line, the C
locale's date, a language model's objective as the loss, a time that grows with the steps. Each log is a few
lines built from a framework's own format string (cited beside it) with values chosen in the test; the
expected values are those values, as the format prints them."""

from __future__ import annotations

import math
from datetime import datetime, timezone

import pytest

from logparse import api
from logparse.core.errors import UnrecognisedLog
from tests.conftest import run_apart
from tests.frames import evals, frame, row_at, steps_of


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
    # the two validators' lines at update 3000 report one validation: one event, at its first line
    assert [e["line"] for e in evals(parsed)] == [4]


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


def _stylegan_tick(tick: int, elapsed: str) -> str:
    # NVlabs/stylegan2-ada training/training_loop.py 'Report progress': f"tick {cur_tick:<5d}", f"kimg {...:<8.1f}",
    # f"time {dnnlib.util.format_time(total_time):<12s}", f"sec/tick {...:<7.1f}", f"sec/kimg {...:<7.2f}",
    # f"maintenance {...:<6.1f}", f"gpumem {peak_gpu_mem_op.eval() / 2**30:<5.1f}", f"augment {...:.3f}" joined by ' '
    return (
        f"tick {tick:<5d} kimg {tick * 4.1:<8.1f} time {elapsed:<12s} sec/tick {71.0:<7.1f} sec/kimg {17.34:<7.2f} "
        f"maintenance {0.0:<6.1f} gpumem {8.9:<5.1f} augment 0.{tick:03d}"
    )


def test_a_duration_in_days_hours_and_minutes_that_rises_is_the_time_since_training_began(write_log):
    # dnnlib/util.py format_time: "{0}d {1:02}h {2:02}m" from a day on; metrics/metric_base.py prints a snapshot's
    # metric as "{snapshot} time {format_time(t)} {name} {value:.4f}" (network-snapshot-%06d, fid50k_full)
    lines = [
        _stylegan_tick(1401, "1d 06h 06m"),
        _stylegan_tick(1402, "1d 06h 07m"),
        "network-snapshot-005742        time 4m 26s       fid50k_full 46.5633",
        _stylegan_tick(1403, "1d 06h 13m"),
        _stylegan_tick(1404, "1d 06h 14m"),
        _stylegan_tick(1405, "1d 06h 15m"),
        _stylegan_tick(1406, "1d 06h 17m"),
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1401, 1402, 1403, 1404, 1405, 1406]
    assert row_at(parsed, 1)["train_elapsed_s"] == 86400 + 6 * 3600 + 6 * 60
    assert row_at(parsed, 4)["train_elapsed_s"] == 86400 + 6 * 3600 + 13 * 60
    assert row_at(parsed, 1)["memory_gib"] == 8.9
    # the metric's line is an evaluation, not a step (its `time` is the metric's own)
    assert [e["line"] for e in evals(parsed)] == [3]


def test_a_line_of_evaluation_metrics_alone_is_an_evaluation(write_log):
    # Project-MONAI/tutorials acceleration/fast_training_tutorial.ipynb: print(f"epoch {epoch + 1}/{max_epochs}"),
    # f"{step}/{epoch_len}, train_loss: {loss.item():.4f} step time: {(time.time() - step_start):.4f}", then
    # f"epoch {epoch + 1} average loss: {epoch_loss:.4f}", f"current epoch: {epoch + 1} current mean dice:
    # {metric:.4f} best mean dice: {best_metric:.4f} at epoch: {best_metric_epoch}" and f"time consuming of epoch
    # {epoch + 1} is: {(time.time() - epoch_start):.4f}"
    lines = []
    for e in (1, 2):
        lines += ["-" * 10, f"epoch {e}/300"]
        lines += [f"{i}/3, train_loss: 0.{e}{i}00 step time: 0.9{i}00" for i in (1, 2, 3)]
        lines += [
            f"epoch {e} average loss: 0.{e}200",
            f"current epoch: {e} current mean dice: 0.7{e}00 best mean dice: 0.7{e}00 at epoch: {e}",
            f"time consuming of epoch {e} is: 29.9011",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [int(s) for s in parsed.rows.loc[parsed.rows["kind"] == "step", "progress_total"]] == [3] * 6
    assert row_at(parsed, 3)["loss"] == 0.11 and row_at(parsed, 5)["step_time_s"] == 0.93
    assert [e["line"] for e in evals(parsed)] == [7, 15]


def test_a_time_of_day_under_a_times_key_is_the_lines_clock(write_log):
    # torch_xla test/test_utils.py print_training_update: print('|', ' '.join(['Training', 'Device={}', 'Epoch={}',
    # 'Step={}', 'Loss={:.5f}', 'Rate={:.2f}', 'GlobalRate={:.2f}', 'Time={}']), Time = now() =
    # datetime.now().strftime('%H:%M:%S')
    lines = [
        f"| Training Device=xla:0/0 Epoch=1 Step={s} Loss=0.0{s // 20}000 Rate=1760.{s} GlobalRate=257.10 "
        f"Time=07:29:{39 + s // 10:02d}"
        for s in (20, 40, 60, 80)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60, 80]
    assert row_at(parsed, 4)["timestamp"] - row_at(parsed, 1)["timestamp"] == 6.0  # 07:29:47 - 07:29:41


def _xla_line(device: int, step: int, rate: float, clock: str) -> str:
    # torch_xla test/test_utils.py print_training_update (called by every device's process of
    # test/test_train_mp_imagenet.py with its own tracker.rate(), a RateTracker fed the batch size each step):
    # print('|', ' '.join(['Training', 'Device=' + spec, 'Epoch=1', 'Step={}', 'Loss={:.5f}', 'Rate={:.2f}',
    # 'GlobalRate={:.2f}', 'Time={}']))
    return (
        f"| Training Device=xla:0/{device} Epoch=1 Step={step} Loss=0.0{step // 20}000 Rate={rate:.2f} "
        f"GlobalRate=257.{device}0 Time={clock}"
    )


def test_a_rate_each_device_prints_for_its_step_is_that_devices_samples_per_second(write_log):
    lines = [
        _xla_line(d, s, 1760 + s / 10 + d / 100, f"07:29:{39 + s // 10:02d}")
        for s in (20, 40, 60)
        for d in (3, 0, 2, 1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20] * 4 + [40] * 4 + [60] * 4
    assert row_at(parsed, 1)["samples_per_s_per_gpu"] == 1762.03  # 1760 + 20 / 10 + 3 / 100
    assert row_at(parsed, 6)["samples_per_s_per_gpu"] == 1764.00


def test_a_rate_every_process_prints_alike_is_the_whole_jobs(write_log):
    # the same line where each process prints one figure of the whole job: the same number on every line of a step
    lines = [
        _xla_line(d, s, 1760 + s / 10, f"07:29:{39 + s // 10:02d}") for s in (20, 40, 60) for d in (0, 1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 1)["samples_per_s"] == 1762.0
    assert "samples_per_s_per_gpu" not in parsed.rows or parsed.rows["samples_per_s_per_gpu"].isna().all()


def test_patterns_new_writes_a_durations_value_in_its_samples(tmp_path, write_log):
    # the set `patterns new` writes reads the duration as the inferred reading does, and says so in its samples
    elapsed = ["1d 06h 06m", "1d 06h 07m", "1d 06h 08m", "1d 06h 10m", "1d 06h 11m"]
    lines = [_stylegan_tick(1401 + i, e) for i, e in enumerate(elapsed)]
    log = write_log("\n".join(lines) + "\n")
    out = tmp_path / "sets" / "mine.toml"
    assert run_apart(["patterns", "new", str(log), "-o", str(out)]).exit_code == 0
    assert "train_elapsed_s = 108360.0" in out.read_text()  # 1 d 6 h 6 min
    assert run_apart(["patterns", "test", str(out.parent)]).exit_code == 0


def test_an_asctime_stamp_is_the_lines_clock(write_log):
    # yysijie/st-gcn main.py (2018) print_log: str = "[ " + time.asctime(time.localtime(time.time())) + ' ] ' + str,
    # of 'Training epoch: {}' and '\tBatch({}/{}) done. Loss: {:.4f}  lr:{}'.format(batch_idx, len(loader), loss,
    # lr); asctime pads a one-digit day with a blank
    stamps = ["Sat Jun  9 23:58:05 2018", "Sat Jun  9 23:59:30 2018", "Sun Jun 10 00:00:55 2018"]
    lines = ["[ Sat Jun  9 23:57:50 2018 ] Training epoch: 3"]
    lines += [
        f"[ {stamp} ] \tBatch({100 * i}/1500) done. Loss: {4.5 - i / 10:.4f}  lr:0.01"
        for i, stamp in enumerate(stamps)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200]
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 2)["timestamp"] == 85.0  # 23:59:30 - 23:58:05
    assert row_at(parsed, 4)["timestamp"] - row_at(parsed, 3)["timestamp"] == 85.0  # over midnight
    assert row_at(parsed, 2)["loss"] == 4.5 and row_at(parsed, 2)["lr"] == 0.01
    assert row_at(parsed, 2)["progress_total"] == 1500


def _xlm_line(date: str, elapsed: str, n: int, loss: float, lr: float) -> str:
    # facebookresearch/XLM xlm/logger.py LogFormatter: "%s - %s - %s" % (levelname, time.strftime('%x %X'),
    # timedelta(seconds=elapsed)) + " - " + message; xlm/trainer.py print_stats: "%7i - " % n_total_iter, "{:7.2f}
    # sent/s - {:8.2f} words/s - ", the stats '{}: {:7.4f}' ('MLM-%s' % lang: the step's loss.item()), " - " +
    # " - %s LR: " % 'model' + "{:.4e}"
    return (
        f"INFO - {date} - {elapsed} - {n:7d} - {60.5:7.2f} sent/s - {2100.25:8.2f} words/s - "
        f"MLM-en: {loss:7.4f} -  - model LR: {lr:.4e}"
    )


def test_a_language_models_objective_is_the_loss_and_the_c_locales_date_reads(write_log):
    lines = [
        _xlm_line("12/31/19 23:59:58", "1:02:03", 2000, 6.5432, 1.25e-4),
        _xlm_line("01/01/20 00:00:01", "1:02:06", 2005, 6.4321, 1.2505e-4),
        _xlm_line("01/01/20 00:00:04", "1:02:09", 2010, 6.321, 1.251e-4),
        _xlm_line("01/01/20 00:00:07", "1:02:12", 2015, 6.2109, 1.2515e-4),
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [2000, 2005, 2010, 2015]
    assert row_at(parsed, 1)["loss"] == 6.5432 and row_at(parsed, 4)["loss"] == 6.2109
    assert row_at(parsed, 1)["lr"] == 1.25e-4
    # %x in the C locale is MM/DD/YY: the last second of 2019, then 3 s into 2020
    assert (
        row_at(parsed, 1)["timestamp"] == datetime(2019, 12, 31, 23, 59, 58, tzinfo=timezone.utc).timestamp()
    )
    assert row_at(parsed, 2)["timestamp"] - row_at(parsed, 1)["timestamp"] == 3.0


def test_a_time_of_day_leading_the_line_is_its_clock(write_log):
    # PrimeIntellect-ai/prime src/zeroband/utils/logging.py CustomFormatter: "{asctime} [{levelname}] [Rank
    # {local_rank}] {message}" with datefmt="%H:%M:%S"; src/zeroband/train.py: f"step: {step}, loss: {loss:.4f}"
    # then f", tokens_per_second: {tps:.2f}, mfu: {mfu:.2f}"
    clocks = ["09:05:58", "09:06:02", "09:06:05", "09:06:09"]
    lines = [
        f"{clock} [INFO] [Rank 0] step: {s}, loss: {9 - s / 10:.4f}, tokens_per_second: 61234.5{s}, mfu: 41.2{s}"
        for s, clock in enumerate(clocks, start=1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert row_at(parsed, 2)["timestamp"] - row_at(parsed, 1)["timestamp"] == 4.0  # 09:06:02 - 09:05:58
    assert row_at(parsed, 4)["timestamp"] - row_at(parsed, 1)["timestamp"] == 11.0
    assert row_at(parsed, 1)["loss"] == 8.9


def test_a_step_times_key_whose_values_grow_with_the_steps_is_the_time_since_training_began(write_log):
    # carpedm20/DCGAN-tensorflow model.py: print("Epoch: [%2d] [%4d/%4d] time: %4.4f, d_loss: %.8f, g_loss: %.8f"
    # % (epoch, idx, batch_idxs, time.time() - start_time, errD_fake + errD_real, errG))
    lines = [
        f"Epoch: [ 0] [{idx:4d}/1200] time: {4.25 + 1.5 * idx:4.4f}, d_loss: 1.2{idx}000000, g_loss: 0.7{idx}000000"
        for idx in range(6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4, 5]
    assert row_at(parsed, 1)["train_elapsed_s"] == 4.25
    assert row_at(parsed, 6)["train_elapsed_s"] == 11.75  # 4.25 + 1.5 x 5


def test_a_clock_beside_a_counter_within_the_epoch_grows_with_the_steps_across_the_epochs_end(write_log):
    # Tramac/Fast-SCNN-pytorch train.py: logger.info('Epoch: [%2d/%2d] Iter [%4d/%4d] || Time: %4.4f sec || lr: %.8f
    # || Loss: %.4f' % (epoch, args.epochs, i + 1, iters_per_epoch, time.time() - start_time, ...)) every 10
    # iterations of the run; the batch counter starts again each epoch, the clock does not
    lines = []
    clock = 5032.1107
    for epoch, batches in ((9, range(1447, 1488, 10)), (10, range(10, 41, 10))):
        for i in batches:
            lines.append(
                f"Epoch: [{epoch:2d}/200] Iter [{i:4d}/1487] || Time: {clock:4.4f} sec || lr: 0.00955 || "
                f"Loss: 1.{i % 97:04d}"
            )
            clock += 3.4
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1447, 1457, 1467, 1477, 1487, 10, 20, 30, 40]
    assert row_at(parsed, 1)["train_elapsed_s"] == 5032.1107
    assert row_at(parsed, 6)["train_elapsed_s"] == 5049.1107  # 5032.1107 + 5 x 3.4
    assert "step_time_s" not in parsed.rows or parsed.rows["step_time_s"].isna().all()


def test_a_step_times_average_that_creeps_up_stays_the_step_time(write_log):
    # detectron2/utils/events.py CommonMetricPrinter: " {eta}iter: {iter}  {losses}  time: {time:.4f}  data_time:
    # {data_time:.4f}  lr: {lr}  max_mem: {memory:.0f}M" behind "[%m/%d %H:%M:%S d2.utils.events]: ", the time a
    # global average over the run, rising by a ten-thousandth a line
    lines = [
        f"[08/14 10:2{i}:13 d2.utils.events]:  eta: 0:43:51  iter: {5019 + 20 * i}  total_loss: 0.4{i}72  "
        f"time: 0.{4464 + i}  data_time: 0.0375  lr: 0.0003  max_mem: 1962M"
        for i in range(5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5019, 5039, 5059, 5079, 5099]
    assert row_at(parsed, 1)["step_time_s"] == 0.4464 and row_at(parsed, 5)["step_time_s"] == 0.4468


def test_a_projected_end_after_the_counter_is_no_clock_of_the_line(write_log):
    # jiwoon-ahn/irn step/train_cam.py: print('step:%5d/%5d' % (step - 1, max_step), 'loss:%.4f' % ..., 'imps:%.1f'
    # % ..., 'lr: %.4f' % ..., 'etc:%s' % (timer.str_estimated_complete()), flush=True), the estimated time of
    # completion (misc/pyutils.py Timer: time.ctime(self.est_finish)); here a run that slows, its projection later
    ends = ["Mon Mar  2 10:15:00 2020", "Mon Mar  2 10:16:30 2020", "Mon Mar  2 10:18:00 2020"]
    lines = [
        f"step:{100 * i:5d}/ 2000 loss:0.{5 - i}000 imps:30.{i} lr: 0.0500 etc:{end}"
        for i, end in enumerate(ends)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows
    assert steps_of(parsed) == [0, 100, 200]
    assert list(rows["loss"]) == [0.5, 0.4, 0.3]
    assert "timestamp" not in rows or rows["timestamp"].isna().all()
    assert [c for c in rows if c.startswith("x_")] == ["x_imps"]  # the date's day is no value of its own


def test_a_bar_beside_a_counter_of_the_same_total_times_its_steps(write_log):
    # meta-llama/llama-recipes src/llama_recipes/utils/train_utils.py: pbar = tqdm(desc=f"Training Epoch: {epoch+1}",
    # total=len(train_dataloader) // gradient_accumulation_steps), pbar.update(1) per optimizer step and
    # pbar.set_description(f"Training Epoch: {epoch+1}/{train_config.num_epochs}, step {step}/{len(train_dataloader)}
    # completed (loss: {loss.detach().float()})"); tqdm's own '{n}/{total} [{elapsed}<{remaining}, {rate}s/it]'
    rates = ["2.31", "2.25", "2.28"]
    lines = [
        f"Training Epoch: 1/2, step {s}/60 completed (loss: 1.{7 - s % 10}5): {100 * (s + 1) // 60:3d}%|"
        f"{'█' * (s // 6)}{' ' * (10 - s // 6)}| {s + 1}/60 [00:{20 + 2 * s}<01:50, {rate}s/it]"
        for s, rate in zip((10, 11, 12), rates, strict=True)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 11, 12]
    assert row_at(parsed, 1)["step_time_s"] == 2.31  # the bar's rate, as tqdm prints it for the first row
    assert parsed.rows["step_time_s"].notna().all()
    assert "x_s_it" not in parsed.rows


def test_a_time_that_grows_with_the_updates_over_four_lines_is_the_time_since_training_began(write_log):
    # facebookresearch/ParlAI parlai/scripts/train_model.py TrainLoop.log (2019-2020): logs.append('time:{}s'.format(
    # np.floor(self.train_time.time()))), 'total_exs:{}', 'epochs:{}', then print("[ {} ] {}".format(" ".join(logs),
    # train_report)), the report's 'total_train_updates' the optimizer's updates so far (TorchAgent.report)
    updates = [15, 17, 16, 17]
    lines = []
    for k, u in enumerate(updates):
        done = sum(updates[: k + 1])
        lines.append(
            f"[ time:{20.0 * (k + 1) + k}s total_exs:{32 * done} epochs:{round(32 * done / 50000, 2)} ] "
            f"{{'exs': {32 * u}, 'mean_loss': {8.25 - k}, 'gnorm': 95.5, 'updates': {u}, "
            f"'lr': {2.5e-05 * (k + 1):.3g}, 'total_train_updates': {done}}}"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [15, 32, 48, 65]
    assert row_at(parsed, 1)["train_elapsed_s"] == 20.0 and row_at(parsed, 4)["train_elapsed_s"] == 83.0
    assert row_at(parsed, 2)["loss"] == 7.25


def test_a_time_its_key_says_covers_many_steps_is_read_per_step(write_log):
    # NVIDIA-Merlin/HugeCTR (v2 session): "Iter: %d Time(%d iters): %fs Loss: %f lr:%f", printed every display
    # interval with the seconds that interval took
    lines = [
        f"[02d07h54m{40 + i}s][HUGECTR][INFO]: Iter: {1000 * (i + 1)} Time(1000 iters): {5.3 + i / 10:.6f}s "
        f"Loss: {0.14 - i / 100:.6f} lr:9.003000"
        for i in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000, 4000]
    # 5.4 s over 1000 iterations: 5.4 ms a step, not 1000 s (the bracket's count) nor 5.4 s
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(5.4 / 1000, rel=1e-12)
    assert row_at(parsed, 2)["loss"] == 0.13


def test_a_time_over_the_steps_its_own_line_counts_is_read_per_step(write_log):
    # google/trax trax/supervised/training.py (7c189c2c) Loop.run: self._log_step('Ran %d train steps in %0.2f
    # secs' % (n_steps, elapsed_time)) with _log_step's 'Step % 6d: %s', then log_summary's 'Step % 6d: %s %s |
    # %s' lines of the train and eval metrics; n_steps is the steps since the last report, which varies (the
    # first report covers step 1 alone, the next 99)
    blocks = [(1, 1, 12.00, 9.5), (100, 99, 49.50, 7.25), (200, 100, 30.00, 5.5), (300, 100, 25.00, 4.75)]
    lines = []
    for step, ran, secs, loss in blocks:
        lines += [
            "",
            f"Step {step:6d}: Ran {ran} train steps in {secs:0.2f} secs",
            f"Step {step:6d}: train CrossEntropyLossWithLogSoftmax |  {loss:.8f}",
            f"Step {step:6d}: eval  CrossEntropyLossWithLogSoftmax |  {loss + 0.5:.8f}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    steps = parsed.rows[parsed.rows["kind"] == "step"]
    assert steps_of(parsed) == [1, 100, 200, 300]
    # 12 s for 1 step, 49.5 s for 99, 30 s for 100, 25 s for 100
    assert steps["step_time_s"].tolist() == pytest.approx([12.0, 0.5, 0.3, 0.25], rel=1e-12)
    assert steps["loss"].tolist() == [9.5, 7.25, 5.5, 4.75]


def test_a_time_whose_bracket_counts_a_varying_number_of_steps_is_read_per_line(write_log):
    # MuggleWang/CosFace_pytorch main.py train(): 'Train Epoch: {} [{}/{} ({:.0f}%)]{}, Loss: {:.6f}, Elapsed time:
    # {:.4f}s({} iters)' with the seconds since the last print and the iterations they covered: a print that
    # follows an epoch's end covers fewer than the interval
    rows = [(100, 100, 25.0), (200, 100, 20.0), (250, 50, 12.5), (350, 100, 40.0)]
    lines = [
        f"2019-09-19 14:{39 + i:02d}:57 Train Epoch: 1 [{512 * it}/490871 ({100 * 512 * it // 490871}%)]{it}, "
        f"Loss: {25 - i / 2:.6f}, Elapsed time: {secs:.4f}s({n} iters) Margin: 0.4000, Scale: 30.00"
        for i, (it, n, secs) in enumerate(rows)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    steps = parsed.rows[parsed.rows["kind"] == "step"]
    assert steps_of(parsed) == [100, 200, 250, 350]
    assert steps["step_time_s"].tolist() == pytest.approx([0.25, 0.2, 0.25, 0.4], rel=1e-12)


@pytest.mark.parametrize(
    ("fmt", "unit"),
    [
        # karpathy/char-rnn train.lua: string.format("%d/%d (epoch %.3f), train_loss = %6.8f, grad/param norm =
        # %6.4e, time/batch = %.4fs", i, iterations, epoch, train_loss, ..., time)
        (
            "{i}/9500 (epoch 0.{i:03d}), train_loss = {loss:.8f}, grad/param norm = 4.7779e-02, time/batch = {t:.4f}s",
            1.0,
        ),
        # sherjilozair/char-rnn-tensorflow train.py: "{}/{} (epoch {}), train_loss = {:.3f}, time/batch = {:.3f}"
        # (end - start in seconds, no unit printed)
        ("{i}/4000 (epoch 0), train_loss = {loss:.3f}, time/batch = {t:.3f}", 1.0),
        # pytorch/examples word_language_model/main.py: '| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | ms/batch
        # {:5.2f} | loss {:5.2f} | ppl {:8.2f}'
        (
            "| epoch   1 | {i:5d}/ 2983 batches | lr 20.00 | ms/batch {t:5.2f} | loss {loss:5.2f} | ppl 80.00",
            1e-3,
        ),
    ],
    ids=["char-rnn", "char-rnn-tensorflow", "word-language-model"],
)
def test_a_time_per_batch_key_is_the_step_time(write_log, fmt, unit):
    times = [0.25, 0.5, 0.75, 0.2]
    lines = [fmt.format(i=54 + k, loss=3.25 + k / 100, t=t) for k, t in enumerate(times)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [54, 55, 56, 57]
    assert [row_at(parsed, k + 1)["step_time_s"] for k in range(4)] == pytest.approx(
        [t * unit for t in times], rel=1e-9
    )


def test_a_duration_under_a_step_times_key_that_goes_up_and_down_is_the_step_time(write_log):
    # ggml-org/llama.cpp common/train.cpp train_opt_callback: printf("%s: iter=%6d sample=%zu/%zu sched=%f loss=%f",
    # ...), then " dt=" print_duration(millis_per_iter) " eta=" print_duration(remaining_millis) as %02d:%02d:%02d,
    # then " |" and an improvement bar of '-' ending in '>'
    dts = [(4, 59), (4, 57), (5, 2), (4, 58), (4, 54)]
    lines = [
        f"train_opt_callback: iter={70 + k:6d} sample={72 + k}/5608 sched={0.7 + k / 100:f} loss={4.5 - k / 4:f} "
        f"dt=00:{m:02d}:{s:02d} eta=03:{29 - 5 * k:02d}:33 |{'-' * (3 * k)}>"
        for k, (m, s) in enumerate(dts)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [70, 71, 72, 73, 74]
    assert [row_at(parsed, k + 1)["step_time_s"] for k in range(5)] == [60.0 * m + s for m, s in dts]
    # eta, the time left, falls line after line: no clock of the run, no step time
    assert "train_elapsed_s" not in parsed.rows or parsed.rows["train_elapsed_s"].isna().all()


def test_a_config_echo_with_an_evaluation_word_among_its_values_is_no_evaluation(write_log):
    # ultralytics/engine/trainer.py echoes its arguments once, "engine/trainer: agnostic_nms=False, ..., iou=0.7, ...,
    # split=val, ...": `val` is a value there and `iou` a setting, not the line's own word and metric
    lines = [
        "engine/trainer: agnostic_nms=False, amp=False, box=7.5, cls=0.5, epochs=10, iou=0.7, lr0=0.01, split=val, "
        "val=True, warmup_epochs=3.0"
    ]
    lines += [f"step {s}/100 | loss {2.5 - s / 100:.4f} | lr 0.0100" for s in range(1, 6)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert evals(parsed) == []


@pytest.mark.parametrize(
    ("steps", "evaluation", "eval_loss"),
    [
        # flairNLP/flair flair/trainers/trainer.py (0.11): log.info(f"epoch {epoch} - iter {batch_no + 1}/
        # {total_number_of_batches} - loss {train_loss / seen_batches:.8f} - samples/sec: {...:.2f} - lr: {lr:.6f}"),
        # after the epoch f"DEV : loss {result.loss} - {result.main_score_name} {round(result.main_score, 4)}"
        (
            [
                f"2022-12-13 02:37:{5 + 10 * k:02d},548 epoch 6 - iter {175 * (k + 4)}/1750 - loss "
                f"{0.129 + k / 1e4:.8f} - samples/sec: 71.69 - lr: 0.000033"
                for k in range(4)
            ],
            "2022-12-13 02:38:07,613 DEV : loss 0.17740997672080994 - f1-score (micro avg)  0.65",
            0.17740997672080994,
        ),
        # pytorch/examples mnist/main.py: 'Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}' every log_interval
        # batches, then test(): '\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'
        (
            [
                f"Train Epoch: 1 [{640 * k}/60000 ({round(640 * k / 600)}%)]\tLoss: {2.3 - k / 10:.6f}"
                for k in range(4)
            ],
            "Test set: Average loss: 0.0330, Accuracy: 9897/10000 (99%)",
            0.0330,
        ),
    ],
    ids=["flair", "mnist"],
)
def test_an_evaluation_line_printed_once_after_the_steps_is_an_evaluation(
    write_log, steps, evaluation, eval_loss
):
    parsed = frame(write_log("\n".join([*steps, evaluation]) + "\n"))
    assert len(steps_of(parsed)) == 4
    found = evals(parsed)
    assert [e["line"] for e in found] == [5]
    assert found[0]["eval_loss"] == eval_loss


def test_a_day_and_time_glued_with_their_units_is_the_lines_clock(write_log):
    # NVIDIA-Merlin/HugeCTR include/common.hpp MESSAGE_: "[" setw(2) tm_mday "d" setw(2) tm_hour "h" setw(2) tm_min
    # "m" setw(2) tm_sec "s" "][HUGECTR][INFO]: " msg, the day of the month and the local time, no month; the
    # session's "Iter: %d Time(%d iters): %fs Loss: %f lr:%f"
    stamps = [(2, 23, 59, 43), (2, 23, 59, 55), (3, 0, 0, 1), (3, 0, 0, 6)]
    lines = [
        f"[{d:02d}d{h:02d}h{m:02d}m{s:02d}s][HUGECTR][INFO]: Iter: {1000 * (k + 3)} Time(1000 iters): 5.381177s "
        f"Loss: {0.1335 - k / 1000:.6f} lr:9.003000"
        for k, (d, h, m, s) in enumerate(stamps)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [3000, 4000, 5000, 6000]
    t = [row_at(parsed, k + 1)["timestamp"] for k in range(4)]
    # 23:59:55 - 23:59:43; day 3 00:00:01 - day 2 23:59:55; 00:00:06 - 00:00:01
    assert [b - a for a, b in zip(t, t[1:], strict=False)] == [12.0, 6.0, 5.0]


@pytest.mark.parametrize(
    ("iters", "per_step"),
    [
        # every disp_interval = 100 steps: each time covers the 100 steps since the record before (the first's too,
        # at the same stride)
        ([4200, 4300, 4400, 4500, 4600], True),
        # records at uneven strides: how many steps a time covers is not known, it is not read as one
        ([4200, 4300, 4450, 4500, 4700], False),
    ],
    ids=["regular", "uneven"],
)
def test_a_time_that_covers_the_log_interval_is_read_per_step(write_log, iters, per_step):
    # jwyang/faster-rcnn.pytorch trainval_net.py: print("[session %d][epoch %2d][iter %4d/%4d] loss: %.4f, lr:
    # %.2e"), then print("\t\t\tfg/bg=(%d/%d), time cost: %f" % (fg_cnt, bg_cnt, end-start)) with start reset after
    # each print (the seconds of the disp_interval steps since the last), then the loss parts' line
    costs = [27.346884, 27.222347, 27.328589, 27.252010, 27.405780]
    lines = []
    for s, cost, fg in zip(iters, costs, [51, 36, 39, 64, 13], strict=True):
        lines += [
            f"[session 1][epoch  1][iter {s:4d}/13464] loss: 0.4{s // 100 % 10}36, lr: 1.00e-03",
            f"\t\t\tfg/bg=({fg}/{256 - fg}), time cost: {cost:f}",
            "\t\t\trpn_cls: 0.0148, rpn_box: 0.0632, rcnn_cls: 0.0789, rcnn_box 0.1352",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == iters
    rows = parsed.rows
    if per_step:
        assert list(rows["step_time_s"]) == pytest.approx([c / 100 for c in costs], rel=1e-9)
    else:
        assert "step_time_s" not in rows or rows["step_time_s"].isna().all()
        assert list(rows["x_time_cost"]) == costs  # kept as printed


def test_a_rate_on_an_epochs_reports_with_no_step_counter_is_the_whole_jobs(write_log):
    # KichangKim/DeepDanbooru deepdanbooru/commands/train_project.py: every few batches f"Epoch[{int(used_epoch)}]
    # Loss={average_loss:.6f}, P=..., R=..., F1=..., Speed = {samples_per_seconds:.1f} samples/s, {progress:.2f} %,
    # ETA = {eta_datetime_string}": the epoch repeats line after line, no process prints them apart
    speeds = [7.2, 8.7, 7.8, 8.5, 9.0]
    lines = [
        f"Epoch[1] Loss=0.00{9800 + k},  P=0.625461, R=0.082422, F1=0.145650, Speed = {v:.1f} samples/s, "
        f"99.{88 + k} %, ETA = 2021-09-12 16:5{k}:43"
        for k, v in enumerate(speeds)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [row_at(parsed, k + 1)["samples_per_s"] for k in range(5)] == speeds
    assert row_at(parsed, 5)["loss"] == 0.009804


def test_a_syslog_stamp_leading_the_line_is_its_clock(write_log):
    # a training script run as a systemd service, its output read back with `journalctl -o short` (syslog's
    # "%b %d %H:%M:%S host tag[pid]: message", systemd's journalctl(1) on the short format; rsyslog writes the same
    # with RSYSLOG_TraditionalFileFormat): the stamp has no year
    stamps = ["Dec 31 23:59:50", "Dec 31 23:59:58", "Dec 31 23:59:59"]
    lines = [
        f"{t} gpu-node-1 python3[4242]: step {10 * (k + 1)}/500 | loss {2.5 - k / 10:.4f} | lr 3.0e-04"
        for k, t in enumerate(stamps)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30]
    t = [row_at(parsed, k + 1)["timestamp"] for k in range(3)]
    assert [b - a for a, b in zip(t, t[1:], strict=False)] == [8.0, 1.0]  # 23:59:58 - 23:59:50; :59 - :58


def test_steps_a_second_and_an_elapsed_clock_in_hours_minutes_and_seconds(write_log):
    # google-research/electra util/training_utils.py ETAHook.log: "{:}/{:} = {:.1f}%".format(step, n_steps, pct) +
    # ", SPS: {:.1f}".format(1 / time_per_step) + ", ELAP: " + secs_to_str(elapsed) (H:MM:SS) + ", ETA: " + ... +
    # " - loss: {:.4f}"
    lines = [
        f"{100 * i}/1000 = {10 * i:.1f}%, SPS: 0.4, ELAP: 1:0{i}:30, ETA: 2:0{9 - i}:00 - loss: {5 - i / 10:.4f}"
        for i in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert row_at(parsed, 1)["step_time_s"] == pytest.approx(2.5)  # 1 / 0.4 steps a second
    assert row_at(parsed, 1)["train_elapsed_s"] == 3600 + 60 + 30
    assert row_at(parsed, 5)["train_elapsed_s"] == 3600 + 5 * 60 + 30
    assert row_at(parsed, 5)["loss"] == 4.5


def test_a_rate_of_steps_named_sps_after_its_value(write_log):
    # facebookresearch/torchbeast torchbeast/monobeast.py train(): logging.info("Steps %i @ %.1f SPS. Loss %f. %s
    # Stats:\n%s", step, sps, total_loss, mean_return, pprint.pformat(stats)) behind its logger's
    # "[%(levelname)s:%(process)d %(module)s:%(lineno)d %(asctime)s] " (the stats dict left out here)
    lines = [
        f"[INFO:4242 monobeast:617 2020-05-01 10:00:{10 * i:02d},000] Steps {4000 * i} @ {400 + i}.0 SPS. "
        f"Loss {2 - i / 10:f}. "
        for i in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [4000, 8000, 12000, 16000]
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(1 / 402)
    assert row_at(parsed, 2)["loss"] == 1.8


def test_keys_spelled_in_units_name_their_quantities(write_log):
    # foundation-model-stack fms/training/plugins.py MetricReporter: print(epoch, step, datetime.now(), to_report)
    # of string values: "loss": f"{:.4f}", "avg_loss", "tok/stp": f"{tokens_seen / steps:,.1f}", "s/stp":
    # f"{time_per_step:,.3f}", "tok/gpu/s": f"{tokens_seen / elapsed / world_size:,.1f}", "gpu_mem_use": "46%"
    lines = [
        f"0 {10 * i} 2024-03-11 19:5{i}:00.000000 {{'loss': '{8 - i / 4:.4f}', 'avg_loss': '8.1000', "
        f"'tok/stp': '262,144.0', 's/stp': '1.{i}00', 'tok/gpu/s': '2,{i}00.5', 'gpu_mem_use': '40%'}}"
        for i in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    row = row_at(parsed, 3)
    assert row["loss"] == 7.25 and row["step_time_s"] == 1.3
    assert row["tokens_per_s_per_gpu"] == 2300.5 and row["tokens_per_step"] == 262144.0


@pytest.mark.parametrize(
    "key",
    [
        # a GKE FSDP fine-tuning example's PerfLogger: "Step: {} | Time: {:.2f}s | TFLOPs/s/GPU: {:.1f} |
        # Tokens/s/GPU: {} | Loss: {:.4f}"
        "TFLOPs/s/GPU",
        # NVIDIA-NeMo/Automodel README's benchmark column "Model TFLOPs/sec/GPU"
        "TFLOPs/sec/GPU",
        # verl trainer metric names "Actual TFLOPs/s/GPU" (the plural s of a count of FLOPs, then a rate per device)
        "TFLOPS/s/device",
    ],
)
def test_a_flop_rate_spelled_in_units_is_the_devices_reported_tflops(write_log, key):
    lines = [
        f"Step: {i} | Time: 14.5{i}s | {key}: 95{i}.5 | Tokens/s/GPU: 225{i} | Loss: 0.{9 - i}000"
        for i in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    row = row_at(parsed, 3)
    assert row["reported_tflops_per_gpu"] == 953.5 and row["tokens_per_s_per_gpu"] == 2253
    assert row["loss"] == 0.6 and row["step_time_s"] == 14.53


def test_a_time_the_stamps_show_covers_the_log_interval_is_read_per_step(write_log):
    # microsoft/DeBERTa DeBERTa/training/trainer.py TrainerState.report_state: "[{}][{:0.1f}%][{:0.2f}h] Steps={},
    # loss={}, examples={}, loss_scale={:0.1f}, {:0.1f}s" with end - start, start reset at each report (every 100
    # steps here), behind its logger's "%(asctime)s|%(levelname)s|%(name)s|%(process)02d| " (datefmt %m/%d/%Y %H:%M:%S)
    lines = ["04/28/2023 10:00:00|INFO|RTD|00|   Training batch size = 64"]
    for i in range(1, 5):
        lines.append(
            f"04/28/2023 10:{10 * i}:00|INFO|RTD|00| [D][0.0%][12.5{i}h] Steps={100 * i}, loss=3.{9 - i}, "
            f"examples={6400 * i}, loss_scale=4096.0, 60{i}.0s"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    # 10 minutes between the stamps of consecutive reports, 100 steps apart: 602.0 s covers 100 steps
    assert row_at(parsed, 3)["step_time_s"] == pytest.approx(6.02)
    # (the first report's interval: the same 100 steps)
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(6.01)


def test_a_time_the_stamps_show_is_one_steps_stays_as_printed(write_log):
    # Barber0/LLM-pretrain's loop print "ep: {}, batch: {}, time: {:.2f}, ntokens: {:.2f}/{}, loss: {}" (every 20
    # batches) behind Python logging's "%(asctime)s - %(levelname)s - %(message)s": a time the stamps show to be one
    # step's share of the 20 (8.5 s between records, 0.42 s printed) is a step's; with no stamps it stays as printed
    lines = [
        f"2024-01-01 10:00:{8 * i:02d}.{i}00 - INFO - ep: 0, batch: {20 * i}, time: 0.4{i}, ntokens: 485.20/513, "
        f"loss: {11 - i / 8}"
        for i in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60, 80, 100]
    assert row_at(parsed, 3)["step_time_s"] == 0.43
    unstamped = [line.split(" - INFO - ")[1] for line in lines]
    parsed = frame(write_log("\n".join(unstamped) + "\n", "plain.log"))
    assert row_at(parsed, 3)["step_time_s"] == 0.43


def test_a_time_since_a_start_that_does_not_rise_covers_the_steps_since_the_record_before(write_log):
    # jax-ml/jax-ai-stack docs/source/JAX_for_LLM_pretraining.ipynb: every 200 steps print(f"\n\nStep {step + 1},
    # Loss: {train_metrics['loss']}, Elapsed Time: {elapsed_time:.2f} seconds") with elapsed_time = time.time() -
    # start_time, then start_time = time.time(): the seconds of the 200 steps since the last print
    elapsed = [103.58, 69.78, 84.69, 76.64, 80.74]
    lines = [
        f"Step {200 * (i + 2)}, Loss: {2.8 - i / 10}, Elapsed Time: {t:.2f} seconds"
        for i, t in enumerate(elapsed)
    ]
    parsed = frame(write_log("\n\n".join(lines) + "\n"))
    assert steps_of(parsed) == [400, 600, 800, 1000, 1200]
    assert row_at(parsed, 1)["step_time_s"] == pytest.approx(103.58 / 200)
    assert row_at(parsed, 5)["step_time_s"] == pytest.approx(84.69 / 200)  # (a blank line between records)
    # a key that says only that time was taken, with a time unit, reads the same way (a TensorFlow
    # MirroredStrategy script: f"..., Time taken: {epoch_time:.2f}s")
    taken = [12.5, 11.75, 13.25, 12.0, 12.75]
    lines = [
        f"Step {50 * (i + 1)}, Average Loss: {2.5 - i / 10:.4f}, Time taken: {t:.2f}s"
        for i, t in enumerate(taken)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n", "taken.log"))
    assert steps_of(parsed) == [50, 100, 150, 200, 250]
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(11.75 / 50)
    # ... and `consume` (zhaibowen/Retriever-VL main.py: f"step {iter_num}, loss {loss:.3f}, lr: {lr:.7f}, consume
    # {time.time() - t0:.2f}s" every 100 steps, after its config's `gpu_num: 3`, the processes it spawns)
    consumed = [333.44, 275.34, 273.77, 272.9, 274.1]
    lines = ["\tgpu_num: 3"] + [
        f"step {100 * (i + 1)}, loss {3.358 - i / 10:.3f}, lr: 0.0000742, consume {t:.2f}s"
        for i, t in enumerate(consumed)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n", "consume.log"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(3.3344)
    assert [f.value for f in parsed.facts["world_size"]] == [3]


def test_one_steps_time_printed_at_the_log_interval_is_never_divided(write_log):
    # karpathy/nanoGPT train.py: every log_interval (10) iterations print(f"iter {iter_num}: loss {lossf:.4f}, time
    # {dt*1000:.2f}ms, mfu {running_mfu*100:.2f}%"), dt the time of the last iteration alone (t0 reset every one)
    dts = [412.5, 398.25, 420.75, 401.0, 415.5]
    lines = [
        f"iter {10 * i}: loss {3.5 - i / 10:.4f}, time {dt:.2f}ms, mfu 31.2{i}%" for i, dt in enumerate(dts)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 10, 20, 30, 40]
    assert row_at(parsed, 3)["step_time_s"] == pytest.approx(0.42075)
    # a key that names the step (`step_time`), every 50 steps: the step's own time
    lines = [
        f"step {50 * i} | loss {3 - i / 10:.3f} | step_time {dt / 1000:.5f}s" for i, dt in enumerate(dts, 1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n", "keyed.log"))
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(0.39825)
    # an elapsed time that rises as a clock does is the time since training began (jlin816/jax-sandbox README:
    # "step 100 | elapsed 0.90m | loss: 3.16 | val: 2.97"), no step's
    lines = [f"step {100 * i} | elapsed {0.14 + 0.76 * i:.2f}m | loss: 3.{20 - i}" for i in range(5)]
    parsed = frame(write_log("\n".join(lines) + "\n", "clock.log"))
    assert row_at(parsed, 2)["train_elapsed_s"] == pytest.approx(0.90 * 60)
    assert "step_time_s" not in parsed.rows or row_at(parsed, 2)["step_time_s"] != pytest.approx(
        0.90 * 60 / 100
    )


def test_stamps_show_a_sinks_time_across_a_gap_in_the_records(write_log):
    # mindformers core/callback/callback.py MFLossMonitor.print_output_info: "Epoch:[%3d/%3d], step:[%5d/%5d], loss:[
    # %5.3f/%5.3f], time:%5.3f ms, lr:%s, overflow cond: %s, loss_scale: %s" once per sink of 4 steps, the sink's time,
    # behind its logger's "[INFO] %(asctime)s [%(pathname)s:%(lineno)d] %(funcName)s: "; the lines between step 8
    # and 116 are left out, as a log cut or an excerpt's elision leaves them
    head = "[INFO] 2023-07-11 10:48:{} [callback.py:269] print_output_info: Epoch:[  1/  1], step:[{:5d}/  125], "
    rest = "loss:[2.{0}00/2.{0}00], time:{1} ms, lr:[0.], overflow cond: False, loss_scale: 16384.0"
    lines = [
        head.format("01,000", 4) + rest.format(1, "2010.500"),
        head.format("03,000", 8) + rest.format(2, "1992.250"),
        head.format("54,000", 116) + rest.format(3, "1950.750"),
        head.format("56,000", 120) + rest.format(4, "1996.000"),
        head.format("58,000", 124) + rest.format(5, "2004.000"),
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [4, 8, 116, 120, 124]
    # two seconds between the stamps of records 4 steps apart, about 2000 ms printed: the sink's 4 steps
    assert row_at(parsed, 4)["step_time_s"] == pytest.approx(1.99600 / 4)
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(1.99225 / 4)
    # where a record's time is its own gap's at another stride too, the stride varies: how many steps each covers
    # is not known from one scale, and the times stay as printed
    varied = [
        *lines[:2],
        head.format("05,000", 12) + rest.format(6, "1996.000"),
        head.format("13,000", 120) + rest.format(4, "8001.000"),  # 8 s after step 12, 108 steps on
        head.format("15,000", 124) + rest.format(5, "2004.000"),
    ]
    parsed = frame(write_log("\n".join(varied) + "\n", "varied.log"))
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(1.99225)


def test_a_per_step_time_wins_over_a_longer_time_of_a_wider_span(write_log):
    # MindSpore mindspore/train/callback/_time_monitor.py TimeMonitor: "epoch time: {:5.3f} ms, per step time:
    # {:5.3f} ms"; as one line with its counter (a MindSpore example's own print):
    # f"Epoch:[{cur_epoch:>3d}/{epochs:>3d}], epoch time:{epoch_cost:.2f}s, per step time:{per_step_time*1000:.2f}ms, "
    jitter = [0.25, -0.5, 0.75, -0.25, 0.5]
    lines = [
        f"Epoch:[{e:>3d}/ 10], epoch time:{123.5 + 3 * j:.2f}s, per step time:{67.75 + j:.2f}ms, "
        for e, j in enumerate(jitter, 1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert row_at(parsed, 3)["step_time_s"] == pytest.approx(0.0685)
    # the per step time alone on a line (the MindSpore model zoo's YOLO: "epoch[{}], iter[{}], loss:{}, fps:{}
    # imgs/sec, lr:{}, per step time: {}ms") is the step's
    lines = [
        f"epoch[{e}], iter[{10 * e}], loss:{700 - e:.6f}, fps:18{e}.50 imgs/sec, lr:1.0e-05, per step time: {1411.5 + j}ms"
        for e, j in enumerate(jitter, 1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n", "yolo.log"))
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(1.411)


def test_a_number_in_the_counters_brackets_that_grows_as_a_clock_is_the_time_since_training_began(write_log):
    # minimaxir/gpt-2-simple gpt_2.py finetune() (from nshepperd/gpt-2 train.py): print('[{counter} | {time:2.2f}]
    # loss={loss:2.2f} avg={avg:2.2f}'.format(counter=counter, time=time.time() - start_time, ...)) every 10 steps
    lines = [f"[{10 * i} | {16.5 * i + 3:.2f}] loss={3 - i / 10:.2f} avg=2.90" for i in range(1, 6)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40, 50]
    assert row_at(parsed, 1)["train_elapsed_s"] == 19.5 and row_at(parsed, 5)["train_elapsed_s"] == 85.5
    assert row_at(parsed, 2)["loss"] == 2.8
    # a number in the brackets that goes up and down is no clock: not known what it is
    lines = [f"[{10 * i} | {0.5 + (i % 2) / 10:.2f}] loss={3 - i / 10:.2f} avg=2.90" for i in range(1, 6)]
    parsed = frame(write_log("\n".join(lines) + "\n", "other.log"))
    assert "train_elapsed_s" not in parsed.rows or parsed.rows["train_elapsed_s"].isna().all()


def test_the_steps_planned_stated_before_the_steps_are_their_counters_total(write_log):
    # microsoft/DeBERTa DeBERTa/apps/run.py train_model: logger.info(f"  Num steps = {num_train_steps}") before the
    # training's reports, TrainerState.report_state "[{}][{:0.1f}%][{:0.2f}h] Steps={}, loss={}, ..." (no total)
    head = ["04/28/2023 10:00:00|INFO|RTD|00|   Training batch size = 64"]
    steps = [
        f"04/28/2023 10:0{i}:00|INFO|RTD|00| [G][0.0%][1.5{i}h] Steps={100 * i}, loss=6.{9 - i}, examples={64 * i}"
        for i in range(1, 5)
    ]
    stated = "04/28/2023 10:00:00|INFO|RTD|00|   Num steps = {}"
    parsed = frame(write_log("\n".join([*head, stated.format(2500), *steps]) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400]
    assert row_at(parsed, 3)["progress_total"] == 2500 and row_at(parsed, 6)["progress_total"] == 2500
    # a total the steps pass is not this counter's
    parsed = frame(write_log("\n".join([*head, stated.format(250), *steps]) + "\n", "passed.log"))
    assert "progress_total" not in parsed.rows or parsed.rows["progress_total"].isna().all()


def test_the_training_sentence_and_the_loaders_length_give_the_counters_total(write_log):
    # a custom loop: print(f"Training for {max_steps} steps ...") before f"  step {step:5d} | train {loss:.3f} | ..."
    lines = ["Training for 3000 steps ..."] + [
        f"  step {s:5d} | train {3.5 - s / 1000:.3f} | val {3.6 - s / 1000:.3f} | {s // 10}s elapsed"
        for s in (1, 250, 500, 750)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 250, 500, 750]
    assert row_at(parsed, 2)["progress_total"] == 3000 and row_at(parsed, 5)["progress_total"] == 3000
    # a counter within an epoch counts to the loader's length the script printed before its loop
    stamp = "2025-06-18 09:14:0{} INFO     "
    lines = [stamp.format(0) + "train_loader_len: 550"] + [
        stamp.format(b + 1) + f"Epoch [0], Batch [{100 * b}], Loss: 0.0{8 - b}45" for b in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n", "loader.log"))
    assert steps_of(parsed) == [0, 100, 200, 300]
    assert row_at(parsed, 2)["progress_total"] == 550 and row_at(parsed, 5)["progress_total"] == 550


def test_a_phase_planned_again_and_again_is_no_plan_of_the_runs_counter(tmp_path):
    # danijar/dreamer (TF2): print(f'Training for {steps} steps.') before each training phase, the metrics line
    # `[5000] return 12.3 / length 1000 / ...` counted in environment steps, far past the phase's 100
    lines = ["Simulating agent for 4995000 steps."]
    for i in range(1, 5):
        lines += [
            "Training for 100 steps.",
            f"[{5000 * i}] model_loss {60 - i}.1 / value_loss {1 + i / 10:.1f} / fps {40 + i}.0",
        ]
    path = tmp_path / "dreamer.log"
    path.write_text("\n".join(lines) + "\n")
    a = api.analyze(str(path))
    assert a.summary["status_detail"]["planned_steps"] is None
    assert a.summary["status"] is None


@pytest.mark.parametrize(
    "fmt",
    [
        # MuggleWang/CosFace_pytorch main.py train() and its forks: 'Train Epoch: {} [{}/{} ({:.0f}%)]{}, Loss:
        # {:.10f}, lr: {:.3e}, Elapsed time: {:.4f}s({} iters)' with the seconds since the last print and
        # args.log_interval
        "Train Epoch: 1 [{b}/2000 ({p}%)]{b}, Loss: {x:.10f}, lr: 1.000e-01, Elapsed time: {t:.4f}s(50 iters)",
        # the same trainer with a KL term: '..., totalLoss:{:.5f}, Loss:{:.5f}, kl:{:.5f}, Time: {:.1f}s({} iters)'
        "Train Epoch: 1 [{b}/2000 ({p}%)]{b}, totalLoss:{x:.5f}, Loss:{x:.5f}, kl:0.01000, Time: {t:.1f}s(50 iters)",
    ],
)
def test_a_time_printed_with_the_steps_it_covers_after_it_is_read_per_step(write_log, fmt):
    times = [60.5, 55.0, 62.5, 58.0, 61.0]
    lines = [fmt.format(b=50 * i, p=i, x=9 - i / 4, t=t) for i, t in enumerate(times, 1)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [50, 100, 150, 200, 250]
    assert row_at(parsed, 2)["step_time_s"] == pytest.approx(55.0 / 50)
    assert row_at(parsed, 5)["step_time_s"] == pytest.approx(61.0 / 50)


@pytest.mark.parametrize(
    "fmt",
    [
        # karpathy/nn-zero-to-hero lectures/makemore/makemore_part5_cnn1.ipynb: print(f'{i:7d}/{max_steps:7d}:
        # {loss.item():.4f}') (the step, the steps planned, the minibatch's loss)
        "{i:7d}/{total:7d}: {loss:.4f}",
        # pytorch/tutorials beginner_source/examples_autograd/polynomial_autograd.py: if t % 100 == 99:
        # print(t, loss.item())
        "{i} {loss}",
        # a counter named by its word, the loss after a colon (print(f'Epoch {epoch}: {loss.item():.4f}'))
        "Epoch {i}: {loss:.4f}",
    ],
)
def test_the_one_unnamed_fraction_beside_a_rising_counter_is_the_loss(write_log, fmt):
    losses = [3.3167, 2.0576, 1.7736, 1.8555]
    lines = [fmt.format(i=1000 * k, total=20000, loss=loss) for k, loss in enumerate(losses)]
    log = write_log("\n".join(lines) + "\n")
    parsed = frame(log)
    assert parsed.format == "generic"
    assert steps_of(parsed) == [0, 1000, 2000, 3000]
    assert list(parsed.rows["loss"]) == losses
    if "total" in fmt:
        assert set(parsed.rows["progress_total"]) == {20000}
    # what the value became is said, with its reason
    keys = api.analyze(log).summary["generic"]["keys"]
    (use,) = [u for u in keys.values() if u["column"] == "loss"]
    assert use["rule"] == "values" and "no key" in use["why"]


def test_an_unnamed_loss_printed_as_pythons_str_of_a_small_float(write_log):
    # print(t, loss.item()) (pytorch/tutorials polynomial_autograd.py) late in a fit: str(1e-05) is '1e-05'
    losses = [2.5e-05, 1e-05, 5e-06, 2e-06]
    lines = [f"{99 + 100 * k} {loss}" for k, loss in enumerate(losses)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [99, 199, 299, 399]
    assert list(parsed.rows["loss"]) == losses


def _time_since(seconds: int) -> str:
    # practical-pytorch char-rnn-generation.ipynb time_since: '%dm %ds' % (m, s) of the seconds since the start
    return f"{seconds // 60}m {seconds % 60}s"


@pytest.mark.parametrize(
    "fmt",
    [
        # spro/practical-pytorch char-rnn-generation/char-rnn-generation.ipynb: every print_every iterations
        # print('[%s (%d %d%%) %.4f]' % (time_since(start), epoch, epoch / n_epochs * 100, loss)), then
        # print(evaluate('Wh', 100), '\n') (a sample of generated text)
        "[{since} ({i} {pct}%) {loss:.4f}]",
        # pytorch/tutorials intermediate_source/seq2seq_translation_tutorial.py: print('%s (%d %d%%) %.4f' %
        # (timeSince(start, iter / n_iters), iter, iter / n_iters * 100, print_loss_avg)); timeSince returns
        # '%s (- %s)' % (asMinutes(s), asMinutes(rs)), the time since the start and the time left
        "{since} (- {left}) ({i} {pct}%) {loss:.4f}",
    ],
)
def test_an_elapsed_clock_and_the_share_of_the_plan_beside_the_unnamed_loss_name_nothing(write_log, fmt):
    # 500 iterations planned, printed every 25
    losses = [2.8012, 2.5410, 2.4137, 2.3921, 2.4410, 2.3012]
    elapsed = [5, 11, 16, 62, 67, 121]
    left = [95, 90, 80, 70, 68, 61]  # (the time left as estimated at each print)
    lines = []
    for k, (loss, t, rest) in enumerate(zip(losses, elapsed, left, strict=True), 1):
        since, to_go = _time_since(t), _time_since(rest)
        head = fmt.format(since=since, left=to_go, i=25 * k, pct=25 * k * 100 // 500, loss=loss)
        lines += [head, f"Whe {k}0 lo, the nigh", ""]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [25, 50, 75, 100, 125, 150]
    assert list(parsed.rows["loss"]) == losses
    assert list(parsed.rows["train_elapsed_s"]) == [5.0, 11.0, 16.0, 62.0, 67.0, 121.0]
    assert set(parsed.rows["progress_total"]) == {500}


def test_a_percentage_that_is_not_the_counters_share_of_a_plan_still_names_its_value(write_log):
    # an accuracy beside the loss (`[0m 5s (25 61%) 2.8012]`, the 61% going up and down): which value is the loss
    # is not said, so the record stays unread
    accuracy = [61, 58, 66, 63]
    lines = [f"[{_time_since(5 * k)} ({25 * k} {a}%) {3 - k / 10:.4f}]" for k, a in enumerate(accuracy, 1)]
    with pytest.raises(UnrecognisedLog):
        frame(write_log("\n".join(lines) + "\n"))


def test_an_unnamed_integer_beside_a_counter_is_no_loss(write_log):
    # a count printed beside the counter (`step 3 42`: which count is not said) stays unread
    lines = [f"{100 * k} {40 + k}" for k in range(1, 5)]
    with pytest.raises(UnrecognisedLog):
        frame(write_log("\n".join(lines) + "\n"))


def test_a_fine_tuners_share_done_peak_memory_and_words_per_second(write_log):
    # mistralai/mistral-finetune finetune/monitoring/metrics_logger.py (1943535d) train_log_msg: " - ".join of
    # f"{name}: {value:>{fmt}}" for step (06), "done (%)" (03.1f: 100 * step / max_steps), loss (.3f), lr (.1e),
    # "peak_alloc_mem (GB)" and "alloc_mem (GB)" (.1f, of torch.cuda.max_memory_allocated() / GB with GB = 1024**3),
    # "words_per_second" and "avg_words_per_second" (.1f: this step's tokens / its seconds) and ETA, behind the
    # logger's "%(asctime)s (UTC) - <elapsed> - train - INFO - "; here max_steps = 40. The step's tokens are this
    # rank's (train.py: n_batch_tokens += x.numel() over its micro-batches): one GPU's rate
    lines = [
        f"2024-05-24 19:0{s}:00 (UTC) - 0:0{s}:00 - train - INFO - step: {s:06} - done (%): {100 * s / 40:03.1f} - "
        f"loss: {1 - s / 10:.3f} - lr: {s * 1e-5:.1e} - peak_alloc_mem (GB): {9 + s / 10:.1f} - alloc_mem (GB): 7.5 - "
        f"words_per_second: {1200 + s / 2:.1f} - avg_words_per_second: 1100.0 - ETA: >2024-05-24 20:00:00"
        for s in (1, 2, 3, 4, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    steps = parsed.rows[parsed.rows["kind"] == "step"]
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert steps["progress_total"].tolist() == [40] * 5  # 2.5% at step 1 .. 12.5% at step 5
    assert steps["memory_gib"].tolist() == [9.1, 9.2, 9.3, 9.4, 9.5]  # GB of 1024**3 bytes: GiB
    assert steps["tokens_per_s_per_gpu"].tolist() == [1200.5, 1201.0, 1201.5, 1202.0, 1202.5]
    assert steps["loss"].tolist() == [0.9, 0.8, 0.7, 0.6, 0.5]


def test_an_abbreviated_peak_allocation_with_its_unit_in_the_key_is_the_memory(tmp_path):
    # misaya-yang/hybrid-rope, the Llama-3-8B LoRA suite's TrainerCallback.on_log: msg = f"[step={state.global_step}]
    # loss={float(loss):.6f} lr={float(lr):.3e}" + f" max_alloc_gb={max_alloc_gb:.2f} max_reserved_gb={...:.2f}" with
    # max_alloc_gb = torch.cuda.max_memory_allocated() / (1024**3): GiB, the run's peak allocation
    lines = ["=== START 2026-02-14 23:50:01 variant=pi ==="]
    lines += [
        f"[step={s}] loss={5 - s / 100:.6f} lr={s * 6e-6:.3e} max_alloc_gb=71.82 max_reserved_gb=81.68"
        for s in (10, 20, 30, 40)
    ]
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    assert list(frame(path).rows["memory_gib"]) == [71.82] * 4


@pytest.mark.parametrize(
    ("text", "epochs"),
    [
        # yunjey/pytorch-tutorial's print ('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}') and its copies: the total
        # after the epoch is the run's planned epochs
        (
            "Epoch [1/3], Step [100/3236], Loss: 3.9948, Perplexity: 54.3140\n"
            "Epoch [1/3], Step [200/3236], Loss: 3.4490, Perplexity: 31.4680\n",
            3,
        ),
        # a VQ-VAE trainer's start-up line (weedge's baby-llm experiments): `with N epochs` states the run's
        (
            "Start training VAE with 50 epochs...\nEpoch 1 complete! \tAverage Loss:  0.1513\n"
            "Epoch 2 complete! \tAverage Loss:  0.0943\nEpoch 3 complete! \tAverage Loss:  0.0811\n",
            50,
        ),
    ],
    ids=["epoch_of_total", "with_n_epochs"],
)
def test_the_planned_epochs_the_log_states(tmp_path, text, epochs):
    path = tmp_path / "train.log"
    path.write_text(text)
    assert api.analyze(str(path)).run.facts["num_epochs"].value == epochs


def test_hours_minutes_and_seconds_written_as_one_word(write_log):
    # nianticlabs/monodepth2 trainer.py log_time: print_string = "epoch {:>3} | batch {:>6} | examples/s: {:5.1f}" +
    # " | loss: {:.5f} | time elapsed: {} | time left: {}", both times by utils.py sec_to_hm_str:
    # "{:02d}h{:02d}m{:02d}s"
    lines = [
        f"epoch   0 | batch {25 * k:>6} | examples/s: {8 + k:5.1f} | loss: 0.5{k}000 | "
        f"time elapsed: 00h0{k}m{10 + k:02d}s | time left: {250 - k}h{10 * k:02d}m08s"
        for k in range(5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 25, 50, 75, 100]
    assert row_at(parsed, 3)["loss"] == 0.52 and row_at(parsed, 3)["samples_per_s"] == 10.0
    assert row_at(parsed, 3)["train_elapsed_s"] == 2 * 60 + 12


def test_a_stamp_with_the_day_before_the_month(write_log):
    # RUCAIBox/RecBole recbole/utils/logger.py init_logger: datefmt "%a %d %b %Y %H:%M:%S"; trainer.py
    # _generate_train_loss_output: "epoch %d training [time: %.2fs, train loss: %.4f]"
    lines = [
        f"Sat 23 Apr 2022 00:3{k}:44 INFO  epoch {22 + k} training [time: 20.5{k}s, train loss: 28.{3 - k}127]"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [22, 23, 24, 25]
    assert row_at(parsed, 2)["timestamp"] - row_at(parsed, 1)["timestamp"] == 60.0
    assert row_at(parsed, 2)["loss"] == 28.2127 and row_at(parsed, 2)["step_time_s"] == 20.51


def test_a_date_and_its_time_printed_as_two_items(write_log):
    # an ORPO trainer's records: `time:2024-03-23, 02:14:26, iters:1000, iters_average_Loss:1.5689, ...`
    lines = [
        f"time:2024-03-23, 02:{14 + 5 * k}:26, iters:{1000 + 500 * k}, iters_average_Loss:1.5{6 - k}89, "
        f"iters_average_Log_Odds:0.1{k}24"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 1500, 2000, 2500]
    assert row_at(parsed, 4)["timestamp"] - row_at(parsed, 1)["timestamp"] == 15 * 60
    assert row_at(parsed, 1)["loss"] == 1.5689


def test_a_bracketed_stage_tag_scopes_the_key_after_it(write_log):
    # epfml/llm-baselines' notebook loop: print(f"{epoch}/{step} [train] loss={loss:.3f} [val] loss={val_loss:.3f},
    # acc={acc:3f} [lr] {lr:.5f}")
    lines = [
        f"0/{2 * k} [train] loss=4.{6 - k}06 [val] loss=4.{4 - k}10, acc=0.3{k}3581 [lr] 0.0000{k + 2}"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 2, 4, 6]
    row = row_at(parsed, 2)
    assert (row["loss"], row["eval_loss"], row["lr"]) == (4.506, 4.31, 3e-5)
    assert not evals(parsed)  # (the validation is the step's own record's)


def test_a_rate_in_thousands(write_log):
    # a pre-training loop's f"step {step:>7} | loss {loss:.4f} | lr {lr:.2e} | grad {norm:.3f} | {tps / 1e3:.1f}k tok/s
    # | mfu {mfu:.2f}%"
    lines = [
        f"step {47700 + 10 * k:>7} | loss 1{k}.4684 | lr 1.79e-04 | grad 0.0{k}5 | 3{k}.4k tok/s | mfu 3{k}.07%"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [47700, 47710, 47720, 47730]
    assert row_at(parsed, 2)["tokens_per_s"] == 31400.0


def test_a_timing_namespace_total_and_a_records_duration_are_step_times(write_log):
    # thinking-machines-lab/tinker-cookbook's metrics.jsonl ("time/train", ..., "time/total": the whole iteration);
    # a speech loop's logger.info(f"Epoch: {epoch}, Avg_loss: {loss:.3f}, Duration: {t:.2f}s, ...")
    jsonl = [
        f'{{"step": {k}, "optim/lr": 4e-05, "time/train": 3{k}.5, "time/save_checkpoint": 2.4, "time/total": 37{k}.25}}'
        for k in range(3)
    ]
    parsed = frame(write_log("\n".join(jsonl) + "\n"))
    assert [row_at(parsed, k + 1)["step_time_s"] for k in range(3)] == [370.25, 371.25, 372.25]
    lines = [
        f"2024-06-20 22:04:3{k},034 - INFO - Epoch: {k + 1}, Avg_loss: 0.{5 - k}19, Duration: {k + 1}.79s, "
        f"Average_precission: 0.3{k}8"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n", name="awe.log"))
    assert steps_of(parsed) == [1, 2, 3, 4] and row_at(parsed, 3)["step_time_s"] == 3.79


def test_keys_in_the_loops_own_language(write_log):
    # a Romanian char-level LM's loop: f"pas {step:5d} | pierdere {loss:.4f} | lr {lr:.2e} | |g| {norm:5.2f} |
    # {elapsed:6.1f}s" and, every 125 steps, f"        -> validare {val:.4f} nats = {bpc:.4f} biti/caracter"
    lines = []
    for k in range(6):
        lines.append(
            f"pas {20 * k:5d} | pierdere {3.6 - k / 2:.4f} | lr 4.00e-03 | |g| {2.9 - k / 10:5.2f} | {3 * k:6.1f}s"
        )
        if k in (2, 4):
            lines.append(f"        -> validare 0.{9 - k}589 nats = 0.8064 biti/caracter")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 20, 40, 60, 80, 100]
    assert row_at(parsed, 1)["loss"] == 3.6 and row_at(parsed, 1)["grad_norm"] == 2.9
    assert len(evals(parsed)) == 2


def test_a_devices_name_before_an_amount_of_memory(write_log):
    # a SmolLM2 pre-training script's markdown log: f"| Step {step:,}/{max_steps:,} | Epoch {epoch} | Loss: {loss:.4f} |
    # LR: {lr:.2e} | GPU: {mem:.1f}GB | - |"
    lines = [
        f"| Step {500 * k:,}/50,000 | Epoch 0 | Loss: {6.2 - k / 10:.4f} | LR: 1.98e-05 | GPU: 6.{k}GB | - |"
        for k in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [500, 1000, 1500, 2000]
    assert row_at(parsed, 2)["memory_gib"] == 6.2  # ("GB" as binary: the printing code is not in view)


def test_a_stamp_to_the_minute_by_dashes_and_a_validations_keys_printed_again(write_log):
    # xingyizhou/CenterNet src/lib/logger.py writes time.strftime('%Y-%m-%d-%H-%M') + ': ' before each line; main.py
    # logger.write('epoch: {} |'.format(epoch)), then '{} {:8f} | '.format(k, v) for each training item and, at a
    # validation epoch, for each of the validation's
    lines = []
    for k in range(4):
        line = f"2019-09-06-0{5 + k}-36: epoch: {4 + k} |loss 0.9{k}4375 | hm_loss 0.70{k}657 | wh_loss 0.718979 | "
        if k == 1:
            line += "loss 0.878701 | hm_loss 0.655641 | wh_loss 0.741875 | "
        lines.append(line)
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [4, 5, 6, 7]
    assert row_at(parsed, 2)["timestamp"] - row_at(parsed, 1)["timestamp"] == 3600.0
    assert (row_at(parsed, 2)["loss"], row_at(parsed, 2)["eval_loss"]) == (0.914375, 0.878701)


@pytest.mark.parametrize("per_step", [False, True])
def test_a_time_whose_rate_times_it_is_the_counts_growth_is_the_intervals(write_log, per_step):
    # a LLaMA-style loop printing every 256 steps: 'Step: {step} steps | ... | Tokens Processed: {n}M ({n}M) |
    # tok/s: {rate} | Time: {t}s', t the seconds since the last print: 157,961 tok/s x 53 s = 8.4M, the 8M
    # the count grew by, so 53 s is 256 steps' time. Printed as one step's time (0.207 s), rate x time x 256 is
    # the growth: read as printed
    rates, times = [157961, 142851, 151200, 149800], [53.0, 58.0, 55.0, 56.0]
    line = "Step: {s} steps   |   Training Loss: {x:.4f}   |   Tokens Processed: {n}M ({n}M)   |   tok/s: {r}   |   Time: {t}s"
    lines = []
    for k, (r, t) in enumerate(zip(rates, times, strict=True), 1):
        shown = f"{t / 256:.4f}" if per_step else f"{t:.0f}"
        lines += [line.format(s=256 * k, x=8 - k / 2, n=8 * k, r=r, t=shown), "----------------"]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [256, 512, 768, 1024]
    got = parsed.rows.loc[parsed.rows["kind"] == "step", "step_time_s"].tolist()
    want = [float(f"{t / 256:.4f}") for t in times] if per_step else [t / 256 for t in times]
    assert got == pytest.approx(want, rel=1e-9)


def test_bare_numbers_are_told_apart_by_their_values_the_loss_its_perplexity_and_the_lr(write_log):
    # RWKV-LM's and RWKV-PEFT's train callback (rwkvt/lightning_train/trainer.py, train_callback) writes a row an
    # epoch with no key at all: f"{epoch} {loss:.6f} {math.exp(loss):.4f} {lr:.8f} {datetime.now()} {epoch}"
    losses, lrs = [2.5, 1.9, 1.4, 1.1, 0.9], [6e-5, 5.5e-5, 5e-5, 4.5e-5, 4.2e-5]
    lines = [
        f"{i} {loss:.6f} {math.exp(loss):.4f} {lr:.8f} 2025-05-27 11:{i:02d}:28.237880 {i}"
        for i, (loss, lr) in enumerate(zip(losses, lrs, strict=True))
    ]
    parsed = frame(write_log("NEW RUN 2025-05-27-10-58-57\n" + "\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4]
    assert [row_at(parsed, k + 2)["loss"] for k in range(5)] == losses
    assert [row_at(parsed, k + 2)["lr"] for k in range(5)] == lrs


@pytest.mark.parametrize("order", ["loss lr", "lr loss"])
def test_a_bare_lr_beside_a_bare_loss_is_the_one_that_holds_steady_below_a_hundredth(write_log, order):
    # print(step, loss.item(), scheduler.get_last_lr()[0]) in either order; the loss jumps about, the lr decays
    losses = [3.2, 2.7, 2.9, 2.4, 2.5, 2.1]
    lrs = [1e-3 * 0.98**k for k in range(6)]
    lines = [
        f"{10 * k} {loss} {lr:.6g}" if order == "loss lr" else f"{10 * k} {lr:.6g} {loss}"
        for k, (loss, lr) in enumerate(zip(losses, lrs, strict=True))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 10, 20, 30, 40, 50]
    assert [row_at(parsed, k + 1)["loss"] for k in range(6)] == losses
    assert [row_at(parsed, k + 1)["lr"] for k in range(6)] == pytest.approx(lrs, rel=1e-5)


def test_two_bare_fractions_that_neither_value_settles_give_no_loss(write_log):
    # `print(epoch, top1, top5)`: two fractions that move together, neither a schedule nor the other's exponential;
    # which one is a loss (if any) is unknown, so none is read as one; the rising first number still counts the rows
    lines = [f"{k} {0.41 + 0.07 * k:.4f} {0.66 + 0.05 * k:.4f}" for k in range(5)]
    rows = frame(write_log("\n".join(lines) + "\n")).rows
    rows = rows[rows["kind"] == "step"]
    assert list(rows["step"]) == [0, 1, 2, 3, 4]
    assert "loss" not in rows or rows["loss"].isna().all()


def test_training_lines_printed_many_times_in_one_epoch_are_steps_whatever_they_evaluate_beside(write_log):
    # MorvanZhou/PyTorch-Tutorial tutorial-contents/402_RNN_classifier.py, every 50 batches of the one epoch:
    # print('Epoch: ', epoch, '| train loss: %.4f' % loss.data.numpy(), '| test accuracy: %.2f' % accuracy)
    losses = [2.3127, 1.1182, 0.9374, 0.6279, 0.8004]
    accuracy = [0.14, 0.56, 0.68, 0.75, 0.75]
    lines = [
        f"Epoch:  0 | train loss: {x:.4f} | test accuracy: {a:.2f}"
        for x, a in zip(losses, accuracy, strict=True)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["line"]) == [1, 2, 3, 4, 5]
    assert list(rows["loss"]) == losses
    assert "step" not in rows or rows["step"].isna().all()  # no counter printed: the analysis numbers them
    assert evals(parsed) == []


def test_training_lines_printed_many_times_in_each_of_several_epochs_are_steps(write_log):
    # the same print with EPOCH = 3 (the tutorial's constant raised): four lines an epoch, the epoch held over
    # each epoch's lines and rising between them, so no line is an epoch's summary
    losses = [2.3127, 1.1182, 0.9374, 0.6279, 0.8004, 0.4411, 0.3902, 0.5213, 0.2987, 0.3121, 0.2544, 0.2013]
    lines = [
        f"Epoch:  {k // 4} | train loss: {x:.4f} | test accuracy: {0.5 + 0.03 * k:.2f}"
        for k, x in enumerate(losses)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["line"]) == list(range(1, 13))
    assert list(rows["loss"]) == losses
    assert list(rows["epoch_index"]) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    assert evals(parsed) == []


def test_the_first_bare_fraction_printed_before_the_lr_is_the_loss(write_log):
    # lansinuote's RLHF critic notebook: print(i, len(loader), loss.item(), lr, chosen.sum().item(),
    # rejected.sum().item()) every 100 batches; the lr decays slowly, the rewards beside it are not losses
    losses = [0.109375, 0.0044136, 0.0005574, 0.00021, 0.0037269]
    lrs = [4.9982e-05, 4.9929e-05, 4.9840e-05, 4.9692e-05, 4.9527e-05]
    chosen, rejected = [15.48, 24.77, 30.44, 30.93, 27.55], [-0.43, -7.71, -15.0, -20.26, -12.67]
    lines = [f"{100 * k + 99} 7500 {losses[k]} {lrs[k]} {chosen[k]} {rejected[k]}" for k in range(5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [99, 199, 299, 399, 499]
    assert [row_at(parsed, k + 1)["loss"] for k in range(5)] == losses
    assert [row_at(parsed, k + 1)["lr"] for k in range(5)] == lrs


def test_a_bare_lr_that_swings_is_the_one_number_always_below_a_hundredth(write_log):
    # lansinuote's RLHF actor notebook: print(epoch, i, len(loader), loss.item(), lr) every 100 batches, a cosine
    # schedule of period 100 batches swinging the lr between 1e-4 and 1e-5; a decoded sample after each line
    losses, lrs = [12.5976, 4.8985, 6.0107, 2.7936, 1.6938], [9.9978e-05, 1e-05, 1.0e-04, 1e-05, 1.0e-04]
    lines = []
    for k in range(5):
        lines += [
            f"0 {100 * k} 7500 {losses[k]} {lrs[k]}",
            f"Human: context= CREATE TABLE table_name_{k} (a VARCHAR)",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300, 400]
    assert [row_at(parsed, 2 * k + 1)["loss"] for k in range(5)] == losses
    assert [row_at(parsed, 2 * k + 1)["lr"] for k in range(5)] == lrs


def test_a_training_rounds_metric_named_train_anywhere_in_its_key_makes_the_line_a_step(write_log):
    # bentrevett/pytorch-rl 5_ppo.ipynb: print(f'| Episode: {episode+1:3} | Mean Train Rewards: {mean_train_rewards:5.1f}
    # | Mean Test Rewards: {mean_test_rewards:5.1f} |') every 10 episodes: the training's report, its test beside it
    train, test = [-175.8, -161.0, -141.4, -128.4], [-404.3, -299.2, -211.4, -1225.0]
    lines = [
        f"| Episode: {10 * (k + 1):3} | Mean Train Rewards: {train[k]:5.1f} | Mean Test Rewards: {test[k]:5.1f} |"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    assert evals(parsed) == []


def test_a_date_joined_to_its_time_by_a_comma(write_log):
    # mlfoundations/open_clip src/open_clip_train/logger.py setup_logging (and Chinese-CLIP's, which copies it):
    # logging.Formatter('%(asctime)s | %(levelname)s | %(message)s', datefmt='%Y-%m-%d,%H:%M:%S')
    lines = [
        f"2023-01-14,20:{37 + k // 2}:{47 if k % 2 == 0 else 51} | INFO | Train Epoch: 1 [{480 * k}/250320 (0%)] "
        f"Loss: 0.{6 - k}21858 Batch (t): 0.362, LR: 0.000003"
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert len(parsed.rows[parsed.rows["kind"] == "step"]) == 4
    # 20:37:51 - 20:37:47 and 20:38:47 - 20:37:47
    assert row_at(parsed, 2)["timestamp"] - row_at(parsed, 1)["timestamp"] == 4.0
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 1)["timestamp"] == 60.0


def test_a_batch_size_the_same_on_every_step_line_is_the_batch_the_log_states(write_log):
    # PaddlePaddle/PaddleSpeech deepspeech2's trainer: "Train: Rank: 0, epoch: 1, step: 5310, batch : 1559/1876, lr:
    # 0.00000000, data time: 0.000s, train time: 3.019s, batch size: 64, train_loss: 16.030918" behind its logger's
    # "[INFO 2021/06/19 16:01:34 model.py:61] ": a batch size with no scope; with no other process stated, the micro
    # batch
    prefix = "[INFO 2021/06/19 16:01:{:02d} model.py:61] "
    lines = [
        prefix.format(3 * k)
        + f"Train: Rank: 0, epoch: 1, step: {5310 + k}, batch : {1559 + k}/1876, lr: 0.00000000, data time: 0.000s, "
        f"train time: 3.0{k}9s, batch size: 64, train_loss: 16.0{k}0918"
        for k in range(5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [f.value for f in parsed.facts["batch_size"]] == [64]
    assert [f.value for f in parsed.facts["micro_batch_size"]] == [64]
    # a batch that changes from line to line (the last batch of an epoch is short) states none
    lines[-1] = lines[-1].replace("batch size: 64", "batch size: 12")
    parsed = frame(write_log("\n".join(lines) + "\n", "short.log"))
    assert "batch_size" not in parsed.facts


def test_a_two_digit_year_after_the_month_and_day_is_the_steps_clock(write_log):
    # a logging datefmt of '%m-%d-%y %H:%M:%S' (an emergent-communication translator's job output: "06-21-22
    # 19:04:16 - epoch 0 | global step 32 | mode train | loss 0.9499 | ..."): 19:06:29 - 19:04:16 = 133 s
    stamps = ["06-21-22 19:04:16", "06-21-22 19:06:29", "06-21-22 19:08:40", "06-21-22 19:10:52"]
    lines = [
        f"{t} - epoch 0 | global step {32 * (k + 1)} | mode train | loss 0.9{k}99 | accuracy 74.2188"
        for k, t in enumerate(stamps)
    ]
    rows = frame(write_log("\n".join(lines) + "\n")).rows
    assert rows["timestamp"].iloc[1] - rows["timestamp"].iloc[0] == 133.0


def test_a_total_named_alone_beside_its_terms_is_the_loss(write_log):
    # a physics-informed loop: logger.info(f"Epoch {epoch:6d} | Total: {total:.6f} | Residual: {res:.6f} | BC:
    # {bc:.6f} | Data: {data:.6f} | Time: {t:.1f}s"), total the weighted sum it backpropagates
    lines = [
        f"2025-10-09 15:39:{10 + e // 25:02d},850 - __main__ - INFO - Epoch {e:6d} | Total: {100 - e / 10:.6f}"
        f" | Residual: 272488.703045 | BC: 89.164406 | Data: 1.078676 | Time: {e * 0.6:.1f}s"
        for e in range(25, 150, 25)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [25, 50, 75, 100, 125]
    assert row_at(parsed, 2)["loss"] == 95.0


def test_a_batch_loss_beside_its_epochs_running_average_is_the_loss(write_log):
    # Wang-Yu-Qing/UTPM's train loop: print(f"epoch: {epoch:03d} | step: {step:05d} | batch_loss: {loss:.4f} |
    # epoch_avg_loss: {avg:.4f} | step_time: {t:.5f}"), avg the mean of the epoch's batch losses so far
    losses, lines, total = [6.6119, 3.0183, 5.4969, 4.121], [], 0.0
    for k, loss in enumerate(losses):
        total += loss
        lines.append(
            f"epoch: 000 | step: {100 * k:05d} | batch_loss: {loss:.4f} | epoch_avg_loss: {total / (k + 1):.4f} "
            f"| step_time: 0.0117{k}"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300]
    assert list(parsed.rows["loss"]) == losses
