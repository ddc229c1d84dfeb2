"""Evaluations and checkpoint saves in the inferred reading (logparse/patterns/infer.py, frame/assemble.py): which
lines are an evaluation's or a save's, and the step each is at. Each log is built from a loop's own format string
(cited beside it) with values chosen in the test."""

from __future__ import annotations

import pytest

from tests.frames import evals, frame, row_at, steps_of


def saves(parsed) -> list[dict]:
    ev = parsed.events
    return [] if ev.empty else ev[ev["event"] == "checkpoint_save"].to_dict("records")


def test_a_loggers_file_name_is_no_word_of_the_key_and_an_evaluation_before_step_0_is_at_step_0(write_log):
    # neemiasbsilva/developing-nanoGPT2-fineweb src/train.py: logging format '%(asctime)s %(filename)s %(message)s';
    # the build-nanogpt loop evaluates at the top of the step, f"validation loss: {val:.4f}", before step 0's
    # f"step {step:5d} | loss: {loss:.6f} | lr {lr:.4e} | norm: {norm:.4f} | dt: {dt:.2f}ms | tok/sec: {tps:.2f}"
    lines = ["2024-06-14 18:43:08,209 train.py validation loss: 11.0213"]
    for s in range(4):
        lines.append(
            f"2024-06-14 18:4{5 + s}:08,384 train.py step {s:5d} | loss: {11.0 - s / 10:.6f} | lr 8.3916e-07 | "
            f"norm: 14.3291 | dt: 85284.43ms | tok/sec: 61475.23"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    (ev,) = evals(parsed)
    assert (ev["line"], ev["step"], ev["eval_loss"]) == (1, 0, 11.0213)


def test_an_evaluation_before_the_first_step_of_an_excerpt_that_begins_later_has_no_step(write_log):
    lines = ["validation loss: 3.2100"]
    lines += [f"step {s:5d} | loss: {3.3 - s / 1000:.6f} | lr 6.0000e-04" for s in range(4000, 4004)]
    (ev,) = evals(frame(write_log("\n".join(lines) + "\n")))
    assert ev["eval_loss"] == 3.21 and ev["step"] != ev["step"]  # NaN: unknown


def test_the_training_splits_word_opening_the_keys_is_the_loss_and_an_evaluate_line_seen_once(write_log):
    # ucsd-cse251b's nanoGPT course loop writes f"{step} train {loss:.6f} hard {hard:.6f} muon_lr {a:.8e} adam_lr
    # {b:.8e}" a step, and at step 2000 f"{step} evaluate ppl {ppl:.4f} loss {loss:.6f} tok {n} sec {s:.2f}"
    lines = [
        f"{s} train {3.4 - s / 10000:.6f} hard {3.4 - s / 10000:.6f} muon_lr 1.29357428e-02 adam_lr 5.17429712e-04"
        for s in range(1997, 2002)
    ]
    lines.insert(4, "2000 evaluate ppl 36.5399 loss 3.598405 tok 5169152 sec 124.79")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1997, 1998, 1999, 2000, 2001]
    assert row_at(parsed, 1)["loss"] == 3.4 - 1997 / 10000
    (ev,) = evals(parsed)
    assert (ev["line"], ev["step"], ev["eval_loss"]) == (5, 2000, 3.598405)


def test_the_training_word_after_other_keys_stays_a_kept_value(write_log):
    # PyG's examples/gcn.py: print(f'Epoch: {epoch:03d}, Loss: {loss:.4f}, Train: {train_acc:.4f}, Val: ...'):
    # `Train` is an accuracy beside the named loss
    lines = [
        f"Epoch: {e:03d}, Loss: {2.0 - e / 10:.4f}, Train: 0.{10 + e}00, Val: 0.1680" for e in range(1, 5)
    ]
    row = row_at(frame(write_log("\n".join(lines) + "\n")), 2)
    assert row["loss"] == 1.8 and row["x_train"] == 0.12


def test_one_quantity_of_both_splits_beside_the_steps_is_an_evaluation(write_log):
    # gaurav-chawla-2/ERA-V4's twelfth lesson: every 500 iterations estimate_loss() prints f"step {i}: train loss
    # {a:.4f}, val loss {b:.4f}" then 'Checkpoint saved at step {step} to {path}', and every 100 f"step {i},
    # loss: {loss:.4f}, lr: {lr:.6f}"; a start-up line names the folder the saves will go to
    lines = ["Checkpoints will be saved to: /content/drive/ckpt"]
    for i in range(0, 1001, 100):
        if i % 500 == 0:
            lines.append(f"step {i}: train loss {10 - i / 200:.4f}, val loss {10.01 - i / 200:.4f}")
            lines.append(f"Checkpoint saved at step {i} to /content/drive/ckpt/best_model.pth")
        lines.append(f"step {i}, loss: {9.9 - i / 200:.4f}, lr: 0.000012")
    lines.append("Final model saved to /content/drive/ckpt/final_model.pth")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(0, 1001, 100))
    assert [(e["line"], e["step"], e["eval_loss"]) for e in evals(parsed)] == [
        (2, 0, 10.01),
        (9, 500, 7.51),
        (16, 1000, 5.01),
    ]
    # (the plan's line is no save; the last save, with no step of its own, is at the step the save before it named)
    assert [(s["line"], s["step"]) for s in saves(parsed)] == [(3, 0), (10, 500), (17, 1000), (19, 1000)]


def test_an_epochs_summary_of_both_splits_is_the_record_where_nothing_else_prints_the_loss(write_log):
    # a k-fold classifier's epoch lines, f"Epoch: {e}, \tavg train loss: {a:.4f}, \tavg validation loss: {b:.4f}",
    # beside 'Epoch {e}, \tSave Best Loss: {b:.4f} Model' notes: the summary is the steps' record
    lines = []
    for e in range(1, 6):
        lines.append(
            f"Epoch: {e}, \tavg train loss: {0.13 - e / 100:.4f}, \tavg validation loss: {0.08 - e / 200:.4f}"
        )
        if e < 3:
            lines.append(f"Epoch {e}, \tSave Best Loss: {0.08 - e / 200:.4f} Model")
    assert steps_of(frame(write_log("\n".join(lines) + "\n"))) == [1, 2, 3, 4, 5]


def test_a_save_tag_before_the_path_and_a_saves_second_line_into_its_folder(write_log):
    # Jiaaqiliu's WSD trainer prints f"  [SAVE] {ckpt_dir}" (the step in the folder's name); saforem2/wordplay's
    # trainer logs "Saving checkpoint to: {dir}" then "Saving model to: {dir}/model.pth": one save
    lines = [
        f"  step {s}/9500: loss={3.3 - s / 10000:.4f}, lr=2.50e-04, 0.19 steps/s"
        for s in range(1900, 2001, 50)
    ]
    lines.append("  [SAVE] /fsx/ckpts/wsd_s42/step_2000")
    lines.append(f"  step 2050/9500: loss={3.3 - 2050 / 10000:.4f}, lr=2.50e-04, 0.19 steps/s")
    lines.append("Saving checkpoint to: /home/u/runs/01-59-23")
    lines.append("Saving model to: /home/u/runs/01-59-23/model.pth")
    lines.append(f"  step 2100/9500: loss={3.3 - 2100 / 10000:.4f}, lr=2.50e-04, 0.19 steps/s")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [(s["line"], s["step"]) for s in saves(parsed)] == [(4, 2000), (6, 2050)]


def test_saving_models_is_a_save(write_log):
    # XPixelGroup/BasicSR basicsr/train.py: logger.info('Saving models and training states.') after the
    # MessageLogger's f"[{name[:5]}..][epoch:{epoch:3d}, iter:{current_iter:8,d}, lr:({lrs})] ..." line
    lines = []
    for k, it in enumerate((500, 1000, 1500, 2000)):
        lines.append(
            f"2022-12-29 10:4{k}:28,986 INFO: [Retin..][epoch: {8 * (k + 1):2d}, iter: {it:8,d}, lr:(2.000e-04,)] "
            f"[eta: 6:29:14, time (data): 0.141 (0.001)] l_pix: 1.0{k}36e-01 "
        )
        if it % 1000 == 0:
            lines.append(f"2022-12-29 10:4{k}:45,100 INFO: Saving models and training states.")
    assert [(s["line"], s["step"]) for s in saves(frame(write_log("\n".join(lines) + "\n")))] == [
        (3, 1000),
        (6, 2000),
    ]


def test_a_json_line_with_the_evaluations_loss_alone_is_an_evaluation(write_log):
    # hiyouga/LLaMA-Factory's LogCallback writes trainer_log.jsonl: a step's {"current_steps": N, "total_steps": M,
    # "loss": ..., "learning_rate": ..., "epoch": ...}, and at an evaluation {"current_steps": N, ..., "eval_loss": ...}
    def line(step: int, **values: float) -> str:
        body = ", ".join(f'"{k}": {v}' for k, v in values.items())
        return f'{{"current_steps": {step}, "total_steps": 42, {body}, "epoch": {step / 14.5}, "percentage": 59.52}}'

    lines = [line(25, loss=0.1185, learning_rate=3.0e-06), line(25, eval_loss=0.19051770865917206)]
    lines += [line(s, loss=0.2 - s / 1000, learning_rate=2.8e-06) for s in range(26, 30)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [25, 26, 27, 28, 29]
    (ev,) = evals(parsed)
    assert (ev["line"], ev["step"], ev["eval_loss"]) == (2, 25, 0.19051770865917206)


def test_a_score_after_the_epoch_with_the_rank_that_printed_it_is_an_evaluation(write_log):
    # JDAI-CV/FaceX-Zoo face_lightning search.py, logging "%(levelname)s %(asctime)s %(filename)s: %(lineno)d]
    # %(message)s": f"rank {rank}, epoch {epoch}, iter {i}, lr {lr:.6f}, loss {loss:.6f}" every 200 iterations,
    # then after the epoch f"rank: {rank}, acc = {acc:.6f}" (the 62 and the 99 are the code's lines)
    lines = [
        f"INFO 2021-06-10 18:{50 + k}:19 search.py: 62] rank 0, epoch 8, iter {304 + 200 * k}, lr 0.001000, "
        f"loss {5.8 + k / 10:.6f}"
        for k in range(4)
    ]
    lines.append("INFO 2021-06-10 19:31:48 search.py: 99] rank: 0, acc = 0.831333")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [304, 504, 704, 904]
    assert [e["line"] for e in evals(parsed)] == [5]


def test_a_key_then_when_then_its_value_seen_once(write_log):
    # tanyuqian/rlhf-from-scratch's SFT loop: print(f'val_loss at {epoch} epoch: {val_loss}') before the epoch,
    # then print(f'Loss: {loss.item()}') a batch
    lines = ["val_loss at 0 epoch: 3.934447339602879", *(f"Loss: {3.5 - k / 10}" for k in range(5))]
    (ev,) = evals(frame(write_log("\n".join(lines) + "\n")))
    assert (ev["line"], ev["eval_loss"]) == (1, 3.934447339602879)


def test_a_validation_line_behind_a_logger_named_train_is_an_evaluation(write_log):
    # a detection script's logger, '[%(asctime)s]: %(name)s [line:%(lineno)s] %(levelname)s  %(message)s' under the
    # name `train`: 'Train Epoch: %2d  (learing rate : %.4f )| LOSS: %2.3f | ...' then 'Valid Epoch: %2d | LOSS: ...'
    lines = []
    for e in range(4):
        lines.append(
            f"[2020-04-03 17:4{e}:06]: train [line:107] INFO  Train Epoch: {e:2d}  (learing rate : 0.0001 )| "
            f"LOSS: 0.{65 - e}0 | F1: 0.000 | ACC: 0.984"
        )
        lines.append(
            f"[2020-04-03 17:4{e}:24]: train [line:140] INFO  Valid Epoch: {e:2d} | LOSS: 0.{59 - e}4 | F1: 0.000 | ACC: 0.985"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 1, 2, 3]
    assert row_at(parsed, 3)["loss"] == 0.64
    assert row_at(parsed, 3)["eval_loss"] == 0.584
    assert "x_line" not in parsed.rows  # (the logger's source line is no value)


def test_an_evaluations_loss_said_in_a_sentence_with_its_article(write_log):
    # airsplay/lxmert src/pretrain/lxmert_pretrain.py: print("The training loss for Epoch %d is %0.4f" % (epoch,
    # avg_loss)), the parts and accuracies, then print("The valid loss is %0.4f" % valid_loss)
    lines = []
    for e, (loss, valid) in enumerate(((7.3978, 5.3834), (4.8495, 5.0167), (4.1, 4.9)), start=1):
        lines += [
            f"The training loss for Epoch {e} is {loss}",
            "Overall Accu 0.2104, gqa Accu 0.2569, ",
            f"The valid loss is {valid}",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3]
    assert [e["eval_loss"] for e in evals(parsed)] == [5.3834, 5.0167, 4.9]


def test_an_evaluation_that_names_its_epoch_and_counts_right_answers_out_of_all(write_log):
    # pytorch/tutorials' speech command recognition: train() prints f"Train Epoch: {epoch} [{batch_idx *
    # len(data)}/{len(train_loader.dataset)} ({100. * batch_idx / len(train_loader):.0f}%)]\tLoss: {loss.item():.6f}"
    # and test() f"\nTest Epoch: {epoch}\tAccuracy: {correct}/{len(test_loader.dataset)} ({100. * correct /
    # len(test_loader.dataset):.0f}%)\n"
    lines = []
    for epoch, correct in ((13, 8869), (14, 8846)):
        lines += [f"Train Epoch: {epoch} [{i * 5120}/84843 ({i * 6}%)]\tLoss: 0.5{i}7345" for i in range(5)]
        lines += ["", f"Test Epoch: {epoch}\tAccuracy: {correct}/11005 ({100 * correct // 11005}%)", ""]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in evals(parsed)] == [7, 15]
    assert len(parsed.rows[parsed.rows["kind"] == "step"]) == 10


def test_a_save_that_names_what_it_kept_before_the_file(write_log):
    # RecBole's trainer: "epoch %d training [time: %.2fs, train loss: %.4f]", then "Saving current best: %s" of the
    # .pth it wrote when the validation improved
    lines = []
    for e in range(1, 5):
        lines += [
            f"22 Feb 1{e}:50    INFO  epoch {e} training [time: 9944.45s, train loss: 18307{e}.7615]",
            f"22 Feb 1{e}:51    INFO  Saving current best: saved/MBHT-Feb-22-2023_06-34-5{e}.pth",
        ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [2, 4, 6, 8]


def test_a_language_models_benchmark_written_short_in_its_log_file_is_an_evaluation(write_log):
    # karpathy/build-nanogpt train_gpt2.py writes its log file with f.write(f"{step} val {val_loss:.4f}\n"),
    # f.write(f"{step} hella {acc_norm:.4f}\n") every 250 steps and f.write(f"{step} train {loss:.6f}\n") every step
    lines = []
    for step in range(0, 12):
        if step % 5 == 0:
            lines.append(f"{step} hella 0.25{step}8")
        lines.append(f"{step} train 10.8{step:02d}892")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(12))
    assert [(e["line"], e["step"]) for e in evals(parsed)] == [(1, 0), (7, 5), (13, 10)]


def test_a_checkpoints_path_alone_on_its_line_is_its_save(write_log):
    # dxli94/WLASL code/I3D/train_i3d.py: print(model_name) then torch.save(..., model_name + '.pt') after a phase's
    # lines, the path alone on its line
    lines = []
    for e in range(1, 4):
        lines += [f"Epoch {e} train Loc Loss: 0.00{e}4 Cls Loss: 0.0044 Tot Loss: 0.00{e}4 Accu :0.0010"] * 2
        lines.append(f"checkpoints/nslt_2000_00{e}036_0.00{e}389.pt")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["line"]) == [3, 6, 9]


def test_a_path_in_a_sentence_is_no_save(write_log):
    lines = ["Loading pretrained weights from pretrained/resnet50.pth"]
    lines += [f"step {s} | loss {2 - s / 10:.3f}" for s in range(1, 5)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.events.empty or "checkpoint_save" not in set(parsed.events["event"])


def test_a_step_count_that_starts_again_each_epoch_keeps_the_epochs_evaluation_lines(write_log):
    # microsoft/recommenders' SLi-Rec trainer (recommenders/models/deeprec/models/sequential/sequential_base_model.py):
    # print("step {0:d} , total_loss: {1:.4f}, data_loss: {2:.4f}".format(...)) every show_step batches, the count
    # starting again each epoch, then print("eval valid at epoch {0}: {1}".format(epoch, ",".join(...)))
    lines = []
    for epoch in range(1, 4):
        lines += [
            f"step {s} , total_loss: {1.6 - epoch / 10 - s / 1000:.4f}, data_loss: 1.5000" for s in (20, 40)
        ]
        lines.append(
            f"eval valid at epoch {epoch}: auc:0.{60 + epoch},logloss:0.69{epoch},group_auc:0.5{epoch}"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [20, 40] * 3
    assert row_at(parsed, 4)["loss"] == round(1.6 - 0.2 - 0.02, 4)
    assert [ev["line"] for ev in evals(parsed)] == [3, 6, 9]


def test_a_checkpoint_read_back_and_metrics_written_beside_the_checkpoints_are_no_saves(write_log):
    # a SmolLM2 Shakespeare loop: print(f"[LOAD] Checkpoint loaded at step {step}") on resuming, its steps
    # f"[TRAIN] Step {step} | Loss: {loss:.3f} | LR: {lr:.6f} | dt: {dt:.2f}ms | tok/sec: {tps:8.2f}", and a MoE
    # loop's torch.save(metrics, f"checkpoints/metrics_{step}.pt") with print(f"Metrics saved to {path}")
    lines = ["[LOAD] Checkpoint loaded at step 5000", "Training resumed from step 5001"]
    for s in range(5001, 5006):
        lines.append(
            f"[TRAIN] Step {s} | Loss: 0.0{s - 4990} | LR: 0.000050 | dt: 1122.43ms | tok/sec:  1824.61"
        )
        if s == 5003:
            lines.append(f"Metrics saved to checkpoints/metrics_{s}.pt")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [5001, 5002, 5003, 5004, 5005]
    assert saves(parsed) == []
    # the save of the checkpoint itself still is one
    lines.append("Checkpoint saved at step 5005")
    assert [e["line"] for e in saves(frame(write_log("\n".join(lines) + "\n")))] == [len(lines)]


def test_a_summary_of_both_splits_after_the_validation_bar_is_the_epochs_row(write_log):
    # a PASCAL VOC FCN loop: print(f"\nEpoch {epoch}/{epochs}"), print(f"LR: {lr}"), a tqdm bar over the training
    # loader and one over the validation loader (desc "Validation"), then print(f"Train Loss: {t:.4f}, Val Loss:
    # {v:.4f}"): the training's loss of the epoch beside its validation's
    bar = "| 182/182 [00:17<00:00, 10.28it/s]"
    lines = []
    for e in range(1, 5):
        lines += ["", f"Epoch {e}/30", "LR: 0.001", f"Training: 100%|{'█' * 20}{bar}",
                  f"Validation: 100%|{'█' * 20}{bar}", f"Train Loss: 2.4{9 - e}97, Val Loss: 2.4{9 - e}65"]  # fmt: skip
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    assert (row_at(parsed, 8)["loss"], row_at(parsed, 8)["eval_loss"]) == (2.4797, 2.4765)  # (epoch 2's row)


def test_mxnet_parameters_written_to_a_params_file_are_a_save(write_log):
    # dmlc/gluon-cv scripts/detection/faster_rcnn/train_faster_rcnn.py save_params(): logger.info('[Epoch {}] Saving
    # parameters to {}'.format(epoch, '{:s}_{:04d}_{:.4f}.params'.format(prefix, epoch, current_map)))
    lines = [
        f"[Epoch 0][Batch {b}], Speed: 11.896 samples/sec, RPN_Conf=0.095,RCNN_CrossEntropy=0.{b // 100}51"
        for b in range(99, 599, 100)
    ]
    lines.append("[Epoch 0] Saving parameters to faster_rcnn_resnet50_v1b_voc_0000_0.4029.params")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in saves(parsed)] == [6]


def test_orbax_announcing_a_save_then_saying_where_it_goes_is_one_save(write_log):
    # openpi's JAX trainer logs f"Step {step}: {info_str}" through absl; orbax's CheckpointManager then logs "Saving
    # checkpoint at step {step}" (checkpoint_manager.py), "Started async saving checkpoint to {path}."
    # (async_checkpointer.py) and "Starting CheckpointManager Save Finalize thread=save_finalize", each line ending
    # in its logger's "(pid:module.py:line)"
    lines = [
        f"Step {s}: grad_norm=0.45{s // 100}, loss=0.0{s // 100}41, param_norm=1377.8650"
        for s in range(600, 1100, 100)
    ]
    lines += [
        "05:47:25.181 [I] [process=0] Saving checkpoint at step 1000      (2490449:checkpoint_manager.py:1408)",
        "05:47:25.182 [I] [process=0] Started async saving checkpoint to /ckpt/pi0/folding/1000. "
        "(2490449:async_checkpointer.py:439)",
        "05:47:42.413 [I] [process=0][thread=MainThread][step=1000] Starting CheckpointManager Save Finalize "
        "thread=save_finalize (2490449:checkpoint_manager.py:1453)",
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [(e["line"], e["step"]) for e in saves(parsed)] == [(6, 1000)]


def test_a_log_of_evaluations_alone_has_no_step_rows(write_log):
    # a character transformer's loop (MC-Hyper-Connections example_3): every 100 iterations, before the update,
    # print(f'Step {iter}: Val Loss {losses.mean():.4f} | LR: {lr:.2e}'), and no line of the training's own
    lines = ["Starting training..."] + [
        f"Step {s}: Val Loss {4.9 - s / 1000:.4f} | LR: 3.00e-04" for s in range(0, 500, 100)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.rows.empty or "step" not in parsed.rows or parsed.rows["step"].isna().all()
    assert [(e["line"], e["step"], e["eval_loss"]) for e in evals(parsed)][:2] == [(2, 0, 4.9), (3, 100, 4.8)]
    # and the analysis says so, rather than time the evaluations as steps
    from logparse import api
    from logparse.core.errors import LogparseError

    with pytest.raises(
        LogparseError, match="its 5 matched lines are evaluations and none is a training step"
    ):
        api.analyze(str(write_log("\n".join(lines) + "\n")))


@pytest.mark.parametrize(
    "save",
    [
        # an image-search trainer's print(f"    [SAVED] best val_loss={v:.4f}") after an epoch that improved
        "    [SAVED] best val_loss=0.4714",
        # the Straight Dope's Gluon VQA notebook: logging.info('Best validation acc found. Checkpointing...')
        "INFO:root:Best validation acc found. Checkpointing...",
        # torch7 dp's SaveToFile observer: print("SaveToFile: saving to " .. filename)
        "SaveToFile: saving to /home/user/save/xps:1432747515:1.dat",
        # an ACT policy trainer's print(f"checkpoint -> {path}"), and a forecasting loop's logger.info(f"→ Checkpoint
        # mới: {path}") (Vietnamese: 'new checkpoint')
        "checkpoint -> ckpt\\act_lang_step5000",
        "2026-05-17 11:01:02,943 | INFO | → Checkpoint mới: /mnt/d/outputs/best_mamba_aqi.pt",
    ],
)
def test_a_save_said_by_its_tag_its_gerund_or_the_path_it_goes_to(write_log, save):
    lines = [f"Epoch {e}: train loss {1 - e / 10:.4f}, lr 0.001" for e in range(5)]
    lines.insert(3, save)
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in saves(parsed)] == [4]


def test_saving_pictures_or_a_table_to_a_path_is_no_save(write_log):
    lines = [f"Epoch {e}: train loss {1 - e / 10:.4f}, lr 0.001" for e in range(5)]
    lines.insert(3, "saving to ./samples/epoch_2.png")
    assert saves(frame(write_log("\n".join(lines) + "\n"))) == []


def test_a_validation_perplexity_seen_once_is_an_evaluation(write_log):
    # OpenNMT (Lua) train.lua: per report "Epoch %d ; Iteration %d/%d ; Learning rate %.4f ; Source tokens/s %d ;
    # Perplexity %.2f", after the epoch print('Validation perplexity: ' .. validPpl), then the checkpoint's save
    lines = [
        f"Epoch 1 ; Iteration {i}/77776 ; Learning rate 1.0000 ; Source tokens/s 1270 ; Perplexity 14.{70 - i // 1000}"
        for i in range(74000, 78000, 1000)
    ]
    lines += ["Validation perplexity: 7.8701437591397", "Saving checkpoint to 'model_epoch1_7.87.t7'..."]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in evals(parsed)] == [5]


def test_a_sentence_that_says_the_test_data_is_missing_is_no_evaluation(write_log):
    # flair trainers/trainer.py: log.info(f"DEV : loss {loss} - {main_metric} {score}") after each epoch, and at the
    # end, with no test split, log.info("Test data not provided setting final score to 0")
    lines = []
    for e in (1, 2):
        lines += [
            f"2026-12-07 12:02:0{e},100 epoch {e} - iter {i}/30 - loss {1 - i / 100:.8f}" for i in (3, 6, 9)
        ]
        lines.append(f"2026-12-07 12:02:0{e},384 DEV : loss {0.7 - e / 10} - f1-score (micro avg)  0.45")
    lines.append("2026-12-07 12:02:04,675 Test data not provided setting final score to 0")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert [e["line"] for e in evals(parsed)] == [4, 8]
