"""Keys written in Chinese (or Japanese, Korean) with full-width punctuation, or in Spanish, Portuguese, French,
German or Russian words with their accents, read by the inferred reading and the key model (synonyms.toml [words]). Each log is built from a training loop's own print string (cited beside it)
with values chosen in the test; the expected values are those values, as the format prints them."""

from __future__ import annotations

import pytest

from logparse.patterns import keymap
from tests.frames import evals, frame, row_at, steps_of


def test_chinese_keys_with_full_width_colons_and_pipes(write_log):
    # davidsongtao/Medical_QA_System_GPT2 train.py train_epoch(): f"当前Batch：{batch_index + 1}/{len(train_dataloader)} |
    # 当前epoch:{epoch}/{param.epochs} | 当前损失值：{round(loss_print, 4)} | 当前准确率：{acc_print:.2f}%" ('current batch',
    # 'current epoch', 'current loss value', 'current accuracy'); then "最佳模型保存成功！" (best model saved)
    losses = [3.6889, 4.3599, 4.2169, 3.53]
    accs = [37.22, 25.47, 31.6, 37.23]
    lines = [
        f"当前Batch：{b}/6035 | 当前epoch:0/50 | 当前损失值：{loss} | 当前准确率：{acc:.2f}%"
        for b, loss, acc in zip((5890, 5900, 5910, 5920), losses, accs, strict=True)
    ]
    lines.insert(2, "最佳模型保存成功！")
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert parsed.format == "generic"
    assert steps_of(parsed) == [5890, 5900, 5910, 5920]
    first = row_at(parsed, 1)
    assert first["loss"] == 3.6889 and first["progress_total"] == 6035
    # 准确率 (accuracy) is no loss: kept under its own name, the value as printed
    kept = [c for c in parsed.rows.columns if c.startswith("x_") and "accuracy" in c]
    assert len(kept) == 1 and row_at(parsed, 5)["loss"] == 3.53 and row_at(parsed, 5)[kept[0]] == 37.23


def test_a_chinese_step_word_behind_a_logging_prefix(write_log):
    # a diffusers LoRA loop's `logger.info(f"步骤 {global_step}, 损失: {loss.detach().item():.4f}")` ('step', 'loss')
    # behind logging's '%(asctime)s - %(name)s - %(levelname)s - %(message)s'
    lines = [
        f"2024-05-01 10:00:{i:02d},123 - __main__ - INFO - 步骤 {i * 50}, 损失: {0.5 - i / 100:.4f}"
        for i in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [50, 100, 150, 200, 250]
    assert row_at(parsed, 1)["loss"] == 0.49 and row_at(parsed, 5)["loss"] == 0.45
    assert row_at(parsed, 5)["timestamp"] - row_at(parsed, 1)["timestamp"] == 4.0


def test_an_ordinal_epoch_with_its_total_and_the_validation_loss_beside(write_log):
    # loops that print f'第 {epoch + 1}/{epochs} 轮, 损失: {loss.item()}, 验证损失: {val_loss.item()}' ('round N of M',
    # 'loss', 'validation loss'): 第 N 轮 is the Nth epoch, the counter; 验证损失 the evaluation's loss on the same line
    lines = [f"第 {e}/20 轮, 损失: {1 - e / 10:.4f}, 验证损失: {1.2 - e / 10:.4f}" for e in range(1, 6)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4, 5]
    first = row_at(parsed, 1)
    assert first["loss"] == 0.9 and first["eval_loss"] == 1.1 and first["epoch_total"] == 20


def test_an_ordinal_counter_glued_to_its_words(write_log):
    # f'第{epoch}轮, 损失: {loss.item():.4f}' printed every 1000 epochs: no space between the words and the number
    lines = [f"第{e}轮, 损失: {2 - e / 4000:.4f}" for e in (1000, 2000, 3000, 4000)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1000, 2000, 3000, 4000]
    assert row_at(parsed, 1)["loss"] == 1.75 and row_at(parsed, 4)["loss"] == 1.0


def test_english_counter_with_chinese_keys_between_pipes(write_log):
    # f'Epoch {epoch + 1}/{num_epochs} | 训练集当前损失: {avg_train_loss:.4f} | 测试集均方根误差: {mean_test_loss:.4f} |
    # 学习率: {current_lr_for_print:.6f}' ('training set current loss', 'test set RMSE', 'learning rate')
    lines = [
        f"Epoch {e}/50 | 训练集当前损失: {0.3 - e / 100:.4f} | 测试集均方根误差: {0.5 - e / 100:.4f} | 学习率: {1e-3 / e:.6f}"
        for e in range(1, 5)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [1, 2, 3, 4]
    second = row_at(parsed, 2)
    assert second["loss"] == 0.28 and second["lr"] == 0.0005
    # an RMSE is no loss, and the line stays the training step's
    assert "eval_loss" not in parsed.rows.columns or parsed.rows["eval_loss"].isna().all()
    assert not evals(parsed)


@pytest.mark.parametrize(
    ("key", "column"),
    [
        ("学习率", "lr"),
        ("當前學習率", "lr"),
        ("損失", "loss"),
        ("验证损失", "eval_loss"),
        ("耗时", "step_time_s"),
        ("梯度范数", "grad_norm"),
    ],
)
def test_the_key_model_reads_chinese_words(key, column):
    found = keymap.load().lookup(key, "step")
    assert found is not None and found.column == column


def test_full_width_punctuation_and_chinese_words_read_as_english():
    assert keymap.normalize("当前损失值：") == "current_loss"
    assert keymap.normalize("学习率（当前）") == "lr(current)"
    # the bracket's gloss, as in `lr (current)`
    assert keymap.load().lookup("学习率（当前）", "step").column == "lr"
    assert keymap.normalize("Loss") == "loss"  # an English key is untouched


def test_a_reward_beside_its_evaluations_reward_is_a_training_rounds_line(write_log):
    # datawhalechina/easy-rl notebooks/PPO.ipynb train(): print(f"回合：{i_ep+1}/{cfg.train_eps}，奖励：{ep_reward:.2f}，
    # 评估奖励：{mean_eval_reward:.2f}，最佳评估奖励：{best_ep_reward:.2f}{'，更新模型！' if update else ''}") every 10
    # episodes ('episode', 'reward', 'evaluation reward', 'best evaluation reward', 'model updated!')
    rewards, evals_ = [11.0, 68.0, 60.0, 105.0], [29.2, 25.0, 26.2, 27.6]
    lines = ["开始训练！"] + [
        f"回合：{10 * (k + 1)}/200，奖励：{rewards[k]:.2f}，评估奖励：{evals_[k]:.2f}，最佳评估奖励：29.20"
        + ("，更新模型！" if k == 0 else "")
        for k in range(4)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [10, 20, 30, 40]
    assert row_at(parsed, 2)["progress_total"] == 200
    assert evals(parsed) == []


@pytest.mark.parametrize(
    "said",
    [
        "체크포인트 저장: checkpoints/student_distill_2/step_{step}",  # choijun9040/vlm_project (Korean)
        "モデルを保存しました: ckpt/step_{step}",  # (Japanese)
        "保存模型到 output/step_{step}",  # (Chinese)
    ],
)
def test_a_save_said_in_korean_japanese_or_chinese_is_a_checkpoint(write_log, said):
    lines = []
    for step in range(50, 550, 50):
        lines.append(f"  [01:33:09] [Epoch 1/1] step {step}/27037 | loss {11 - step / 100:.4f} | lr 7.40e-07")
        if step % 250 == 0:
            lines.append("  " + said.format(step=step))
    parsed = frame(write_log("\n".join(lines) + "\n"))
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["step"]) == [250, 500]


def test_spanish_keys_with_accents_read_as_the_training_and_the_validation_loss(write_log):
    # an ML course's Spanish cat-classifier notebook: print(f"{pct}% Epoch {epoch}: loss entrenamiento={train:.4f},
    # loss validación={val:.4f}, exactitud={acc:.4f}%") every fifth of the epochs ('training loss', 'validation
    # loss', 'accuracy')
    lines = [
        f"{20 * k}% Epoch {100 * k}: loss entrenamiento=0.00{k}7, loss validación=0.0{k}99, exactitud=5{k}.0000%"
        for k in range(1, 6)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500]
    assert (row_at(parsed, 2)["loss"], row_at(parsed, 2)["eval_loss"]) == (0.0027, 0.0299)


@pytest.mark.parametrize(
    "key, english",
    [
        ("loss validación", "loss val"),
        ("pérdida", "loss"),
        ("Época", "epoch"),
        ("Verlust", "loss"),
        ("Эпоха", "epoch"),
        ("perda de treino", "loss of train"),
        ("Número de parámetros", "number of parameters"),
        ("temporal", "temporal"),  # (a word the table has only a part of stays as printed)
    ],
)
def test_words_of_other_languages_read_as_english(key, english):
    assert keymap.english(key) == english


def test_the_count_of_times_trained_is_the_step_beside_the_epoch(write_log):
    # the PyTorch tutorial of 小土堆 (xiaotudui) and its copies: print("-------第 {} 轮训练开始-------".format(i+1)), then
    # every 100 steps print("训练第 {} 轮，训练次数：{}，Loss：{}".format(i + 1, total_train_step, loss.item()))
    # ('epoch {}, times trained: {}'), and after each epoch print("整体测试集上的loss：{}".format(total_test_loss))
    lines = []
    for epoch in range(1, 4):
        lines.append(f"__________ 第 {epoch} 轮开始训练 __________")
        lines += [
            f"训练第 {epoch} 轮，训练次数：{s}，Loss：{5 - s / 1000}"
            for s in range(epoch * 200 - 100, epoch * 200 + 1, 100)
        ]
        lines += [
            f"整体测试集上的loss：{1.2 - epoch / 100}",
            "模型以保存",
        ]  # (its save: 'model saved', 以 for 已)
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [100, 200, 300, 400, 500, 600]
    assert row_at(parsed, 3)["loss"] == 5 - 0.2
    assert [e["line"] for e in parsed.events.to_dict("records") if e["event"] == "checkpoint_save"] == [
        5,
        10,
        15,
    ]
