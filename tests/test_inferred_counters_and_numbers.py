"""Which number counts a record's steps, and what is a number at all, in the inferred reading
(logparse/patterns/infer.py); and the config line's names of one fact (patterns/keymap.py). Each log is built from
a loop's or a tool's own format with values chosen in the test."""

from __future__ import annotations

import pytest

from logparse import api
from tests.frames import frame, row_at, steps_of


def test_an_inner_loops_epoch_within_an_outer_loops_is_the_counter_and_a_pass_summary_no_row(write_log):
    # hbing-l/multi-source train_fg_alpha.py: logging '%(asctime)s %(message)s'; 'epoch_out: {eo}, epoch_in: {ei},
    # loss: {per_ls}' per inner epoch, then after the inner loop 'The epoch_out: {eo}, epoch_in: {ei} of training F
    # and G finished, losslist: [...]'
    lines = []
    for eo in range(2):
        for ei in range(5):
            lines.append(
                f"2022/08/22 11:3{ei}:12 epoch_out: {eo}, epoch_in: {ei}, loss: {0.9 - ei / 10 - eo / 100}"
            )
        if eo == 0:
            lines.append(
                "2022/08/22 11:37:26 The epoch_out: 0, epoch_in: 4 of training F and G finished, losslist: [0.9, 0.8]"
            )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4] * 2
    assert row_at(parsed, 7)["loss"] == 0.9 - 0.01
    assert row_at(parsed, 7)["epoch_index"] == 1


def test_a_line_tagged_test_whose_keys_name_both_splits_beside_its_own_loss_is_the_training(write_log):
    # Jianglandelong/MyGCL main.py, every 10 epochs, its only record: '[TEST] Trial:{trial:04d} |
    # Epoch:{epoch:04d} | CL loss:{loss:.4f} | VAL ACC:{acc_val:.2f} | TEST ACC:{acc_test:.2f}'
    lines = [
        f"[TEST] Trial:0000 | Epoch:{e:04d} | CL loss:{-0.2 - e / 1000:.4f} | VAL ACC:7{e % 10}.50 | TEST ACC:72.55"
        for e in range(10, 60, 10)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40, 50]
    assert row_at(parsed, 2)["loss"] == -0.22


def test_a_line_tagged_test_with_one_splits_keys_stays_an_evaluation(write_log):
    lines = [f"step {s} | loss {2 - s / 100:.4f}" for s in range(1, 5)]
    lines.append("[TEST] step 4 | loss 1.9900 | acc 0.51")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]


def test_numbers_grouped_by_underscores(write_log):
    # a DDP loop's f"step : {step} | loss: {loss} | lr: {lr:.7f} | dt: {dt:.2f} ms | tokens/sec: {tps:_.6f} |
    # norm: {norm:.2f}" (Python's `_` grouping, PEP 515)
    lines = [
        f"step : {s} | loss: {10 - s / 3} | lr: 0.0000600 | dt: 2620.83 ms | tokens/sec: {200_000 + s * 1_000:_.6f} | norm: 7.79"
        for s in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert row_at(parsed, 1)["tokens_per_s"] == 201000.0
    assert row_at(parsed, 5)["tokens_per_s"] == 205000.0


def test_nvidia_smis_process_table_holds_no_steps(write_log):
    # nvidia-smi's process table at a job's start (driver 535: GPU, GI, CI, PID, type, name, memory), then the
    # loop's own f"step:{step}/{n} train_loss:{loss:.4f} train_time:{ms:.0f}ms step_avg:{avg:.2f}ms"
    lines = ["|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |"]
    lines += [
        f"|    {g}   N/A  N/A      {6718 + g}      C   /usr/bin/python3                           5776MiB |"
        for g in range(8)
    ]
    lines += [
        f"step:{s}/6200 train_loss:{7 - s / 10:.4f} train_time:{s * 214}ms step_avg:213.66ms"
        for s in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert row_at(parsed, 10)["loss"] == 6.9


def test_backticks_a_markdown_paste_leaves_before_the_first_line(write_log):
    # a log pasted in an RWKV-LM bug report: the progress bar's description is the record, f"miniE {e} s {steps} prog
    # {p:.2f}% : ppl {ppl:.6f} loss {loss:.6f} lr {lr:e}", the paste's backtick before the first
    lines = [
        f"miniE {e} s {833 * e} prog {20 * e:.2f}% : ppl 3.4 loss {1.7 - e / 10:.6f} lr 1.386290e-04: "
        "100%|██████████| 833/833 [03:17<00:00,  4.21it/s]"
        for e in range(1, 5)
    ]
    lines[0] = "`" + lines[0]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [833, 1666, 2499, 3332]
    assert row_at(parsed, 1)["loss"] == 1.6


def test_a_config_line_that_names_a_fact_twice_gives_its_plainest_name(write_log):
    # an ERA-V4 GPT script's logger.info(f"Args: {vars(args)}"): the model's block_size and the length it trains on
    lines = [
        "Args: {'block_size': 1024, 'n_layer': 12, 'n_head': 12, 'n_embd': 768, 'batch_size': 48, 'seq_len': 128}"
    ]
    lines += [f"step {s}/400 | loss {10 - s / 10:.6f} | lr 3.00e-04 | tok/s 17964.4" for s in range(1, 5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [o.value for o in parsed.facts["seq_len"]] == [128]


def test_each_ranks_line_keeps_its_own_values_and_the_run_takes_the_lowest_ranks(write_log):
    # wenet-e2e/wenet wenet/utils/executor.py: '{} Batch {}/{} loss {:.6f} '.format(tag, epoch, batch_idx, loss),
    # 'lr {:.8f} rank {}' through logging's '%(asctime)s %(levelname)s %(message)s'; each rank prints its line,
    # rank 2's first at batch 203800
    lines = []
    for b, order in ((203700, (0, 1, 2)), (203800, (2, 1, 0))):
        for r in order:
            lines.append(
                f"2023-01-30 18:4{r}:0{b % 7},107 DEBUG TRAIN Batch 4/{b} loss {10 + r + b / 100000:.6f} "
                f"lr 0.00032621 rank {r}"
            )
    path = write_log("\n".join(lines) + "\n")
    parsed = frame(path)
    assert steps_of(parsed) == [203700] * 3 + [203800] * 3
    assert [row_at(parsed, k)["loss"] for k in (1, 2, 4)] == [12.037, 13.037, 14.038]
    steps = api.resolve(path).steps.set_index("step")
    assert steps.loc[203800, "loss"] == 12.038  # (rank 0's, printed last)
    assert steps.loc[203800, "x_loss_rank2"] == 14.038


def test_a_parameter_tables_total_and_trainable_rows_under_its_heading(write_log):
    # karpathy/nanochat scripts/base_train.py: print0("Parameter counts:") then print0(f"{key:24s}: {value:,}") for
    # each part and `total`; a script's "Model Parameters:" table, "  Total: {n:,} ({n / 1e6:.2f}M)"
    parts = {"wte": 2_097_152, "lm_head": 2_097_152, "transformer_matrices": 3_145_856, "scalars": 8}
    lines = ["Parameter counts:", *(f"{k:24s}: {v:,}" for k, v in parts.items())]
    lines.append(f"{'total':24s}: {sum(parts.values()):,}")
    lines += [f"step {s:05d} | loss: {9 - s / 10:.6f} | dt: 1595ms | tok/sec: 41,088" for s in range(4)]
    parsed = frame(write_log("\n".join(lines) + "\n", "nanochat.log"))
    assert [o.value for o in parsed.facts["total_params"]] == [7_340_168]
    lines = ["Model Parameters:", "  Total: 134,515,008 (134.52M)", "  Trainable: 134,515,008 (134.52M)"]
    lines += [
        "  Non-trainable: 0 (0)",
        "",
        *(f"Step {s} | Loss {10 - s / 1000:.4f}" for s in range(0, 2000, 500)),
    ]
    parsed = frame(write_log("\n".join(lines) + "\n", "table.log"))
    assert [o.value for o in parsed.facts["total_params"]] == [134_515_008]
    assert [o.value for o in parsed.facts["trainable_params"]] == [134_515_008]


def test_a_total_row_under_no_parameter_heading_is_no_parameter_count(write_log):
    lines = ["Dataset sizes:", "  train: 50,000", "  total: 60,000"]
    lines += [f"Step {s} | Loss {10 - s / 1000:.4f}" for s in range(0, 2000, 500)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert "total_params" not in parsed.facts


def test_a_bracketed_key_before_its_value_and_loguru_s_line_number(write_log):
    # nv-tlabs/LION trainers/base_trainer.py through loguru's default format ("{time} | {level: <8} |
    # {name}:{function}:{line} - {message}"): f"[R{rank}] | E{epoch} iter[{i:3d}/{n}] | [Loss] {loss:.2f} | ... |
    # [step] {step:5d}"; the 219 after `train_epochs:` is the line of the code that logged
    lines = [
        f"2023-06-13 21:5{k}:53.148 | INFO     | trainers.base_trainer:train_epochs:219 - [R0] | E0 "
        f"iter[{s:3d}/153] | [Loss] {335.14 - k:.2f} | [step] {s:5d} | [url] none"
        for k, s in enumerate((30, 70, 110, 150))
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [30, 70, 110, 150]
    row = row_at(parsed, 2)
    assert row["loss"] == 334.14
    assert not [c for c in parsed.rows if "train_epochs" in c]


def test_a_stamps_six_digit_fraction_after_a_comma(write_log):
    # saforem2/ezpz's logger (wordplay's trainer): "[%Y-%m-%d %H:%M:%S,%f][I][wordplay/trainer:850] step=60 loss=..."
    lines = [
        f"[2025-07-24 17:54:5{k},{267387 + k * 290789}][I][wordplay/trainer:850] step={60 + 10 * k} "
        f"loss={4.2 - k / 100:.5f} dt=0.034885"
        for k in range(3)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    first, second = row_at(parsed, 1), row_at(parsed, 2)
    assert abs((second["timestamp"] - first["timestamp"]) - 1.290789) < 1e-6


def test_a_bar_counting_the_records_steps_gives_the_steps_planned(write_log):
    # allenai/open-instruct open_instruct/finetune.py: progress_bar = tqdm(range(args.max_train_steps)), and after
    # each optimizer step logger.info(f"  Step: {completed_steps}, LR: {lr}, Loss: {loss}"), behind the bar's frame
    # on the same line (OLMoE's committed SFT log)
    lines = [
        f"  0%|          | {s}/9500 [01:{18 + 12 * s}<206:55:43, {78.42 / s:.2f}s/it]08/02/2024 21:5{s}:48 - INFO - "
        f"__main__ -   Step: {s}, LR: {7.0e-08 * s}, Loss: {810.4 + s}"
        for s in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert [o.value for o in parsed.facts["train_iters"]] == [9500]


def test_a_heading_that_names_the_epoch_and_step_once_is_no_row(write_log):
    # lixingw's SFT script: print(f"Epochs: {e}, Learning Rate: {lr}, Batch Size: {b}, Gradient Acc Steps: {g}, Max
    # Seq Len: {n}"), every 1000 steps f"Step {step}: Train Loss={a:.4f}, Eval Loss={b:.4f}", and once
    # f"Example Generation at Epoch {epoch} Step {step}:" above a generated sample
    lines = ["Epochs: 3, Learning Rate: 2e-05, Batch Size: 8, Gradient Acc Steps: 8, Max Seq Len: 1024"]
    for step in (1000, 2000, 3000):
        lines.append(f"Step {step}: Train Loss={0.9 - step / 10000:.4f}, Eval Loss={0.6 - step / 10000:.4f}")
        if step == 1000:
            lines += ["Example Generation at Epoch 1 Step 1911:", "system", "You are a helpful assistant."]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000]
    assert [o.value for o in parsed.facts["grad_accum"]] == [8]


def test_runs_numbered_by_a_banner_of_their_own_each_count_their_epochs_again(write_log):
    # a GCN benchmark's loop: print(f"Run {run + 1}/{runs} on dataset {name}") before each run, then every 200
    # epochs f"Epoch: {epoch}/{epochs} | Train Loss: {loss:.4f} | Val Acc: {val:.4f} | Test Acc: {test:.4f}"
    lines = []
    for run in range(1, 5):
        lines.append(f"Run {run}/4 on dataset Cora")
        lines.append(f"Epoch: 1/300 | Train Loss: 1.95{run} | Val Acc: 0.4191 | Test Acc: 0.4501")
        lines.append(f"Epoch: 201/300 | Train Loss: 0.00{run} | Val Acc: 0.7904 | Test Acc: 0.8273")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 201] * 4
    assert row_at(parsed, 5)["loss"] == 1.952
    assert row_at(parsed, 12)["loss"] == 0.004


def test_a_csv_row_with_a_stamp_and_text_cells_and_its_plan_in_a_column(write_log):
    # a training script's csv.writer, one row per epoch: timestamp (time.strftime), phase, epoch, total_epochs,
    # train_loss, val_loss, epoch_time_sec, notes (a phase name and a note that hold digits inside words)
    lines = ["timestamp,phase,epoch,total_epochs,train_loss,val_loss,epoch_time_sec,notes"]
    lines += [
        f"2026-04-23 11:1{e}:34,phase1_event,{e},40,1.9{e},1.8{e},27.{e},run1 checkpoint saved"
        for e in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert row_at(parsed, 3)["loss"] == 1.92
    assert row_at(parsed, 3)["step_time_s"] == 27.2
    assert [o.value for o in parsed.facts["num_epochs"]] == [40]


def test_a_column_named_as_the_current_epoch_is_no_plan(write_log):
    # the same number on every row under `train_epoch` says which epoch the rows are in, not how many are planned
    lines = ["step,train_epoch,train_loss"]
    lines += [f"{s},3,1.{s}" for s in range(1, 6)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert "num_epochs" not in parsed.facts


def test_two_lines_of_one_iteration_counted_again_for_each_task_join_one_row(write_log):
    # an online continual learner (agents/exp_replay.py style): every 100 batches of a task it prints
    # '==>>> it: {i}, avg. loss: {:.6f}, running train acc: {:.3f}' then '==>>> it: {i}, mem avg. loss: {:.6f},
    # running mem acc: {:.3f}', and the batches count again from 1 for the next task
    lines = []
    for task in range(2):
        lines.append(f"-----------run 0 training batch {task}-------------")
        for i in (1, 101, 201, 301):
            lines.append(
                f"==>>> it: {i}, avg. loss: {4 - i / 1000 - task:.6f}, running train acc: 0.0{task}0"
            )
            lines.append(f"==>>> it: {i}, mem avg. loss: {3 - i / 1000:.6f}, running mem acc: 0.100")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 101, 201, 301] * 2
    assert row_at(parsed, 2)["loss"] == 3.999
    assert row_at(parsed, 13)["loss"] == 2.899


def test_an_epochs_banner_takes_no_start_up_line_above_it(write_log):
    # facebookresearch/DiT train.py: logger format '[\033[34m%(asctime)s\033[0m] %(message)s'; f"DiT Parameters:
    # {n:,}", f"Training for {args.epochs} epochs...", f"Beginning epoch {epoch}...", then every log_every steps
    # f"(step={train_steps:07d}) Train Loss: {avg_loss:.4f}, Train Steps/Sec: {steps_per_sec:.2f}"
    stamp = "[\033[34m2024-12-23 11:2{}:50\033[0m] "
    lines = [
        stamp.format(1) + "DiT Parameters: 32,963,360",
        stamp.format(1) + "Training for 1 epochs...",
        stamp.format(1) + "Beginning epoch 0...",
        stamp.format(3) + "(step=0000100) Train Loss: 0.4643, Train Steps/Sec: 0.79",
        stamp.format(5) + "(step=0000200) Train Loss: 0.3643, Train Steps/Sec: 0.80",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200]
    assert [o.value for o in parsed.facts["total_params"]] == [32_963_360]


def test_the_epoch_in_other_languages_counts_epochs(write_log):
    # a GAN course loop in Portuguese: print(f"Epoca {epoch:03d}/{epochs} | loss_D: {d:.4f} | loss_G: {g:.4f}")
    lines = [f"Epoca {e:03d}/30 | loss_D: 1.{e}191 | loss_G: 1.{e}709" for e in range(1, 5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert [o.value for o in parsed.facts["num_epochs"]] == [30]


def test_the_epochs_planned_printed_on_every_record_is_no_epoch_counter(write_log):
    # szagoruyko/wide-residual-networks train.lua: each epoch 'json_stats: ' .. json.encode(tablex.merge(opt, {...}))
    # merges every option into the record, "max_epoch":200 beside the "epoch" it counts by
    lines = [
        f'json_stats: {{"batchSize":128,"max_epoch":200,"epoch":{e},"train_time":29{e}.5,"loss":1.{9 - e}}}'
        for e in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert "epoch_index" not in parsed.rows
    assert [o.value for o in parsed.facts["num_epochs"]] == [200]


def test_a_steps_timing_line_under_its_own_word_for_the_counter_joins_the_step(write_log):
    # an RL trainer's logger: "opt_step={n} loss={loss:.4f} comp_len={n}" then, lines later, "TIMING step={n} |
    # total={t:.1f}s gen={g:.1f}s teacher={t:.1f}s ..." of the same optimizer step
    lines = []
    for s in range(1, 5):
        lines += [
            f"2026-08-02T22:5{s}:04.328604+0000 | train | INFO - opt_step={s} loss=0.{s}881 comp_len=12{s}9",
            "Converting to HuggingFace 100% (3291/3291)",
            f"2026-08-02T22:5{s}:24.214751+0000 | train | INFO - TIMING step={s} | total=14{s}.8s gen=42.4s "
            "teacher=34.0s optim=9.2s",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert row_at(parsed, 4)["loss"] == 0.2881


def test_a_rate_line_with_blanks_around_its_slash_closes_a_block(write_log):
    # endernewton/tf-faster-rcnn lib/model/train_val.py: print('iter: %d / %d, total loss: %.6f\n >>> rpn_loss_cls:
    # %.6f\n ...\n >>> lr: %f' % (...)) then print('speed: {:.3f}s / iter'.format(timer.average_time))
    lines = []
    for it, loss, speed in ((20, 1.053862, 0.822), (40, 0.851714, 0.554), (60, 0.88373, 0.459)):
        lines += [
            f"iter: {it} / 70000, total loss: {loss:.6f}",
            " >>> rpn_loss_cls: 0.369174",
            " >>> loss_box: 0.000000",
            " >>> lr: 0.000100",
            f"speed: {speed:.3f}s / iter",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40, 60]
    assert row_at(parsed, 6)["loss"] == 0.851714
    assert row_at(parsed, 6)["step_time_s"] == 0.554


def test_an_unnamed_count_with_its_total_beside_an_evaluation_counts_epochs(write_log):
    # a forecasting notebook: every 5 epochs print(f"[{epoch}/{epochs}] Training loss: {tl:.4f}\t Validation loss:
    # {vl:.4f}"): its total is the epochs planned
    lines = [
        f"[{e}/30] Training loss: 18.{e:02d}48\t Validation loss: 3{e // 5}.1239" for e in range(5, 30, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5, 10, 15, 20, 25]
    assert [o.value for o in parsed.facts["num_epochs"]] == [30]
    assert "train_iters" not in parsed.facts


def test_a_bars_count_beside_an_evaluation_still_counts_steps(write_log):
    # a C++ trainer's own bar: "Training [===   ] 8.5% 5000/58874 | 4.62 it/s | ETA: 11664.8 s | loss=3.910492 |
    # validation_loss=3.908841"
    lines = [
        f"Training [===          ] {s / 588.74:.1f}% {s}/58874 | 4.62 it/s | ETA: 11664.8 s | loss=3.9{s // 1000}0492 | "
        f"validation_loss=3.9{s // 1000}8841"
        for s in range(5000, 25000, 5000)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5000, 10000, 15000, 20000]
    assert [o.value for o in parsed.facts["train_iters"]] == [58874]
    assert "num_epochs" not in parsed.facts


def test_a_bars_first_frame_before_its_rate_is_known_is_the_same_record(write_log):
    # lucidrains/stylegan2-pytorch cli.py: a tqdm bar over the steps with the trainer's print glued after it; tqdm
    # draws `?it/s` until it has timed a step (tqdm/std.py format_meter)
    lines = ["0% 0/90000 [00:00<?, ?it/s]G: 1.51 | D: 0.21 | GP: 0.00 | PL: 0.00"]
    for step, clock, rate in (
        (49, "02:46<81:43:57", 3.27),
        (97, "05:04<71:55:48", 2.88),
        (149, "07:35<72:52:45", 2.92),
    ):
        lines.append(f"0% {step}/90000 [{clock},  {rate}s/it]G: 2.06 | D: 0.05 | GP: 0.50 | PL: 0.02")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 49, 97, 149]


def test_a_stamp_with_the_day_first_reads_where_no_month_does(write_log):
    # a motion-synthesis trainer's logger, datefmt "%d/%m/%y %H:%M:%S": `[13/12/22 11:13:56]` (no 13th month)
    lines = [
        f"[13/12/22 11:1{e - 57}:56][teach.callback.progress][INFO] -   Epoch {e}: Train_rf 4.856e-01   Memory 10.0%"
        for e in range(57, 62)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [57, 58, 59, 60, 61]
    assert row_at(parsed, 2)["timestamp"] - row_at(parsed, 1)["timestamp"] == 60.0


def test_the_parts_a_step_numbers_under_its_line_are_no_steps(write_log):
    # tensorlayer's openpose-plus train.py: print('Total Loss at iteration {} / {} is: {} Learning rate {:10e}
    # l2_loss {:10e} Took: {}s'.format(...)) then, for each stage, print('Network#', ix, 'For Branch', ix % 2 + 1,
    # 'Loss:', ll)
    lines = []
    for it, total in ((2, 2936.142578125), (3, 2272.997314453125), (4, 2101.5)):
        lines.append(
            f"Total Loss at iteration {it} / 600000 is: {total} Learning rate 4.000000e-05 l2_loss 3.060536e+00 "
            f"Took: 16.41792201{it}s"
        )
        lines += [f"Network# {ix} For Branch {ix % 2 + 1} Loss: {900 - ix}.5547" for ix in range(6)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [2, 3, 4]
    assert row_at(parsed, 8)["loss"] == 2272.997314453125
    assert [o.value for o in parsed.facts["train_iters"]] == [600000]


def test_a_duration_under_a_minute_in_seconds_alone_is_the_same_records_clock(write_log):
    # NVlabs/stylegan2 training/training_loop.py: print('tick %-5d kimg %-8.1f lod %-5.2f minibatch %-4d time %-12s
    # sec/tick %-7.1f ...' % (..., dnnlib.util.format_time(total_time), ...)); format_time writes "{s}s" under a
    # minute, "{m}m {s:02}s" under an hour
    times = ["58s", "12m 16s", "23m 19s", "34m 16s"]
    lines = [
        f"tick {t:<5d} kimg {6.1 * t:<8.1f} lod 0.00  minibatch 32   time {clock:<12s} sec/tick 648.1   gpumem 5.1"
        for t, clock in enumerate(times)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]


def test_the_whole_jobs_batch_on_every_step_line_is_a_fact(write_log):
    # OFA-Sys/Chinese-CLIP cn_clip/training/train.py: logging.info(f"Global Steps: {step + 1}/{t_total} | Train Epoch:
    # ... | Loss: {total_loss.item():.6f} | ... | LR: {lr:5f} | logit_scale: ... | Global Batch Size: {batch_size *
    # world_size}")
    lines = [
        f"2026-02-03,09:32:2{s} | INFO | Rank 0 | Global Steps: {s}/400 | Train Epoch: 5 [{s * 128}/512 (75%)] | "
        f"Loss: 3.4{s}1613 | Batch Time: 0.527s | LR: 0.000010 | Global Batch Size: 128"
        for s in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert [o.value for o in parsed.facts["global_batch_size"]] == [128]


def test_seconds_over_a_count_of_iterations_as_one_unit_are_read_per_step(write_log):
    # BVLC/caffe src/caffe/solver.cpp Step(): LOG_IF(INFO, Caffe::root_solver()) << "Iteration " << iter_ << " ("
    # << per_s << " iter/s, " << lapse << "s/" << param_.display() << " iters), loss = " << smoothed_loss_;
    # then sgd_solver.cpp ApplyUpdate(): "Iteration " << iter_ << ", lr = " << rate
    lines = []
    for it, lapse in ((100, 105.395), (200, 105.951), (300, 104.8)):
        lines += [
            f"I0502 17:4{it // 100}:41.519320 22378 solver.cpp:218] Iteration {it} ({100 / lapse:.6g} iter/s, "
            f"{lapse}s/100 iters), loss = 17.4673",
            f"I0502 17:4{it // 100}:41.519623 22378 sgd_solver.cpp:105] Iteration {it}, lr = 0.01",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300]
    assert row_at(parsed, 3)["step_time_s"] == pytest.approx(1.05951, rel=1e-12)


def test_a_learning_rate_glued_to_its_name(write_log):
    # the MME domain-adaptation loop (VisionLearningGroup/SSDA_MME style): print('S {} T {} Train Ep: {} lr{} \t Loss
    # Classification: {:.6f} Loss T {:.6f} Method {}\n'.format(source, target, step, lr, loss_c, -loss_t, method))
    lines = [
        f"S real T sketch Train Ep: {s} lr0.00{9925 - s // 10} \t Loss Classification: 0.9{s // 100}8827 Loss T 0.294183 "
        "Method MME"
        for s in range(100, 600, 100)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert row_at(parsed, 2)["lr"] == 0.009905


def test_a_step_counter_that_keeps_pace_with_many_epochs_counts_the_whole_run(write_log):
    # FastSpeech2 (ming024) train.py: "Epoch [{}/{}], Step [{}/{}]:".format(epoch, epochs, current_step, total_step)
    # then "Total Loss: {:.4f}, Mel Loss: {:.4f}, ...;" and "Time Used: {:.3f}s, Estimated Time Remaining: {:.3f}s."
    # 1000 epochs of 608 steps: total_step 608,000; the 191st epoch's steps are 115,521-116,128 (190 x 608 + 1, 191 x 608)
    lines = []
    for step in range(115_600, 116_100, 100):
        lines += [
            f"Epoch [191/1000], Step [{step}/608000]:",
            f"Total Loss: {68 - step / 1e5:.4f}, Mel Loss: 0.2892, Duration Loss: 2.2572;",
            "Time Used: 28493.331s, Estimated Time Remaining: 97800.871s.",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(115_600, 116_100, 100))
    assert [o.value for o in parsed.facts["train_iters"]] == [608_000]


def test_a_step_counter_within_an_epoch_is_no_plan_of_the_run(write_log):
    # the pytorch-tutorial loops: 'Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}' with total_step = len(train_loader):
    # the 600 counts one epoch's batches, the run is 20 x 600; at epoch 12 the steps are 100..500, not near 6,600
    lines = [f"Epoch [12/20], Step [{s}/600], Loss: {1 - s / 1000:.4f}" for s in range(100, 600, 100)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert "train_iters" not in parsed.facts


def test_a_counters_banner_seen_once_with_set_up_lines_after_it_is_no_step(write_log):
    # a build-nanogpt-derived French GPT loop: print(f"epoch: {epoch} | step: {step} | shard: {shard}") once at the
    # start, its set-up lines after it, then f"step {step:5d} | loss: {loss:.6f} | lr: {lr:.7f} | norm: {norm:.4f} |
    # dt: {dt:.2f}ms | tok/sec: {tps:.2f}"
    lines = [
        "GPU: NVIDIA GeForce RTX 4090",
        "epoch: 0 | step: 0 | shard: 0",
        "total steps: 3834 | grad accum steps: 16 | warmup_steps: 191",
        "Batch per shards: 2",
    ]
    lines += [
        f"step {s:5d} | loss: {11 - s / 10:.6f} | lr: 0.0000600 | norm: 1.5000 | dt: 3400.00ms | tok/sec: 9637.42"
        for s in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    assert row_at(parsed, 5)["loss"] == 10.9


def test_an_epochs_line_of_a_metric_alone_is_the_run_where_nothing_else_repeats(write_log):
    # collodi/jl_and_torch dense.jl (Julia Flux): println("epoch 0, mae $(train_err())") before training, then every
    # 100 epochs println("epoch $epoch, mae $(train_err())"): the only record of the run, no evaluation's word in it
    lines = ["data loaded"] + [f"epoch {e}, mae 0.0{9 - e // 100}7874162" for e in range(0, 600, 100)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300, 400, 500]


def test_a_batch_count_out_of_its_total_counts_an_epoch_not_the_run(write_log):
    # a Spanish ViT notebook's loop: print(f"Batch {i}/{len(train_loader)}, Loss: {loss:.4f}, Acc: {acc:.2f}%") every
    # 100 batches, then after the epoch f"Epoch {epoch}/{epochs}: ...": 1563 is the loader's length, the run 50 x that
    lines = [
        f"Batch {b}/1563, Loss: {2.5 - b / 1000:.4f}, Acc: {9 + b / 50:.2f}%" for b in range(0, 600, 100)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300, 400, 500]
    assert "train_iters" not in parsed.facts
    # (so says the set `patterns new` writes of it)
    from logparse.patterns import shapes
    from logparse.patterns.sets import load_sets

    text, _ = shapes.new_pattern_set(str(write_log("\n".join(lines) + "\n")), "mine", load_sets())
    assert "within_epoch = true" in text


def test_a_plans_epoch_count_in_the_set_up_echo_is_no_step(write_log):
    # a PINN notebook's echo before training: print("numbers of hidden layer = ", 3) ... print("epoch = ", 2000), then
    # every 100 epochs print(f"   Epoch={epoch}\t loss={loss:.3e}"): the 2000 is the plan, past where the steps start
    lines = ["-" * 55, "numbers of hidden layer =  3", "learning rate =  0.001", "epoch =  2000", "-" * 55]
    lines += [f"   Epoch={e}\t loss={0.6 / (1 + e / 100):.3e}" for e in range(0, 600, 100)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 100, 200, 300, 400, 500]


def test_a_confusion_matrixs_counts_are_no_step_counter(write_log):
    # a WMT critical-error detector's fairseq-style logger: "Start epoch {}:", then "Train Loss: {:.3f}, tp: {}, fn:
    # {}, fp: {}, tn: {}, Acc: ..., F1: ...", then its validation's counts and "Validation loss: ..."; the counts
    # of the run's own log, tp rising as the classifier learns
    counts = [(0, 11, 0, 53), (0, 11, 0, 53), (0, 11, 0, 53), (1, 7, 2, 54), (1, 14, 0, 49), (4, 10, 2, 48),
              (4, 2, 3, 55), (9, 0, 5, 50), (6, 1, 1, 56), (11, 0, 0, 53)]  # fmt: skip
    lines = []
    for e, (tp, fn, fp, tn) in enumerate(counts, start=1):
        lines += [
            f"| 2021-07-08 17:{e:02d}:06 | INFO | Start epoch {e}:",
            f"| 2021-07-08 17:{e:02d}:07 | INFO | Train Loss: 0.{99 - e}6, tp: {tp}, fn: {fn}, fp: {fp}, tn: {tn}, "
            "Acc: 0.828, Prec: 0.000, Rec: 0.000, F1: 0.453",
            f"| 2021-07-08 17:{e:02d}:58 | INFO | Validation tp: 0, fn: 141, fp: 0, tn: 859",
            f"| 2021-07-08 17:{e:02d}:59 | INFO | Validation loss: 0.4{e}3, acc: 0.859, F1: 0.462",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(1, 11))
    assert row_at(parsed, 5)["loss"] == 0.976


def test_a_number_alone_between_rules_heads_the_block_of_values_under_it(write_log):
    # 494935318/pointclass2 train.py: print('-----' + str(epoch) + '------'), then one `key: value` line each
    # for the training and the test split's mean loss and accuracy
    lines = []
    for e in range(6):
        lines += [
            f"-----{e}------",
            f"train_mean loss: {0.3 - e / 100:.6f}",
            "train_accuracy: 0.910627",
            f"test_mean loss: {0.5 + e / 1000:.6f}",
            "test_accuracy: 0.857374",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3, 4, 5]
    assert row_at(parsed, 11)["loss"] == 0.28  # epoch 2's block, its banner on line 11


def test_a_resumes_line_naming_a_step_and_the_best_loss_is_no_row(write_log):
    # SmolLM2-Text-Generator's notebook: logging.info(f"Epoch {epoch}, Step {step}, Loss: {loss:.6f}, Best Loss:
    # {best:.6f}") per batch; after a restart logging.info(f"Resuming from epoch {e}, step {s}, best loss {b:.6f}")
    stamp = "2025-02-01 05:54:{:02d},411 - INFO - "
    lines = [
        stamp.format(s - 1820) + f"Epoch 0, Step {s}, Loss: {6 - s / 1000:.6f}, Best Loss: 5.500871"
        for s in range(1823, 1830)
    ]
    lines.append(stamp.format(40) + "Resuming from epoch 0, step 1820, best loss 5.500871")
    lines += [
        stamp.format(s - 1770) + f"Epoch 0, Step {s}, Loss: {6 - s / 900:.6f}, Best Loss: 5.500871"
        for s in range(1820, 1824)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [*range(1823, 1830), *range(1820, 1824)]
    assert 5.500871 not in set(parsed.rows["loss"])


def test_a_config_printed_by_its_sections_once_is_no_step(write_log):
    # VITS-style trainers log their hparams once, a dict of dicts: utils.get_logger(...).info(hps)
    sections = ", ".join(f"'k{i}': {i * 10}" for i in range(14))
    lines = [
        "2022-10-08 13:34:24,515\tbase\tINFO\t{'train': {'log_interval': 5, 'total_step': 8000, 'constant_step': "
        f"1000, {sections}}}, 'data': {{'sampling_rate': 16000}}}}",
        "2022-10-08 13:35:46,327\tbase\tINFO\tTrain Epoch: 383 [0%]",
    ]
    with pytest.raises(Exception, match="no pattern set recognises"):
        frame(write_log("\n".join(lines) + "\n"))


def test_a_line_that_says_a_phase_starts_heads_no_row_of_its_own(write_log):
    # Avalanche's TextLogger: "-- Starting training on experience {e} (Task {t}) from {stream} stream --", then
    # per epoch "Epoch {n} ended." and the epoch's metrics, one `\t{name} = {value:.4f}` line each
    lines = []
    for exp in range(3):
        lines.append(f"-- Starting training on experience {exp} (Task 0) from train stream --")
        for epoch in range(4):
            lines += [
                f"Epoch {epoch} ended.",
                f"\tLoss_Epoch/train_phase/train_stream/Task000 = {1.8 - epoch / 4 + exp / 10:.4f}",
                f"\tTop1_Acc_Epoch/train_phase/train_stream/Task000 = 0.{epoch + 2}222",
            ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3] * 3
    assert row_at(parsed, 5)["loss"] == 1.55  # experience 0, epoch 1's block, its heading on line 5
    # behind a logger's level, the same (Python logging's default format, "%(levelname)s:%(name)s:%(message)s")
    logged = [f"INFO:avalanche:{line}" if line.startswith("-- Starting") else line for line in lines]
    parsed = frame(write_log("\n".join(logged) + "\n", "logged.log"))
    assert steps_of(parsed) == [0, 1, 2, 3] * 3


def _metric_writer_line(step: int, pairs: list[tuple[str, str]], second: int) -> str:
    # clu's LoggingWriter (google-deepmind/nanodo's metric writer) behind absl's prefix: '[{step}] k=v, k=v'
    body = ", ".join(f"{k}={v}" for k, v in pairs)
    return f"I1207 23:52:{second:02d}.413178 140704756668096 logging_writer.py:48] [{step}] {body}"


def test_a_step_line_that_prints_more_keys_once_is_the_records_first_row(write_log):
    # nanodo's step 0 adds the model's parameter counts to the keys every step prints; an evaluation's line, written
    # by a background thread, comes before the line of the step before the one it names
    lines = []
    for step in range(12):
        pairs = [
            ("__train_loss", f"{10.9 - step / 10:.4f}"),
            ("learning_rate", f"{0.00016 * (step + 1):.6g}"),
        ]
        if step == 0:
            pairs += [("n_params/all", "2.16128e+06"), ("n_params/embedding", "2.06266e+06")]
        pairs += [("train_loss", f"{10.9 - step / 10:.4f}"), ("train_tokens_seen", str(508 * step))]
        if step % 4 == 2:  # (the evaluation of step 3, 7, 11, printed before step 2's, 6's, 10's line)
            at, value = step + 1, f"{9.9 - step / 10:.6g}"
            lines.append(_metric_writer_line(at, [("_eval_loss", value), ("eval_loss", value)], 30 + step))
        lines.append(_metric_writer_line(step, pairs, 30 + step))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(12))
    rows = parsed.rows[parsed.rows["kind"] == "step"].set_index("step")
    assert rows.at[0, "loss"] == 10.9
    assert {s: rows.at[s, "eval_loss"] for s in (3, 7, 11)} == {3: 9.7, 7: 9.3, 11: 8.9}
    assert rows["eval_loss"].notna().sum() == 3


def test_a_bracketed_counter_before_a_key_that_opens_with_an_underscore_heads_its_line(write_log):
    # the same writer's keys with no prefix: `[0] __train_loss=...` seen with one more key than the later lines
    lines = [
        f"[{s}] __train_loss={3 - s / 20:.4f}, lr=0.0001" + (", n_params=4096" if s == 0 else "")
        for s in range(8)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(8))


def test_the_wrapped_rows_of_a_printed_tensor_are_no_steps(write_log):
    # lucidrains/x-transformers train_copy.py: print(f'{i}: {loss.item()}') each step and, every 10 steps,
    # print("input:  ", inp) and print("predicted output:  ", sample): torch wraps a long tensor's row, the
    # continuation indented and closing the brackets the first line opened
    # (the rows' first numbers, token ids, as in the captured log: 4 and 6, 12 and 4, 10 and 17)
    tails = {10: (4, 6), 20: (12, 4), 30: (10, 17)}
    lines = []
    for i in range(40):
        lines.append(f"{i}: {3.05 - i / 100}")
        for label, first in zip(("input:  ", "predicted output:  "), tails.get(i, ()), strict=False):
            lines.append(
                f"{label} tensor([[ 3, 10,  2, 13, 10,  8, 16,  9, 13, 16, 14, 11, 16,  2, 11,  2, 17, 12,"
            )
            lines.append(f"          {first}, 11,  7, 16,  2, 15,  4, 16, 15,  8, 16, 14, 15, 11]])")
        if i in tails:
            lines.append("incorrects: 31")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(40))
