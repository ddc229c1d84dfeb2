"""A tqdm bar whose values are its postfix draws a step's values apart from its position: each step is read from
the redraw drawn with it, not from the first (or last) redraw at the bar's position (steps/bars.postfix_steps).

Held to real CPU captures of a small PyTorch loop (tests/data/captures/custom/, capture.py) and the loop's own
record of every step (`<style>.truth.jsonl`):
- `tqdm_after.log`: diffusers' training examples' order, `progress_bar.update(1)` then `set_postfix(**logs)`: the
  redraw that moves the bar shows the previous step's values, the next one at that position shows its own;
- `tqdm_iter.log`: the bar as the loop's iterable, `set_postfix` in the body: the postfix is drawn before the
  position counts the step, and the position moves only every few steps;
- `tqdm.log`: `set_postfix(..., refresh=False)` then `update(1)`: one redraw a step, read as it was.
tqdm prints each value with 3 significant digits (tqdm.format_num), so the record's values are compared as printed.
"""

from __future__ import annotations

import json
import math

import pytest

from logparse import api
from logparse.steps.runfacts import log_facts
from tests.conftest import ROOT
from tests.frames import frame, steps_of

CUSTOM = ROOT / "tests" / "data" / "captures" / "custom"


def _printed(x: float) -> float:
    """A value as tqdm.format_num prints it in a postfix: '{:.3g}'."""
    return float(f"{x:.3g}")


def _truth(style: str) -> dict[int, dict[str, float]]:
    return {r["step"]: r for r in map(json.loads, (CUSTOM / f"{style}.truth.jsonl").read_text().splitlines())}


# diffusers' postfix names its loss `step_loss`: the only loss-like key, so the loss (the key model's loss rule)
@pytest.mark.parametrize(
    ("style", "loss_key"), [("tqdm_after", "loss"), ("tqdm_iter", "loss"), ("tqdm", "loss")]
)
def test_every_step_is_read_from_the_redraw_drawn_with_it(style, loss_key):
    truth = _truth(style)
    rows = api.parse(str(CUSTOM / f"{style}.log"))
    assert list(rows["step"]) == sorted(truth)  # every step once, none invented
    for step, loss, lr in zip(rows["step"], rows[loss_key], rows["lr"], strict=True):
        assert (loss, lr) == (_printed(truth[step]["loss"]), _printed(truth[step]["lr"])), step


def test_a_bar_per_epoch_described_epoch_n_is_the_loops_own_and_counts_on_across_epochs():
    # tqdm_epochs.log: `tqdm(range(20), desc=f"Epoch {epoch}")` from epoch 1, set_postfix(loss=...) in the body. Its
    # frames look like Lightning's bar, but no logger's `v_num` is in the postfix and the postfix comes before the
    # position: the bar's first redraws, at 0/20 before tqdm knows a rate (`?it/s`), show steps 1, 2, ...
    truth = _truth("tqdm_epochs")
    run = api.resolve(str(CUSTOM / "tqdm_epochs.log"))
    assert run.parsed.format == "generic"
    assert list(run.steps["step"]) == sorted(truth)  # 3 epochs of 20: steps 1..60, each once
    for step, loss in zip(run.steps["step"], run.steps["loss"], strict=True):
        assert loss == _printed(truth[step]["loss"]), step


def test_the_lagging_copy_is_left_out_and_said():
    # the redraw that moved diffusers' bar to step 2 repeats step 1's postfix: 'lr=0.0001, step_loss=5.54'
    run = api.resolve(str(CUSTOM / "tqdm_after.log"))
    assert run.steps.loc[run.steps["step"] == 2, "lr"].item() == 0.0002
    assert any(w.code == "bar_postfix" for w in run.warnings)
    one_redraw_a_step = api.resolve(str(CUSTOM / "tqdm.log"))
    assert not any(w.code == "bar_postfix" for w in one_redraw_a_step.warnings)


def test_a_bar_kept_every_few_thousand_steps_times_each_step_and_reads_its_postfix(tmp_path):
    # RyanTren/AFB-LLM-Compression-Trade-off-Evaluator src/lora_out_codeparrot/README.md: a loop's own tqdm bar
    # described f"Epoch {epoch}" (Lightning's description too, but no logger's `v_num` in the postfix: tqdm's own
    # bar, its rate smoothed) with set_postfix(smoothed_loss=...), whose states a checkpoint message printed every
    # 2000 steps kept. The bar's elapsed clock is the time since it began, and two clocks' difference covers the
    # steps between the two states: per step, that over 2000; the first state has no clock before it
    bar = "Epoch 0: {p:3d}%|####      | {n}/26807 [{e}<1:00:00,  {r:.2f}it/s, smoothed_loss={x:.4f}]"
    states = [
        (7, 2000, "10:53", 3.05, 0.466),
        (15, 4000, "21:50", 3.06, 0.5461),
        (22, 6000, "32:46", 3.04, 0.4297),
    ]
    lines = []
    for p, n, e, r, x in states:
        lines.append(
            bar.format(p=p, n=n, e=e, r=r, x=x)
            + "Saved intermediate checkpoint: out/checkpoint_step"
            + str(n)
        )
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    rows = api.parse(str(path))
    assert list(rows["step"]) == [2000, 4000, 6000]
    assert list(rows["loss"]) == [0.466, 0.5461, 0.4297]  # the postfix's only loss, which the key model names
    clocks = [int(e[:2]) * 60 + int(e[3:]) for _, _, e, _, _ in states]
    want = [(clocks[1] - clocks[0]) / 2000, (clocks[2] - clocks[1]) / 2000]
    assert math.isnan(rows["step_time_s"].iloc[0])
    assert list(rows["step_time_s"].iloc[1:]) == pytest.approx(want, rel=1e-9)


def test_a_bar_described_and_given_its_postfix_every_ten_steps_reads_each_step_from_its_own_redraw(tmp_path):
    # Phiwain/LLM sft.log: a tqdm bar described "SFT" over the run's 375 steps, update(1) each step and, every 10th,
    # set_postfix_str(f"loss {loss:.4f}"), which redraws step N again with its own loss; the steps between show the
    # last loss set. Written to a file, the redraws are joined by carriage returns on one line.
    states = ["SFT:   0%|          | 0/375 [00:00<?, ?it/s]"]  # as tqdm opens it
    loss = None
    for n in range(1, 24):
        pct = n * 100 // 375
        post = "" if loss is None else f", loss {loss:.4f}"
        states.append(f"SFT: {pct:3d}%|          | {n}/375 [00:{n:02d}<02:00, 11.{n % 10}0s/it{post}]")
        if n and n % 10 == 0:
            loss = {10: 6.053, 20: 0.4931}[n]
            # (a second later, as in the log: `20/375 [04:03<...` then `20/375 [04:04<..., loss 0.4931]`)
            states.append(
                f"SFT: {pct:3d}%|          | {n}/375 [00:{n + 1:02d}<02:00, 11.{n % 10}0s/it, loss {loss:.4f}]"
            )
    path = tmp_path / "sft.log"
    path.write_text("Entraînement SFT: 2000 examples x 3 epochs = 375 steps\n" + "\r".join(states) + "\n")
    rows = api.parse(str(path))
    assert list(rows["step"]) == list(range(1, 24))
    loss_at = dict(zip(rows["step"], rows["loss"], strict=True))
    assert (loss_at[10], loss_at[20]) == (6.053, 0.4931)  # the redraw set_postfix_str drew for that step
    assert "x_sft_pct" not in rows  # the description keys the bar's percentage, no value


def test_a_step_counted_in_the_description_and_drawn_again_as_the_bar_moves_is_one_row(tmp_path):
    # zylo117/Yet-Another-EfficientDet-Pytorch train.py: progress_bar.set_description('Step: {}. Epoch: {}/{}.
    # Iteration: {}/{}. Cls loss: {:.5f}. Reg loss: {:.5f}. Total loss: {:.5f}'), the bar then drawn again as
    # it moves: each step's description on two lines, the bar one position on
    desc = "Step: {s}. Epoch: 399/400. Iteration: {i}/71. Cls loss: {c:.5f}. Reg loss: 0.00882. Total loss: {t:.5f}"
    bar = ":  {p}%|####      | {n}/71 [01:{e:02d}<00:45,  1.2{k}s/it]"
    lines = []
    for k, (c, t) in enumerate(
        [(0.04249, 0.05131), (0.06965, 0.07847), (0.08008, 0.0889), (0.05561, 0.06443)]
    ):
        text = desc.format(s=28363 + k, i=35 + k, c=c, t=t)
        for n in (34 + k, 35 + k):
            lines.append(text + bar.format(p=round(100 * n / 71), n=n, e=n, k=n % 10))
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    rows = frame(path).rows
    steps = rows[rows["kind"] == "step"]
    assert steps["step"].tolist() == [28363, 28364, 28365, 28366]
    assert steps["loss"].tolist() == [0.05131, 0.07847, 0.0889, 0.06443]
    assert steps["line"].tolist() == [2, 4, 6, 8]  # each step's last draw


def test_a_log_that_begins_mid_bar_reads_its_first_step_from_that_steps_own_redraw(tmp_path):
    # AdrianTuci1/thunder-1 training/diffusion_lm_trainer.py: progress_bar.update(1) then
    # progress_bar.set_postfix({"Loss": ..., "Denoising": ...}) each step; a log kept from step 181 on begins with
    # the redraw that moved the bar to 181, which still shows step 180's values
    losses = {180: 11.0257, 181: 10.9373, 182: 10.9827, 183: 10.8021}
    frames = []
    for n in (181, 182, 183):
        for shown in (losses[n - 1], losses[n]):
            frames.append(
                f"Training:   0%|          | {n}/55000 [39:{n - 130:02d}<200:56:38, 13.20s/it, Loss={shown}]"
            )
    path = tmp_path / "train.log"
    path.write_text("".join(frames) + "\n")
    rows = api.parse(str(path))
    assert list(rows["step"]) == [181, 182, 183]
    assert list(rows["loss"]) == [losses[181], losses[182], losses[183]]


def test_a_step_counted_in_the_postfix_and_drawn_again_at_the_next_position_is_one_row(write_log):
    # Tianshou's trainer: tqdm(total=500, desc=f"Epoch #{epoch}") updated by the environment steps collected, its
    # postfix set after each update (`..., rew=..., update_step=N`); the bar then draws the same postfix again at
    # its next position before the next update sets a new one, and its close draws it once more on the same line;
    # each epoch's first frame, before its first postfix, is the bar alone
    lines, k = [], 0
    for epoch in (1, 2):
        lines.append(f"\rEpoch #{epoch}:   0%|          | 0/500 [00:00<?, ?it/s]")
        lines.append(f"\rEpoch #{epoch}:  20%|##        | 100/500 [00:03<00:12, 30.95it/s]")
        for at in range(1, 6):
            k += 1
            post = f"env_step={100 * k}, len=9, rew={9 + k / 10:.2f}, update_step={k}"
            frame_ = f"\rEpoch #{epoch}: {20 * at:3d}%|##        | {100 * at}/500 [00:0{at}<00:04, 30.{at}it/s, {post}]"
            if at < 5:
                nxt = f"{20 * at + 20:3d}%|####      | {100 * at + 100}/500"
                lines += [frame_, f"\rEpoch #{epoch}: {nxt} [00:0{at}<00:03, 29.{at}it/s, {post}]"]
            else:
                lines.append(frame_ + "\x1b[A" + frame_.replace("30.5it/s", "32.07it/s"))
        lines.append(
            f"Epoch #{epoch}: test_reward: 9.000000 ± 1.000000, best_reward: 9.800000 ± 0.600000 in #0"
        )
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == list(range(1, 11))


def test_a_bar_of_epochs_drawn_first_before_its_rate_is_known_says_its_postfix_comes_first(write_log):
    # PyKEEN's training loop: tqdm(range(num_epochs), unit="epoch"); after each epoch set_postfix(loss=...,
    # prev_loss=...) redraws the bar at the position it has, then the iterator moves it on; the first redraw,
    # before tqdm knows the rate, prints `?epoch/s`. Epoch e's loss is the one first drawn at position e - 1.
    losses = [1.36, 1.42, 1.3, 1.35, 1.38]
    lines = ["Training epochs on cpu:   0%|          | 0/5 [00:00<?, ?epoch/s]"]
    prev = "nan"
    for e, loss in enumerate(losses, start=1):
        at = "?, ?epoch/s" if e == 1 else "00:03,  1.45epoch/s"
        lines.append(
            f"\rTraining epochs on cpu:  {20 * (e - 1):2d}%|#         | {e - 1}/5 [00:0{e}<{at}, loss={loss}, prev_loss={prev}]"
            f"\rTraining epochs on cpu:  {20 * e:2d}%|##        | {e}/5 [00:0{e}<00:03,  1.50epoch/s, loss={loss}, "
            f"prev_loss={prev}]"
        )
        prev = str(loss)
    path = write_log("\n".join(lines) + "\n")
    result = api.analyze(str(path))
    assert list(result.steps["step"]) == [1, 2, 3, 4, 5]
    assert list(result.steps["loss"]) == losses
    # a bar whose pace is in epochs counts epochs: its total is the epochs planned
    assert log_facts(frame(path), [])["num_epochs"].value == 5


def test_a_bar_that_shows_its_values_before_its_rate_is_known_reads_every_step():
    # CEBRA 0.6.1 (tests/data/captures/cebra/README.md): the frames at position 0, drawn before tqdm knows a rate
    # (`0/200 [00:00<?, ?it/s]`), already show losses, so the description is set before the position counts the
    # step, and each frame is its own step's
    folder = ROOT / "tests" / "data" / "captures" / "cebra"
    truth = json.loads((folder / "cebra_time_contrastive.total.json").read_text())["total"]
    run = api.resolve(str(folder / "cebra_time_contrastive.log"))
    steps = run.steps.set_index("step")
    assert list(steps.index) == list(range(1, len(truth) + 1))
    for step, total in enumerate(truth, start=1):
        assert steps.at[step, "loss"] == pytest.approx(float(f"{total:.4f}"), abs=1e-9)


def test_a_bar_drawn_only_after_the_training_and_printing_no_training_value_is_no_step(tmp_path):
    # Cornac's Experiment: its model's bar over the epochs with the loss as postfix, then, once the models are fit,
    # `Rating:` and `Ranking:` bars over the test users (cornac/eval_methods/base_method.py), no value of their own
    frames = ["  0%|          | 0/20 [00:00<?, ?it/s]"]
    for n in range(1, 21):
        frames.append(
            f"{5 * n:3d}%|#         | {n}/20 [00:{n:02d}<00:10,  1.{n % 10}0s/it, loss={2 - n / 20:.2f}]"
        )
    ranking = [
        f"Ranking: {n // 10:3d}%|#         | {n}/987 [00:01<00:00, 530.{n % 10}4it/s]"
        for n in range(100, 988, 100)
    ]
    path = tmp_path / "cornac.log"
    path.write_text("\r".join(frames) + "\n" + "\r".join(ranking) + "\n")
    steps = api.resolve(str(path)).steps
    assert steps["step"].max() == 20 and steps["step"].min() >= 1
