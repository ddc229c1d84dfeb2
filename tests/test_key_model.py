"""The key model (logparse/patterns/synonyms.toml, keymap.py): what each printed value means, by which rule.

Every key and value below is printed by the public code named beside it; the expected figure is the printed
number converted by what that code divides by (cited), computed by hand in the test."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from logparse import api
from logparse.core.errors import PatternError
from logparse.core.tomlfile import parse_toml
from logparse.frame.assemble import parse_log
from logparse.patterns import keymap
from logparse.patterns import sets as patterns
from tests.frames import frame

MIB = 1 / 1024  # GiB per MiB


@pytest.fixture(scope="module")
def km() -> keymap.KeyMap:
    return keymap.load()


@pytest.mark.parametrize(
    ("line", "want"),
    [
        # huggingface/picotron train.py:248-257: ... f"MFU: {mfu:5.2f}% | Memory usage: {torch.cuda.memory_reserved()
        # / 1e9:6.2f}GB": decimal GB on picotron's own step line
        (
            "[rank 2] Step: {s:<5d} | Loss: 8.5469 | Global batch size:   2.05K | Tokens/s:   1.68K | Tokens/s/GPU:  "
            "209.63 | Tokens:   4.10K | MFU:  0.07% | Memory usage:  21.50GB",
            21.5e9 / 2**30,
        ),
        # ml-explore/mlx-lm mlx_lm/tuner/trainer.py (before v0.32): peak_mem = mx.metal.get_peak_memory() / 1e9, "Iter
        # {it}: Train loss ..., Learning Rate ..., It/sec ..., Tokens/sec ..., Trained Tokens ..., Peak mem {:.3f} GB"
        (
            "Iter {s}: Train loss 1.250, Learning Rate 1.000e-05, It/sec 0.512, Tokens/sec 402.118, Trained Tokens "
            "{s}000, Peak mem 12.500 GB",
            12.5e9 / 2**30,
        ),
        # the same key on another printer's line keeps the binary default (DeepSpeed-style / 1024**3)
        ("step {s} | loss 2.1 | lr 1e-4 | Memory usage: 21.50GB", 21.5),
    ],
)
def test_a_known_printers_memory_is_read_in_the_units_it_divides_by(write_log, line, want):
    # (the generic reading: mlx-lm's own set reads its log as SI; a loop that copies its line has no set)
    parsed = frame(write_log("\n".join(line.format(s=s) for s in range(1, 5)) + "\n"), without="mlx_lm")
    assert parsed.format == "generic"
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert list(rows["step"]) == [1, 2, 3, 4]
    assert rows["memory_gib"].iloc[2] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(
    ("key", "value", "column", "want"),
    [
        # detectron2/utils/events.py CommonMetricPrinter: max_memory_allocated() / 1024.0 / 1024.0, "max_mem: {:.0f}M"
        ("max_mem", "1962M", "memory_gib", 1962 * MIB),
        # mmcv TextLoggerHook / mmengine get_max_cuda_memory: // (1024 * 1024), printed bare: "memory: 3086"
        ("memory", "3086", "memory_gib", 3086 * MIB),
        # torchvision references/classification/utils.py MetricLogger: MB = 1024.0 * 1024.0, "max mem: {memory:.0f}"
        ("max mem", "5004", "memory_gib", 5004 * MIB),
        # DeepSpeed deepspeed/utils/timer.py ThroughputTimer: max_memory_allocated() / 1024**3, "MaxMemAllocated={}GB"
        ("MaxMemAllocated", "9.02GB", "memory_gib", 9.02),
        # PaddleOCR tools/program.py: max_memory_allocated() // (1024 ** 2), "max_mem_allocated: 10599 MB"
        ("max_mem_allocated", "10599 MB", "memory_gib", 10599 * MIB),
        # a loop that prints max_memory_allocated() / (1024.0 * 1024.0) as "Mem:{} MB"
        ("Mem", "1234 MB", "memory_gib", 1234 * MIB),
        # a trainer's f"peak_mem(M): {peak_mem_byte / 1024 / 1024:.1f}"
        ("peak_mem(M)", "9760.3", "memory_gib", 9760.3 * MIB),
        # ms-swift's log dict 'memory(GiB)': '14.3' (tests/data/public/ms_swift_qwen2vl_lora_notebook.log)
        ("memory(GiB)", "14.3", "memory_gib", 14.3),
        # prime-rl's SFT trainer: f"Peak Mem.: {peak_memory:.1f}/{max_memory:.1f} GiB" (used of the device's total)
        ("Peak Mem.", "29.0/31.0 GiB", "memory_gib", 29.0),
        # facebookresearch/SlowFast slowfast/utils/misc.py gpu_mem_usage(): max_memory_allocated() / 1024**3, printed
        # as "gpu_mem": "{:.2f}G" (YOLOv5's GPU_mem column is SI on its own table's line only: the printers' test)
        ("gpu_mem", "4.68G", "memory_gib", 4.68),
        # a bare decimal is GiB (mlx-lm's metrics dict "peak_memory": 1.234, tests/data/captures/mlx_lm)
        ("peak_memory", "1.234", "memory_gib", 1.234),
        # NVlabs/stylegan2-ada training/training_loop.py: f"gpumem {... peak_gpu_mem_op.eval() / 2**30:<5.1f}": a
        # name of the table (gpu_mem) written as one word, a bare decimal (GiB)
        ("gpumem", "8.9", "memory_gib", 8.9),
        # ... but not one of 1024 or more, which no device holds as GiB: facebookresearch/ijepa src/train.py logs
        # "[mem: %.2e]" % (torch.cuda.max_memory_allocated() / 1024.**2), MiB: 4.92e+04 is 48.05 GiB
        ("mem", "4.92e+04", "memory_gib", 49200 * MIB),
        # a device word among a memory key's words says where it is measured: mlc-ai/pith-train
        # pithtrain/tasks/pretrain_lm.py "peak-gpu-memory %.2f GB" of max_memory_allocated() / 1024**3; allenai/OLMo
        # olmo/train.py Trainer.system_metrics "System/Peak GPU Memory (MB)" (peak_gpu_memory(): / 1024**2, MiB)
        ("peak-gpu-memory", "63.65 GB", "memory_gib", 63.65),
        ("Peak GPU Memory (MB)", "20480", "memory_gib", 20.0),
    ],
)
def test_memory_is_read_as_its_printing_code_divides(km, key, value, column, want):
    m = km.read(key, value)
    assert (m.column, m.kind) == (column, "column")
    assert m.convert(value) == pytest.approx(want, rel=1e-12)
    if m.use.scale is not None:  # the summary's scale takes the printed number to the column's value
        assert keymap.split_quantity(value)[0] * m.use.scale == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(
    ("key", "value", "column", "want", "rule"),
    [
        # PaddleSeg paddleseg/core/train.py: "batch_cost: {:.4f}" is the mean seconds of a batch
        ("batch_cost", "0.1234", "step_time_s", 0.1234, "name"),
        # evjeny/EAST train.py: 'time consumption is {:.8f}', the seconds of the batch's forward, backward and update
        ("time consumption", "1.32521653", "step_time_s", 1.32521653, "name"),
        # dl4mt's trainer (fducau/CWord nmt.py): 'UD {}', the seconds of the one update
        ("UD", "0.976931095123", "step_time_s", 0.976931095123, "name"),
        # CNTK's 2015 SGD: "Ave Learn Rate Per Sample = %.10g" (microsoft/CNTK ExampleSetups/LM/LSTMLM/ExpectedResults.log)
        ("Ave Learn Rate Per Sample", "0.009999999776", "lr", 0.009999999776, "name"),
        # kh-kim/simple-nmt: "|param|={:.2e} |g_param|={:.2e} loss={:.4e} ppl={:.2f}"
        ("|g_param|", "3.32e+05", "grad_norm", 3.32e05, "bars"),
        # Seq2SeqSharp: "WordPerSec = '{}'"; Marian: "{:.2f} words/s"
        ("WordPerSec", "39515.27", "tokens_per_s", 39515.27, "spelling"),
        ("words/s", "12345.67", "tokens_per_s", 12345.67, "name"),
        ("Iteration time", "79.064s", "step_time_s", 79.064, "name"),
        # InternEvo internlm/train/pipeline.py record_current_batch_training_metrics: infos["tflops"] (per GPU),
        # infos["tgs (tokens/gpu/second)"], grad_norm_dict = {f"grad_norm/{k}": v} with one group "0_default"
        ("tflops", "171.92", "reported_tflops_per_gpu", 171.92, "name"),
        ("tgs (tokens/gpu/second)", "1424.93", "tokens_per_s_per_gpu", 1424.93, "gloss"),
        ("grad_norm/0_default", "66.51907327507652", "grad_norm", 66.51907327507652, "group"),
        # prime-rl's SFT trainer: "Grad. Norm: {grad_norm:.4f}"
        ("Grad. Norm", "5.0", "grad_norm", 5.0, "spelling"),
        # slime/Miles's metrics dict: 'train/grad_norm', 'train/lr-pg_0' (Megatron's first parameter group)
        ("train/grad_norm", "2.0", "grad_norm", 2.0, "prefix"),
        ("train/lr-pg_0", "2e-5", "lr", 2e-5, "prefix+group"),
        # ESPnet espnet2/train/trainer.py: f"lr_{i}" per parameter group; scepter's _print_iter_log: "pg0_lr"
        ("lr_0", "0.100", "lr", 0.1, "group"),
        ("pg0_lr", "0.000100", "lr", 1e-4, "group"),
        # scepter's _print_iter_log: "scale: 65536.000000" (the AMP scaler's scale)
        ("scale", "65536.000000", "loss_scale", 65536.0, "name"),
        # ms-swift's log dict: 'train_speed(s/it)': '42.51'
        ("train_speed(s/it)", "42.51", "step_time_s", 42.51, "gloss"),
        # open_clip src/training/train.py: "Batch (t): {batch_time_m.avg:.3f}", the seconds of a batch
        ("Batch (t)", "18.240", "step_time_s", 18.24, "gloss"),
        # HiFi-GAN train.py (jik876/hifi-gan, and the vocoders and voice converters that fork it): "Steps : {:d}, Gen
        # Loss Total : {:4.3f}, Mel-Spec. Error : {:4.3f}, s/b : {:4.3f}" with time.time() - start_b, seconds a batch
        ("s/b", "1.131", "step_time_s", 1.131, "unit"),
        ("ms/b", "250.0", "step_time_s", 0.25, "unit"),
        # a tqdm rate: seconds per step is its inverse
        ("it/s", "2.78", "step_time_s", 1 / 2.78, "name"),
        # PaddleSeg: "ips: {:.4f} samples/sec" read as a value then its unit
        ("samples/sec", "12.5", "samples_per_s", 12.5, "name"),
        # open_clip's "Batch (t): 18.240, 1.75441/s": a rate with no noun, samples per second
        ("/s", "1.75441", "samples_per_s", 1.75441, "name"),
        # Lightning's CSVLogger metrics.csv header (StableSR's log): self.log(on_step=True, on_epoch=True) -> _step
        ("train/loss_step", "0.25144094228744507", "loss", 0.25144094228744507, "prefix+suffix"),
        # an evaluation's prefix before a loss name
        ("val/lm_loss", "2.5", "eval_loss", 2.5, "eval"),
        # a namespace that groups metrics says where a value is logged, not what it is: mosaicml/composer
        # composer/callbacks/speed_monitor.py logger.log_metrics({'throughput/samples_per_sec': throughput}) (the
        # whole job's); volcengine/verl metrics["perf/max_memory_allocated_gb"] = max_memory_allocated() / (1024**3)
        ("throughput/samples_per_sec", "812.5", "samples_per_s", 812.5, "namespace"),
        ("perf/max_memory_allocated_gb", "46.6", "memory_gib", 46.6, "namespace+unit"),
        # a device word after a rate makes it one device's (a key spelled in units: [units] puts quantity, time, device in
        # order): print(f"Tok/sec/gpu {toks_per_sec_per_gpu}"); print(f"{throughput['samples_per_sec_per_device']:.2f}
        # samples/sec/device (effective)")
        ("Tok/sec/gpu", "3200.5", "tokens_per_s_per_gpu", 3200.5, "units"),
        ("samples/sec/device", "45.10", "samples_per_s_per_gpu", 45.1, "units"),
        # units joined by the word `per`: 9178nekomc/LingJie-Chat-v2-Pro pretrain.py logs one JSON dict a step,
        # {"step": ..., "loss": ..., "lr": ..., "tok_per_s": ..., "eta_hours": ...}
        ("tok_per_s", "83331.52", "tokens_per_s", 83331.52, "units"),
        # harishvs/rl_grpo_qwen_math: "step:N | ... | step_time_seconds={:.4f} | throughput_samples_per_sec={:.4f}"
        # (the step's seconds, the job's samples a second); a unit word after the key, a metric kind before it
        ("step_time_seconds", "15.5051", "step_time_s", 15.5051, "unit"),
        ("throughput_samples_per_sec", "16.5107", "samples_per_s", 16.5107, "namespace"),
        # Rocket-Ramuel/Aria-AI aria/pretrain.py: "... lr {lr:.2e}  |g| {gnorm:.2f}  {elapsed:.1f}m": the norm of g,
        # the gradient, written between bars
        ("|g|", "4.55", "grad_norm", 4.55, "bars"),
        # Tianshi-Xu/assignment5-alignment cs336_alignment/rl.py: "rl_loss: {}, time: {}, l2_norm: {}, ..." with
        # l2_norm the gradient's norm before clipping (a norm named by its kind, as build-nanogpt's `norm`)
        ("l2_norm", "0.1688903421163559", "grad_norm", 0.1688903421163559, "name"),
        # tensorflow/hub examples/image_retraining/retrain.py: '%s: Step %d: Cross entropy = %f' (the loss it minimizes)
        ("Cross entropy", "0.012275", "loss", 0.012275, "name"),
        # an SFT warm start's JSON line: "supervised_tokens_per_second" = cumulative supervised tokens / elapsed
        ("supervised_tokens_per_second", "864.1828047269457", "tokens_per_s", 864.1828047269457, "prefix"),
        # Oneflow-Inc/models' DeepFM/DLRM loops: f"..., Loss {loss:0.4f}, Latency {latency:0.3f} ms, ..."
        ("Latency", "18.266", "step_time_s", 18.266, "name"),
        # a second in another language's word: dichev/deep-learning-from-scratch's GPT-2 reproduction logs
        # "... | loss=... | tok/sek=56718.7 | duration=9.2 sec"
        ("tok/sek", "56718.7", "tokens_per_s", 56718.7, "name"),
        # a word before a rate that says it is the whole job's: linskybing/LLM run/pretrain.py f"Global Tokens/s:
        # {tokens_per_sec:.2f}" of the tokens all-reduced (SUM) over the ranks
        ("Global Tokens/s", "5871.81", "tokens_per_s", 5871.81, "scope"),
        # a unit in words in the key's bracket: the image-captioning notebook's 'Time (mins): %.3f' of
        # (time.time() - start_time) / 60, minutes (0.015 min = 0.9 s)
        ("Time (mins)", "0.015", "step_time_s", 0.015 * 60, "unit"),
        ("time (hours)", "0.5", "step_time_s", 0.5 * 3600, "unit"),
        # an evaluation's loss named with its statistic: a distillation demo's 'eval mean loss: %f' (the mean over the
        # evaluated batches), and the same with the words in other orders
        ("eval mean loss", "0.312124", "eval_loss", 0.312124, "spelling"),
        # a CRF tagger's objective by its name (Louis-udm/NER-BERT-CRF: 'Negative loglikelihood: {}')
        ("Negative loglikelihood", "9806.498046875", "loss", 9806.498046875, "name"),
        ("val_avg_loss", "0.5", "eval_loss", 0.5, "spelling"),
        ("avg val loss", "0.5", "eval_loss", 0.5, "spelling"),
    ],
)
def test_known_quantities_under_other_names(km, key, value, column, want, rule):
    m = km.read(key, value)
    assert (m.column, m.use.rule) == (column, rule)
    assert m.convert(value) == pytest.approx(want, rel=1e-12)
    assert m.use.why  # every key says why


@pytest.mark.parametrize(
    ("key", "value", "kind", "column"),
    [
        # detectron2 "data_time: {:.4f}" and torchvision's MetricLogger "data: {data}": the data wait, seconds,
        # never the step's time; kept under one name in seconds (open_clip's "Data (t)" likewise)
        ("data_time", "0.0375", "kept", "x_data_time_s"),
        ("data", "0.0003", "kept", "x_data_time_s"),
        ("Data (t)", "14.173", "kept", "x_data_time_s"),
        # detectron2 "eta: 0:43:51": time left, no value of the step
        ("eta", "0:43:51", "skipped", None),
        # Lightning's LearningRateMonitor logs lr-SGD-momentum beside lr-SGD: the momentum, no learning rate
        ("lr-SGD-momentum", "0.9", "kept", "x_lr_sgd_momentum"),
        # open_clip's "Logit Scale: 100.000" is the model's temperature, no loss scale
        ("Logit Scale", "100.000", "kept", "x_logit_scale"),
        # ... but a namespace that says whose it is keeps it apart: composer's per-device rate
        # 'throughput/device/samples_per_sec' (throughput / world_size), an RL critic's gradient norm, an
        # evaluation's accuracy
        ("throughput/device/samples_per_sec", "101.5", "kept", "x_throughput_device_samples_per_sec"),
        ("critic/grad_norm", "0.52", "kept", "x_critic_grad_norm"),
        # a unit alone after a slash is a rate's denominator, no name under a namespace: nerfstudio's
        # "Train Rays / Sec" column (nerfstudio/utils/writer.py: rays per second), never a time per step
        ("Rays/Sec", "14.86", "kept", "x_rays_sec"),
        # bars make a norm of what they name, the gradient's only where that is the gradient: |w| is the weights'
        ("|w|", "31.5", "kept", "x_w"),
    ],
)
def test_what_is_no_step_column_is_kept_or_skipped_and_says_so(km, key, value, kind, column):
    m = km.read(key, value)
    assert (m.kind, m.column) == (kind, column)
    assert m.use.why


# a detectron2 log (facebookresearch/detectron2#3363): total_loss and its five parts, no key named loss
DETECTRON2 = [
    "[08/14 10:26:13 d2.utils.events]:  eta: 0:43:51  iter: 6319  total_loss: 0.4072  loss_cls: 0.06762  "
    "loss_box_reg: 0.05153  loss_mask: 0.1505  loss_rpn_cls: 0.05607  loss_rpn_loc: 0.07071  time: 0.4464  "
    "data_time: 0.0375  lr: 0.0003  max_mem: 1962M",
    "[08/14 10:26:23 d2.utils.events]:  eta: 0:43:46  iter: 6339  total_loss: 0.4602  loss_cls: 0.07815  "
    "loss_box_reg: 0.06772  loss_mask: 0.1435  loss_rpn_cls: 0.07034  loss_rpn_loc: 0.0963  time: 0.4465  "
    "data_time: 0.0297  lr: 0.0003  max_mem: 1962M",
]


def test_the_total_is_the_loss_and_its_parts_are_kept(write_log):
    """detectron2/engine/train_loop.py SimpleTrainer.run_step backpropagates sum(loss_dict.values()), printed as
    total_loss beside its parts: the total is the run's loss, each part an x_ column."""
    parsed = parse_log(str(write_log("\n".join(DETECTRON2) + "\n")), patterns.load_sets())
    rows = parsed.rows.set_index("step")
    assert list(rows["loss"]) == [0.4072, 0.4602]
    assert list(rows["x_loss_cls"]) == [0.06762, 0.07815]
    assert list(rows["x_loss_rpn_loc"]) == [0.07071, 0.0963]
    assert list(rows["memory_gib"]) == [1962 / 1024] * 2
    assert list(rows["x_data_time_s"]) == [0.0375, 0.0297]
    assert "x_eta" not in rows and "x_total_loss" not in rows


def test_a_splits_distance_beside_a_regularizers_loss_is_the_loss_and_the_other_splits_the_evaluations(km):
    # 20070316lbw-netizen/ant-transformer: f"Epoch {e:02d} | Train MSE: {tr:.6f} | Gate Loss: {g:.4f} | Val MSE:
    # {va:.6f} | Val Corr: {c:.4f}", the regression's MSE on each split beside the gate's regularizing loss
    line = ("Epoch", "Train MSE", "Gate Loss", "Val MSE", "Val Corr")
    assert km.read("Train MSE", "0.169694", line=line).column == "loss"
    assert km.read("Val MSE", "0.033077", line=line).column == "eval_loss"
    assert km.read("Gate Loss", "0.4731", line=line).column == "x_gate_loss"


def test_the_summary_says_what_each_key_became_and_by_which_rule(write_log):
    s = api.analyze(write_log("\n".join(DETECTRON2 * 3) + "\n")).summary["generic"]
    keys = s["keys"]
    assert keys["total_loss"]["column"] == "loss" and keys["total_loss"]["rule"] == "loss"
    assert keys["loss_cls"] == {
        "kind": "kept",
        "column": "x_loss_cls",
        "rule": "kept+loss",
        "unit": None,
        "scale": 1.0,
        "why": "a part of the loss 'total_loss'",
    }
    assert keys["max_mem"]["column"] == "memory_gib" and keys["max_mem"]["unit"] == "M"
    assert keys["max_mem"]["scale"] == 1 / 1024
    assert keys["eta"]["kind"] == "skipped" and keys["eta"]["column"] is None
    assert keys["data_time"]["kind"] == "kept" and keys["data_time"]["rule"] == "known"
    assert set(s["rules"]) == {"loss", "memory"}
    said = keymap.load().rules
    assert s["rules"]["memory"] == said["memory"] and "1024" in said["memory"]
    assert s["mapped"]["total_loss"] == "loss" and s["kept"]["loss_cls"] == "x_loss_cls"  # as before
    json.dumps(s)  # plain JSON


def test_the_only_loss_like_key_is_the_loss(write_log):
    """ClearerVoice-Studio's train log prints one loss, Mask_Loss (modelscope/ClearerVoice-Studio#4)."""
    log = write_log(
        "Train Epoch: 0/100 Step: 10/965 | 2.057s/batch | lr 5.0000e-04 || Mask_Loss 1.6780\n"
        "Train Epoch: 0/100 Step: 20/965 | 1.407s/batch | lr 5.0000e-04 || Mask_Loss 1.7014\n"
    )
    rows = parse_log(str(log), patterns.load_sets()).rows
    assert list(rows["loss"]) == [1.678, 1.7014]
    assert list(rows["step_time_s"]) == [2.057, 1.407]


@pytest.mark.parametrize(
    ("keys", "loss", "kept"),
    [
        # mmengine prints loss (the sum parse_losses makes) then its parts: loss is named, the parts kept
        (
            ("grad_norm", "loss", "loss_cls", "loss_bbox", "loss_dfl"),
            "loss",
            ("loss_cls", "loss_bbox", "loss_dfl"),
        ),
        # YOLOv5 prints the running means of box, obj and cls loss and optimizes (lbox + lobj + lcls) * bs, never
        # printed (utils/loss.py ComputeLoss): no loss, the parts kept
        (
            ("GPU_mem", "box_loss", "obj_loss", "cls_loss", "Instances", "Size"),
            None,
            ("box_loss", "obj_loss", "cls_loss"),
        ),
        # OddFunction0205/clora-'s training_step: f'loss: {loss:.4f}, orth_loss: {orth:.4f}, total_loss: {total:.4f}'
        # with total_loss = loss + orth_loss, the sum it backpropagates: the total of the named loss and its term
        (
            ("loss", "orth_loss", "total_loss", "grad_norm"),
            "total_loss",
            ("loss", "orth_loss"),
        ),
        # facebookresearch/vggt's meters: the objective it backpropagates beside its terms, all under `Loss/`
        (
            ("Batch Time", "Loss/train_loss_objective", "Loss/train_loss_camera", "Loss/train_loss_T"),
            "Loss/train_loss_objective",
            ("Loss/train_loss_camera", "Loss/train_loss_T"),
        ),
        # BasicSR's MessageLogger prints its loss_dict's keys: SRModel's one 'l_pix' is the loss; SRGANModel's
        # 'l_g_pix', 'l_g_gan', 'l_d_real', 'l_d_fake' are two models' parts, no total
        (("lr", "l_pix"), "l_pix", ()),
        (
            ("l_g_pix", "l_g_gan", "l_d_real", "l_d_fake"),
            None,
            ("l_g_pix", "l_g_gan", "l_d_real", "l_d_fake"),
        ),
        # kohya-ss sd-scripts' tqdm postfix: the moving average of the loss, the only one
        (("avr_loss",), "avr_loss", ()),
        # a loss under another model's namespace (verl's critic/vf_loss beside actor/entropy on one line) is no
        # run's loss; loss_scale is no loss
        (("actor/entropy", "critic/vf_loss", "loss_scale"), None, ("critic/vf_loss",)),
        # chainer's PrintReport: every training key under the main optimizer's `main/`, the line's one namespace
        (
            ("epoch", "main/loss", "main/accuracy", "validation/main/loss", "elapsed_time"),
            "main/loss",
            (),
        ),
        # tianshou's PPO postfix: loss is named; loss/clip is a clip term
        (("env_step", "len", "loss", "loss/clip", "loss/ent", "loss/vf"), "loss", ("loss/ent", "loss/vf")),
        # an evaluation's loss is never the training loss
        (("val_mask_loss", "mask_loss"), "mask_loss", ("val_mask_loss",)),
        # OpenNMT-py onmt/utils/statistics.py Statistics.output: "Step %s; acc: %6.2f; ppl: %5.2f; xent: %4.2f; lr:
        # %7.5f; ..." (xent the cross-entropy per target token, ppl its exponential): no key named loss
        (("acc", "ppl", "xent", "lr"), "xent", ()),
        # audiocraft audiocraft/solvers/musicgen.py MusicGenSolver.run_step: metrics['ce'] = ce, metrics['ppl'] =
        # torch.exp(ce), and per codebook metrics[f'ce_q{k + 1}'] (ce is their mean, the loss it backpropagates)
        (("lr", "grad_norm", "grad_scale", "ce", "ppl", "duration"), "ce", ()),
        (("ce", "ppl", "ce_q1", "ppl_q1", "ce_q2", "ppl_q2"), "ce", ("ce_q1", "ce_q2")),
        # microsoft/LMOps MiniLLM's PPO trainer: "tot_loss: 6.2529 | rl_loss: 3.2390 | pt_loss: 3.0139 | pg_loss:
        # 0.4003 | reg_loss: 2.8388 | ..." (tot_loss = rl_loss + pt_loss): `tot` abbreviates the total
        (
            ("tot_loss", "rl_loss", "pt_loss", "pg_loss", "reg_loss", "lr"),
            "tot_loss",
            ("rl_loss", "pt_loss", "pg_loss", "reg_loss"),
        ),
        # JiaYaobo/SPINN-AM: "Step: {}, All Loss: {}, Smooth Loss: {}, Unpen Loss: {}": all of the objective's terms
        (("Step", "All Loss", "Smooth Loss", "Unpen Loss"), "All Loss", ("Smooth Loss", "Unpen Loss")),
        # Marian src/training/scheduler.h: "Ep. {} : Up. {} : Sen. {} : Cost {:.8f} : Time {:.2f}s : {:.2f} words/s"
        # (the training objective), PaddlePaddle v2's "Pass %d, Batch %d, Cost %f, %s": the cost is the loss
        (("Ep.", "Up.", "Sen.", "Cost", "Time", "words/s"), "Cost", ()),
        (("Pass", "Batch", "Cost"), "Cost", ()),
        # a cost of time is no loss: PaddleDetection's "batch_cost: {btime} data_cost: {dtime}", GluonNLP
        # run_squad.py's "Time cost=%.2f" beside a line's loss
        (("loss", "batch_cost", "data_cost"), "loss", ()),
        (("Time cost", "LR"), None, ()),
        # facebookresearch/XLM xlm/trainer.py print_stats: each objective's stat '{}: {:7.4f}' under 'MLM-%s' % lang
        # or 'CLM-%s' % lang (the mean of its steps' loss.item()): one objective is the loss; two, each with its
        # own optimizer step, and no total: none
        (("sent/s", "words/s", "MLM-en", "model LR"), "MLM-en", ()),
        (("sent/s", "words/s", "CLM-en", "MLM-en", "model LR"), None, ("CLM-en", "MLM-en")),
        # aws-samples/deep-learning-models models/nlp/albert/run_pretraining.py: f"Loss: {loss:.3f}, MLM:
        # {mlm_loss:.3f}, SOP: {sop_loss:.3f}, MLM_acc: {mlm_acc:.3f}, SOP_acc: {sop_acc:.3f}": the masked LM's
        # accuracy is no loss
        (("Loss", "MLM", "SOP", "MLM_acc", "SOP_acc", "It/s"), "Loss", ("MLM",)),
        # an auxiliary term added to the objective is no objective of its own: allenai/OLMo olmo/train.py
        # Trainer.train_step metrics["train/CrossEntropyLoss"], ["train/ZLoss"], ["train/LoadBalancingLoss"];
        # mlc-ai/pith-train pithtrain/tasks/pretrain_lm.py "cross-entropy-loss %.4f | load-balance-loss %.6f"
        (
            ("train/CrossEntropyLoss", "train/Perplexity", "train/ZLoss", "train/LoadBalancingLoss"),
            "train/CrossEntropyLoss",
            ("train/ZLoss", "train/LoadBalancingLoss"),
        ),
        (
            ("step-time", "cross-entropy-loss", "load-balance-loss", "learning-rate", "gradient-norm"),
            "cross-entropy-loss",
            ("load-balance-loss",),
        ),
        # awslabs/dgl-ke dglke/train_pytorch.py logs '[proc {}][Train]({}/{}) average {}: {}' for each of its logs'
        # keys, pos_loss, neg_loss, loss (their mean) and regularization: the loss with no name of its own
        (
            ("average pos_loss", "average neg_loss", "average loss", "average regularization"),
            "average loss",
            ("average pos_loss", "average neg_loss"),
        ),
        # ... but two losses named apart and none plain: no total
        (("average pos_loss", "average neg_loss"), None, ("average pos_loss", "average neg_loss")),
        # a total of no other name beside a named loss and the other terms: Steel-skull/CWT-V5.6 train_v5.py logs
        # {"lm_loss": ..., "depth_reg_loss": ..., "distill_loss": ..., "total_loss": ...}, the sum it backpropagates
        (
            ("lm_loss", "depth_reg_loss", "distill_loss", "total_loss", "lr"),
            "total_loss",
            ("lm_loss", "depth_reg_loss", "distill_loss"),
        ),
        # a loss word in the plural beside its parts named after it: semchan/NLUT's train loop prints "loss_mn: ...
        # loss_c: ... loss_s: ... loss_mse: ... losses: ...", the weighted sum it backpropagates
        (
            ("loss_mn", "loss_c", "loss_s", "loss_mse", "losses"),
            "losses",
            ("loss_mn", "loss_c", "loss_s", "loss_mse"),
        ),
        # of several totals, the total of nothing named: MOTIP's train metrics print overall_loss beside
        # overall_detr_loss and overall_id_loss, the totals of its detection and identity parts
        (
            ("overall_loss", "overall_detr_loss", "cls_loss", "overall_id_loss", "id_loss"),
            "overall_loss",
            ("overall_detr_loss", "cls_loss", "overall_id_loss", "id_loss"),
        ),
    ],
)
def test_which_key_is_the_loss(km, keys, loss, kept):
    line = km.line(keys, "step")
    losses = [k for k, m in line.mapped.items() if m.column == "loss"]
    assert losses == ([loss] if loss else [])
    assert tuple(k for k, (rule, _) in line.kept.items() if rule == "loss") == kept
    assert all(why for _, why in line.kept.values())


@pytest.mark.parametrize(
    "keys, loss, eval_loss",
    [
        # huggingface/peft examples/causal_language_modeling/peft_prompt_tuning_clm.ipynb: f"{epoch=}: {train_ppl=}
        # {train_epoch_loss=} {eval_ppl=} {eval_epoch_loss=}"
        (
            ("train_ppl", "train_epoch_loss", "eval_ppl", "eval_epoch_loss"),
            "train_epoch_loss",
            "eval_epoch_loss",
        ),
        # a copy of it: print(f"epoch={epoch}: train_ppl={train_ppl} ... eval_epoch_loss={eval_epoch_loss}") with
        # "val_" for the evaluation's prefix
        (
            ("train_ppl", "train_epoch_loss", "val_ppl", "val_epoch_loss"),
            "train_epoch_loss",
            "val_epoch_loss",
        ),
        # the stages named inside the key, a word swapped: a training script's csv.writer header "Epoch,Total
        # Steps,Avg Training Loss,Avg Validation Loss,Time per Epoch (seconds)"
        (
            ("Epoch", "Avg Training Loss", "Avg Validation Loss"),
            "Avg Training Loss",
            "Avg Validation Loss",
        ),
        # two words differ: not one quantity of two stages
        (("Avg Training Loss", "Min Validation Loss"), "Avg Training Loss", None),
        # no stage named on the loss: the evaluation's loss stays kept
        (("mask_loss", "val_mask_loss"), "mask_loss", None),
        # two evaluations' losses of that name: which is not said
        (("train_ce_loss", "val_ce_loss", "test_ce_loss"), "train_ce_loss", None),
        # shchur/ifl-tpp: 'loss_train_last_batch = {:.4f}, loss_val = {:.4f}, mae_val={:.4f}, rmse_val={:.4f}'
        (
            ("Epoch", "loss_train_last_batch", "loss_val", "mae_val", "rmse_val"),
            "loss_train_last_batch",
            "loss_val",
        ),
        # chainer's PrintReport: the Evaluator reports under 'validation/' the names the training reports
        (
            ("epoch", "main/loss", "main/accuracy", "validation/main/loss", "validation/main/accuracy"),
            "main/loss",
            "validation/main/loss",
        ),
    ],
)
def test_the_evaluations_loss_named_as_the_loss_is_the_eval_loss(km, keys, loss, eval_loss):
    line = km.line(keys, "step")
    columns = {m.column: k for k, m in line.mapped.items()}
    assert columns.get("loss") == loss
    assert columns.get("eval_loss") == eval_loss


def test_the_first_parameter_group_is_the_learning_rate(km):
    """Lightning's LearningRateMonitor: lr-<Optimizer>/pg1, /pg2 for two parameter groups; the lr column is the
    first group's (core/schema.py)."""
    line = km.line(("lr-AdamW/pg1", "lr-AdamW/pg2"), "step")
    assert line.mapped["lr-AdamW/pg1"].column == "lr"
    assert "lr-AdamW/pg2" not in line.mapped and line.kept["lr-AdamW/pg2"][0] == "group"
    # a gradient norm per group is the norm only when it is the one group printed, or a total
    two = km.line(("grad_norm/decoder", "grad_norm/encoder"), "step")
    assert not two.mapped and len(two.kept) == 2
    total = km.line(("grad_norm/encoder", "grad_norm/total"), "step")
    assert total.mapped["grad_norm/total"].column == "grad_norm"


def test_a_rate_of_no_scope_beside_the_whole_jobs_is_one_devices(km):
    # RamonKaspar/Large-Scale-AI-Engineering-Project src/train.py: "Tokens per second: {tps} | ... | Global tokens/sec:
    # {total_tps}", tps = ntokens / time_delta / world_size
    line = km.line(("Step", "Loss", "Tokens per second", "Global tokens/sec"), "step")
    assert line.mapped["Global tokens/sec"].column == "tokens_per_s"
    assert line.mapped["Tokens per second"].column == "tokens_per_s_per_gpu"
    assert line.mapped["Tokens per second"].rule == "beside"
    # alone on its line, a rate of no scope keeps the convention: the whole job's
    assert km.line(("Step", "Tokens per second"), "step").mapped["Tokens per second"].column == "tokens_per_s"


def test_learning_rates_of_groups_named_by_their_module_are_read_the_first(km):
    # VIOLETv2's fine-tuning loop: "ep: %d, step: %d, lr_swin: %.2e, lr_bert: %.2e, max memory: %s"
    line = km.line(("ep", "step", "lr_swin", "lr_bert", "max memory"), "step")
    assert [k for k, m in line.mapped.items() if m.column == "lr"] == ["lr_swin"]
    assert line.kept["lr_bert"][0] == "group"
    # one such key alone names no group, and a plain lr wins over named ones
    assert all(m.column != "lr" for m in km.line(("step", "lr_decay", "loss"), "step").mapped.values())
    plain = km.line(("step", "lr", "lr_swin", "lr_bert"), "step")
    assert [k for k, m in plain.mapped.items() if m.column == "lr"] == ["lr"]


def test_read_gives_what_the_line_reading_gives(km, write_log):
    """KeyMap.read (the inferred reading's entry) agrees with the generic reading on every key of a line."""
    line = DETECTRON2[0]
    pairs = [
        (m.group("key").strip(), m.group("value"))
        for m in patterns.load_sets()["generic"].lines[1].pairs.finditer(line)
    ]
    keys = tuple(k for k, _ in pairs)
    row = parse_log(str(write_log(line + "\n")), patterns.load_sets()).rows.iloc[0]
    for key, value in pairs:
        m = km.read(key, value, line=keys)
        if m.kind == "skipped":
            continue
        assert row[m.column] == pytest.approx(m.convert(value), rel=1e-12), key


WRITTEN = r"""
[format]
name = "written"
title = "written from the log"
detect = ['d2\.utils\.events']

[[line]]
name = "step"
kind = "step"
regex = 'iter: (?P<step>\d+)  total_loss: (?P<loss>[\d.]+)  loss_cls: (?P<x_loss_cls>[\d.]+)'
fields.step = { column = "step", type = "int" }
fields.loss = { column = "loss" }
fields.x_loss_cls = { column = "x_loss_cls" }

[[sample]]
line = "[08/14 10:26:13 d2.utils.events]:  eta: 0:43:51  iter: 6319  total_loss: 0.4072  loss_cls: 0.06762"
expect = { step = 6319, loss = 0.4072, x_loss_cls = 0.06762 }
"""


def test_a_set_written_from_the_log_says_what_its_keys_became(km, write_log):
    """A set whose fields name the columns (what the inferred reading writes) hands the key model's account of
    each field's key to the summary's generic block through LineSpec.key_uses, once per log."""
    data = parse_toml(WRITTEN.encode(), Path("written.toml"), PatternError)
    written = patterns.parse_pattern_set(data, "written.toml", validate=False)
    keys = ("iter", "total_loss", "loss_cls")
    uses = [km.read(k, v, line=keys).noted for k, v in zip(keys, ("6319", "0.4072", "0.06762"), strict=True)]
    written.lines[0].key_uses = tuple(uses)
    parsed = parse_log(str(write_log("\n".join(DETECTRON2) + "\n")), {"written": written})
    assert list(parsed.rows["loss"]) == [0.4072, 0.4602]
    assert parsed.keymap["mapped"]["total_loss"].rule == "loss"
    assert parsed.keymap["kept"]["loss_cls"].why == "a part of the loss 'total_loss'"
    assert "iter" in parsed.keymap["skipped"]


def test_what_a_key_became_survives_a_pickle(km):
    """The parallel reader's workers send the key notes back pickled."""
    use = km.read("max_mem", "1962M").use
    back = pickle.loads(pickle.dumps(use))
    assert (str(back), back.rule, back.unit, back.scale, back.why) == (
        str(use),
        use.rule,
        use.unit,
        use.scale,
        use.why,
    )


@pytest.mark.parametrize(
    ("toml", "says"),
    [
        ('[loss]\nwords = "loss"\n', "words must be a list"),
        ('[skip.eta]\nkeys = ["eta"]\n', "needs keys"),
        ('[groups]\nfirst = ["learning_rate"]\n', "unknown column"),
        ('[known.Data]\nkeys = ["data"]\n', "lower case"),
        ('[decimal]\nkeys = "gpu_mem"\n', "keys must be a list"),
    ],
)
def test_the_key_model_tables_are_checked(tmp_path, toml, says):
    bad = tmp_path / "syn.toml"
    bad.write_text(toml)
    with pytest.raises(PatternError, match=says):
        keymap.load(bad)


@pytest.mark.parametrize(
    "key,fact",
    [
        # a count spelled out: `number of X` is the count a num_X key names
        ("Number of training steps", "train_iters"),  # num_train_steps
        ("Total number of training steps", "train_iters"),
        ("number_of_iterations", "train_iters"),  # num_iterations
        ("Number of train epochs", "num_epochs"),  # num_train_epochs
        ("Number of warmup steps", None),  # (no num_warmup_steps fact)
        # ... abbreviated `nb` (French "nombre de"): jasraj-jsa/Transolver_plus logs its arguments'
        # Namespace(..., batch_size=1, nb_epochs=200, ...)
        ("nb_epochs", "num_epochs"),
        ("nbr_epochs", "num_epochs"),
        ("nb_warmup_steps", None),
    ],
)
def test_a_count_spelled_out_is_the_count_its_num_key_names(km, key, fact):
    m = km.read(key, "120", "config")
    assert m.column == fact
    if fact is not None:
        assert m.kind == "fact" and m.use.rule == "spelling"


@pytest.mark.parametrize(
    ("key", "fact"),
    [
        # nanochat/common.py compute_init: logger.info(f"Distributed world size: {ddp_world_size}")
        ("Distributed world size", "world_size"),
        # timm train.py: f"... and effective global batch size ({global_batch_size}) with ... scaling."
        ("and effective global batch size", "global_batch_size"),
        # InternEvo internlm/initialize/launch.py: "Distributed environment is initialized, data parallel size: ..."
        ("Distributed environment is initialized data parallel size", "data_parallel_size"),
        ("Total number of parameters", "total_params"),
        # ... and after it, whose it is: liguodongiot/llm-action logs "Total parameters in model: {n:,}"
        ("Total parameters in model", "total_params"),
        ("Training steps", "train_iters"),  # a start-up table's `Training steps: 5000`
        # a word left out that makes it another quantity's, or a fact's name of one word: no fact
        ("eval sequence length", None),
        ("Validation global batch size", None),
        ("Number of warmup epochs", None),
        ("warmup epochs", None),
        ("teacher hidden size", None),
        ("Local world size", None),  # torchrun's LOCAL_WORLD_SIZE: one node's processes
        ("Sampling with max length", None),  # the samples a run generates, not its sequence length
        ("finished epochs", None),
    ],
)
def test_a_facts_name_at_the_end_of_a_config_lines_words(km, key, fact):
    m = km.read(key, "8", "config")
    assert m.column == fact
    if fact is not None:
        assert m.kind == "fact" and m.use.rule in ("name", "phrase")


def test_a_step_time_with_no_unit_above_a_thousand_on_every_line_is_in_milliseconds(write_log):
    # microsoft/archai's DLLogger table (archai/nlp/trainers/nvidia/trainer.py: avg_elapsed * 1000 logged as
    # train_time/batch), printed by tabulate with no unit in the header
    head = "|   epoch |   train_batch |     lr |   train_time/batch |   train_throughput |   train_loss |   step |"
    rule = "|--------:|--------------:|-------:|-------------------:|-------------------:|-------------:|-------:|"
    rows = [
        f"|       1 | {10 * i + 1:13d} | 0.000{i} | {t:18.2f} | {9990 + i:18.1f} | {8.2 - i / 10:12.5f} | {10 * i:6d} |"
        for i, t in enumerate([4890.99, 4921.14, 4919.93, 4920.19], 1)
    ]
    parsed = frame(write_log("\n".join([head, rule, *rows]) + "\n"))
    steps = parsed.rows[parsed.rows["kind"] == "step"]
    assert steps["step"].tolist() == [10, 20, 30, 40]
    assert steps["step_time_s"].tolist() == pytest.approx([4.89099, 4.92114, 4.91993, 4.92019], rel=1e-12)
    # the same table in seconds (below a thousand): read as printed
    rows = [r.replace("4890.99", "  48.99").replace("4921.14", "  49.14") for r in rows[:2]] + rows[2:3]
    rows[2] = rows[2].replace("4919.93", "  49.93")
    parsed = frame(write_log("\n".join([head, rule, *rows]) + "\n", "seconds.log"))
    steps = parsed.rows[parsed.rows["kind"] == "step"]
    assert steps["step_time_s"].tolist() == pytest.approx([48.99, 49.14, 49.93], rel=1e-12)


def test_a_key_ending_in_the_word_value_names_what_comes_before():
    # modelscope/3D-Speaker's trainers print 'epoch: 1 - train Avg_loss: 6.68, train Avg_acc: 15.58, train
    # Lr_value: 4.00e-02'; `loss_value` is as common: the word says only that a number follows
    km = keymap.load()
    assert km.lookup("Lr_value", "step").column == "lr"
    assert km.lookup("train Lr_value", "step").column == "lr"
    assert km.lookup("loss_value", "step").column == "loss"
    assert km.lookup("value", "step") is None


def test_a_training_stage_abbreviated_trn_is_a_stage_beside_an_evaluations():
    # `trn_loss` beside `val_loss` (the abbreviation TRAIN_WORDS holds): one quantity of two stages, word for word
    # the same but the stage's
    assert keymap.one_stage_apart(["trn", "loss"], ["val", "loss"])
    assert keymap.one_stage_apart(["train", "loss"], ["val", "loss"])
    assert not keymap.one_stage_apart(["mask", "loss"], ["val", "loss"])


@pytest.mark.parametrize(
    ("key", "unit"),
    [
        # yinli-systems/l20-1b-pretraining pretrain500m/train.py: record = {..., 'step_seconds': time of this step}
        ("step_seconds", "seconds"),
        ("iter_ms", "ms"),
        ("batch_sec", "sec"),
    ],
)
def test_a_steps_own_word_with_a_time_unit_is_the_step_time(key, unit):
    hit = keymap.load().lookup(key, "step")
    assert (hit.column, hit.key_unit) == ("step_time_s", unit)
    # (an epoch's time is not a step's)
    assert keymap.load().lookup("epoch_seconds", "step") is None


def test_a_setting_every_step_record_carries_is_a_fact(write_log):
    # a data-recipe loop's JSON record of each optimizer step: {"step": 1, "train_loss": ..., "grad_accum_steps": 8}
    lines = [
        json.dumps(
            {"step": s, "train_loss": 2.0 - s / 10, "grad_accum_steps": 8, "step_seconds": 5.0 + s / 100}
        )
        for s in range(1, 7)
    ]
    parsed = parse_log(str(write_log("\n".join(lines) + "\n")), patterns.load_sets())
    assert [o.value for o in parsed.facts["grad_accum"]] == [8]
    steps = parsed.rows[parsed.rows["kind"] == "step"]
    assert steps["step_time_s"].tolist() == pytest.approx([5.0 + s / 100 for s in range(1, 7)])


def test_a_statistic_word_makes_no_evaluation_of_a_training_loss_nor_of_a_metric(km):
    assert km.read("train avg loss", "0.5").column == "loss"
    assert km.read("val mean acc", "0.5").column != "eval_loss"


def test_espnets_first_optimizers_first_group_rate_is_the_lr():
    # espnet2/train/trainer.py registers f"optim{i}_lr{j}" for each optimizer's parameter groups; FunASR's
    # build_trainer prints them in its `key=value` summary ("... optim_step_time=0.108, optim0_lr0=3.961e-06, ...")
    line = (
        "iter_time",
        "forward_time",
        "loss_att",
        "acc",
        "loss",
        "optim_step_time",
        "optim0_lr0",
        "train_time",
    )
    assert keymap.load().read("optim0_lr0", "3.961e-06", line=line).column == "lr"


def test_corenets_summary_its_loss_dict_by_its_total_and_no_load_time_for_the_step(write_log):
    # apple/ml-cvnets (CoreNet) engine/training_engine.py logs each summary period "Epoch: {:3d} [{:8d}/{:8d}],
    # loss: {...}, LR: [...], Avg. batch load time: {:.3f}, Elapsed time: {:5.2f}", the loss the dict of its parts
    # and their total: the dict's key names its only number alone (`grad_norm={'0_default': 66.5}`), never the
    # first of several; the batch load time is the loader's wait, not the step's
    lines = [
        f"2024-07-25 17:1{k}:22 - LOGS    - Epoch:  15 [  {118716 + 62 * k}/  200000], loss: {{'classification': "
        f"32.{k}857, 'neural_augmentation': 0.4684, 'total_loss': 33.{k + 2}541}}, Avg. batch load time: 0.{k}07, "
        f"Elapsed time: {267.58 + 130 * k:.2f}"
        for k in range(5)
    ]
    parsed = parse_log(str(write_log("\n".join(lines) + "\n")), patterns.load_sets())
    assert list(parsed.rows["loss"])[:2] == [33.2541, 33.3541]
    assert list(parsed.rows["x_classification"])[:2] == [32.0857, 32.1857]
    assert "step_time_s" not in parsed.rows or parsed.rows["step_time_s"].isna().all()
    assert list(parsed.rows["x_avg_batch_load_time"])[:2] == [0.007, 0.107]


def test_a_list_of_one_rate_per_parameter_group_is_the_lr_once(write_log):
    # CoreNet's summary prints the rate of each parameter group: "..., LR: [0.00043, 0.00043], Avg. batch load time:
    # ..."; where the groups' rates differ, which one is the run's is not known and none is read
    line = "Epoch:  15 [  {}/  200000], loss: 3{}.25, LR: [{}, {}], Elapsed time: {}"
    same = [
        line.format(118716 + 62 * k, k, lr, lr, 267 + 130 * k)
        for k, lr in enumerate(("0.00043", "0.000429") * 2)
    ]
    rows = parse_log(str(write_log("\n".join(same) + "\n")), patterns.load_sets()).rows
    assert list(rows["lr"])[:2] == [0.00043, 0.000429]
    apart = [line.format(118716 + 62 * k, k, "0.0043", "0.00043", 267 + 130 * k) for k in range(4)]
    rows = parse_log(str(write_log("\n".join(apart) + "\n", "apart.log")), patterns.load_sets()).rows
    assert "lr" not in rows


def test_apples_mps_device_names_a_memory_figure():
    # a CPT soil-profile trainer on a Mac: f"... gn {gn:.3f}  t {t:.0f}s  mps {mem:.0f}MB" of
    # torch.mps.current_allocated_memory(); as `gpu 160MB` is, the device's memory (MB binary: [rules] memory)
    line = ("epoch", "train", "val", "lr", "gn", "t", "mps")
    meaning = keymap.load().read("mps", "160MB", line=line)
    assert (meaning.column, meaning.use.rule) == ("memory_gib", "device")
