"""TensorFlow Estimator's run-hook lines (LoggingTensorHook, StepCounterHook), read end to end from a small file.

The lines are Brokenwind/BertSimilarity's committed logs/train.log (BERT fine-tuned through tf.estimator with
the default RunConfig, log_step_count_steps 100), the evaluation line as estimator.py _dict_to_str writes it.
"""

from __future__ import annotations

import pytest

from tests.frames import evals, frame, steps_of

LOG = """\
INFO:tensorflow:Saving checkpoints for 0 into /tmp/result/model.ckpt.
INFO:tensorflow:loss = 1.0218862, step = 0
INFO:tensorflow:global_step/sec: 0.615146
INFO:tensorflow:loss = 0.5186956, step = 100 (162.563 sec)
INFO:tensorflow:global_step/sec: 0.693925
INFO:tensorflow:loss = 0.35847408, step = 200 (144.108 sec)
INFO:tensorflow:global_step/sec: 0.692983
INFO:tensorflow:loss = 0.39972323, step = 300 (144.304 sec)
INFO:tensorflow:Saving checkpoints for 399 into /tmp/result/model.ckpt.
INFO:tensorflow:Saving dict for global step 399: eval_accuracy = 0.8455882, eval_loss = 0.5052481, global_step = 399, loss = 0.5052481
INFO:tensorflow:Loss for final step: 0.3482466.
"""


def test_the_estimators_lines_are_steps_with_the_step_counters_rate_as_their_time(write_log):
    parsed = frame(write_log(LOG))
    assert parsed.format == "tf_estimator"
    assert steps_of(parsed) == [0, 100, 200, 300]
    rows = parsed.rows[parsed.rows["kind"] == "step"].set_index("step")
    assert rows.loc[100, "loss"] == 0.5186956
    # global_step/sec before the line of the interval's last step: 1 / 0.615146 s a step, which the bracketed
    # seconds of the 100 steps agree with (162.563 / 100)
    assert rows.loc[100, "step_time_s"] == pytest.approx(1 / 0.615146)
    assert rows.loc[100, "step_time_s"] == pytest.approx(162.563 / 100, rel=1e-5)
    assert rows.loc[200, "x_interval_s"] == 144.108
    saves = parsed.events[parsed.events["event"] == "checkpoint_save"]
    assert list(saves["step"]) == [0, 399]
    assert [(e["step"], e["eval_loss"]) for e in evals(parsed)] == [(399, 0.5052481)]
