"""Hardware from the log: the device a log names becomes the default --hw (source `log`), the
GPU rows of its nvidia-smi table a GPU count of last resort; --hw and --peak-tflops still win."""

from __future__ import annotations

import json

import pytest

from logparse import api
from logparse.frame.assemble import FactObservation
from logparse.report.outputs import text_summary
from logparse.specs import hardware
from logparse.specs.devices import listed_gpus, log_device

from .conftest import SAMPLES

# torchtitan prints this once per rank (pytorch/torchtitan#1570, #3184); the sample log lacks it
CAPACITY = "[rank0]:[titan] 2024-09-03 15:52:43,000 - root - INFO - CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory"


def _smi_new(name: str, n: int) -> list[str]:
    """An nvidia-smi 550 table (the layout of wilicc/gpu-burn#114 and instructlab/instructlab#2341)."""
    rule = "+-----------------------------------------+------------------------+----------------------+"
    out = [
        "Fri Oct 25 11:21:22 2024       ",
        "+-----------------------------------------------------------------------------------------+",
        "| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |",
        "|-----------------------------------------+------------------------+----------------------+",
        "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
        "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |",
        "|                                         |                        |               MIG M. |",
        "|=========================================+========================+======================|",
    ]
    for i in range(n):
        out += [
            f"|   {i}  {name:<30s}On  |   00000000:{(0x19 + 0x12 * i) % 256:02X}:00.0 Off |                    0 |",
            "| N/A   39C    P0            145W /  700W |       1MiB /  81559MiB |      0%      Default |",
            "|                                         |                        |             Disabled |",
            rule,
        ]
    out += [
        "                                                                                         ",
        "+-----------------------------------------------------------------------------------------+",
        "| Processes:                                                                              |",
        "|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |",
        "|        ID   ID                                                               Usage      |",
        "|=========================================================================================|",
        "|  No running processes found                                                             |",
        "+-----------------------------------------------------------------------------------------+",
    ]
    return out


def _smi_old(name: str, n: int) -> list[str]:
    """An nvidia-smi 450 table, the narrower layout (keyu-tian/SparK#8)."""
    rule = "+-------------------------------+----------------------+----------------------+"
    out = [
        "+-----------------------------------------------------------------------------+",
        "| NVIDIA-SMI 450.191.01   Driver Version: 450.191.01   CUDA Version: 11.3     |",
        "|-------------------------------+----------------------+----------------------+",
        "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |",
        "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |",
        "|                               |                      |               MIG M. |",
        "|===============================+======================+======================|",
    ]
    for i in range(n):
        out += [
            f"|   {i}  {name:<18s}On   | 00000000:{0x10 + 6 * i:02X}:00.0 Off |                    0 |",
            "| N/A   61C    P0   175W / 400W |  33717MiB / 81252MiB |     84%      Default |",
            "|                               |                      |             Disabled |",
            rule,
        ]
    return out


def _with(name: str, lines: list[str], after: int = 0) -> str:
    """The sample log `name` with `lines` inserted after its first `after` lines."""
    src = (SAMPLES / name).read_text().splitlines()
    return "\n".join(src[:after] + lines + src[after:]) + "\n"


def _truth(name: str) -> dict:
    return json.loads((SAMPLES / name.replace(".log", ".truth.json")).read_text())


TITAN = "torchtitan_llama3-8b_8xh100.log"
NANOGPT = "nanogpt_gpt2_8xa100.log"


# ------------------------------------------------------------------------------------------------
# names as logs print them -> hardware.toml


@pytest.mark.parametrize(
    ("printed", "device"),
    [
        ("NVIDIA H100 80GB HBM3", "h100-sxm"),  # torchtitan#1570, nvidia-smi 550
        ("NVIDIA H100", "h100-sxm"),  # torchtitan#1408 (torchtitan's own table: 989e12 too)
        ("NVIDIA H100 PCIe", "h100-pcie"),  # roboflow/inference#181
        ("NVIDIA H100 NVL", "h100-nvl"),  # akash-network/provider-configs#91
        ("NVIDIA A100-SXM4-80GB", "a100"),  # influxdata/telegraf#5812
        ("NVIDIA A100-SXM4-40GB", "a100"),  # instructlab#2341
        ("NVIDIA A100 80GB PCIe", "a100"),
        ("NVIDIA A100-PCIE-40GB", "a100"),  # Oneflow-Inc/libai#527
        ("A100-SXM-80GB", "a100"),  # nvidia-smi 450 (SparK#8)
        ("NVIDIA H200", "h200"),
        ("NVIDIA H200 NVL", "h200-nvl"),
        ("NVIDIA GH200 480GB", "gh200"),
        ("NVIDIA B200", "b200"),
        ("NVIDIA GB200", "gb200"),
        ("AMD Instinct MI300X", "mi300x"),
        ("AMD Instinct MI250X", "mi250x"),
        ("NVIDIA L40S", "l40s"),
        ("NVIDIA L4", "l4"),
        ("NVIDIA A10G", "a10g"),
        ("NVIDIA A10", "a10"),
        ("NVIDIA A40", "a40"),
        ("NVIDIA RTX A6000", "rtx-a6000"),
        ("NVIDIA GeForce RTX 4090", "rtx4090"),
        ("Tesla V100-SXM2-32GB", "v100"),
        ("Tesla V100-SXM2-16GB", "v100"),  # NVIDIA/nvidia-docker#914
        ("Tesla V100-SXM2...", "v100"),  # an old nvidia-smi truncates the name
        ("Tesla T4", "t4"),  # open-edge-platform/anomalib#232
        ("nvidia  a100_sxm4 80gb", "a100"),  # case, spaces, underscores
        ("h100", "h100-sxm"),  # what a user types still works
        ("a100_80g", "a100"),
    ],
)
def test_printed_names_map_to_devices(printed, device):
    dev = hardware.find(printed)
    assert dev is not None and dev.name == device
    assert hardware.lookup(printed).name == device  # --hw accepts them too


@pytest.mark.parametrize(
    "printed",
    ["NVIDIA H800", "NVIDIA A800-SXM4-80GB", "Tesla V100-PCIE-32GB", "NVIDIA GeForce RTX 2080 Ti", "GPU"],
)
def test_names_without_a_peak_are_unknown(printed):
    assert hardware.find(printed) is None  # no guess: the V100 PCIe's peak is not the SXM2's


# ------------------------------------------------------------------------------------------------
# the facts, on their own


def _obs(fact: str, *rows: tuple) -> dict:
    return {fact: [FactObservation(v, line, f"devices.{pat}") for v, line, pat in rows]}


def test_two_devices_warn_and_give_none():
    warnings: list[str] = []
    named = _obs(
        "device_name", ("NVIDIA H100 80GB HBM3", 3, "cuda_capacity"), ("NVIDIA A100-SXM4-80GB", 9, "x")
    )
    assert log_device(named, warnings) is None
    assert len(warnings) == 1 and "different GPUs" in warnings[0] and "line 9" in warnings[0]


def test_one_device_under_two_spellings_is_one_device():
    warnings: list[str] = []
    named = _obs("device_name", ("NVIDIA H100 80GB HBM3", 3, "cuda_capacity"), ("NVIDIA H100", 7, "x"))
    fact = log_device(named, warnings)
    assert fact is not None and fact.value == "h100-sxm" and fact.source == "log" and warnings == []
    assert "line 3" in fact.detail


def test_listing_counts_the_first_table_only():
    rows = [(i, 10 + 4 * i, "nvidia_smi_row") for i in range(8)] + [
        (i, 90 + 4 * i, "nvidia_smi_row") for i in range(8)
    ]
    fact = listed_gpus(_obs("listed_gpu_index", *rows))
    assert fact is not None and fact.value == 8
    assert fact.detail == "8 GPUs in the nvidia-smi table at line 10 (one node)"
    assert listed_gpus({}) is None


# ------------------------------------------------------------------------------------------------
# the whole pipeline


def test_torchtitan_capacity_line_gives_the_peak(write_log):
    log = write_log(_with(TITAN, [CAPACITY], after=2))
    a = api.analyze(log, model="llama3-8b")
    s = a.summary
    hw = s["hardware"]
    assert hw["name"] == "h100-sxm" and hw["name_source"] == "log" and hw["peak_tflops_per_gpu"] == 989.0
    assert "h100-sxm (named in the log), bf16" in text_summary(a)
    assert "NVIDIA H100 80GB HBM3" in hw["name_detail"] and "line 3" in hw["name_detail"]
    assert s["stable"]["mfu_mean"] == pytest.approx(_truth(TITAN)["stable_mfu"], abs=0.005)


@pytest.mark.parametrize(
    ("table", "name"), [(_smi_new, "NVIDIA A100-SXM4-80GB"), (_smi_old, "A100-SXM4-80GB")]
)
def test_nvidia_smi_table_gives_the_peak_and_the_gpu_count(write_log, table, name):
    # nanoGPT states no GPU count: the table's 8 rows are the best the log has
    log = write_log(_with(NANOGPT, table(name, 8)))
    a = api.analyze(log, model="gpt2")
    s = a.summary
    assert s["hardware"]["name"] == "a100" and s["hardware"]["name_source"] == "log"
    assert s["hardware"]["peak_tflops_per_gpu"] == 312.0
    assert s["gpus"] == 8 and s["gpus_source"] == "log"
    first_row = 9 if table is _smi_new else 8
    assert a.run.facts["gpus"].detail == f"8 GPUs in the nvidia-smi table at line {first_row} (one node)"
    assert any("nvidia-smi table" in w and "one node" in w for w in a.run.warnings)
    assert s["stable"]["mfu_mean"] == pytest.approx(_truth(NANOGPT)["stable_mfu"], abs=0.005)


def test_a_stated_gpu_count_beats_the_table(write_log):
    log = write_log(_with(TITAN, _smi_new("NVIDIA H100 80GB HBM3", 4)))
    s = api.analyze(log, model="llama3-8b").summary
    assert s["gpus"] == 8 and s["gpus_source"] == "derived"  # tokens per step / per DP rank, not 4 rows
    assert s["hardware"]["name"] == "h100-sxm"


def test_cli_overrides_the_log(write_log):
    log = write_log(_with(TITAN, [CAPACITY], after=2))
    a = api.analyze(log, model="llama3-8b", hw="h100-pcie")
    hw = a.summary["hardware"]
    assert hw["name"] == "h100-pcie" and hw["name_source"] == "cli" and hw["peak_tflops_per_gpu"] == 756.0
    assert any("hw=h100-pcie" in w and "NVIDIA H100 80GB HBM3" in w for w in a.run.warnings)
    s = api.analyze(log, model="llama3-8b", peak_tflops=500).summary
    assert s["hardware"]["peak_tflops_per_gpu"] == 500.0 and s["hardware"]["name_source"] == "cli"


def test_two_devices_in_the_log_use_neither(write_log):
    echo = "2024-09-03 15:52:43,000 INFO GPU: NVIDIA A100-SXM4-80GB"
    log = write_log(_with(TITAN, [CAPACITY, echo], after=2))
    a = api.analyze(log, model="llama3-8b")
    assert a.summary["hardware"]["peak_tflops_per_gpu"] is None and a.summary["hardware"]["name"] is None
    assert any("different GPUs" in w and "A100-SXM4-80GB" in w for w in a.run.warnings)


def test_an_unknown_device_is_a_warning_naming_it(write_log):
    log = write_log(_with(TITAN, [CAPACITY.replace("NVIDIA H100 80GB HBM3", "NVIDIA H800")], after=2))
    a = api.analyze(log, model="llama3-8b")
    assert a.summary["hardware"]["peak_tflops_per_gpu"] is None
    assert any(
        "the log names GPU 'NVIDIA H800'" in w and "no peak for: pass hw or peak_tflops" in w
        for w in a.run.warnings
    )


def test_lightning_line_is_only_a_clue(write_log):
    log = write_log(_with(NANOGPT, ["GPU available: True (cuda), used: True"]))
    a = api.analyze(log, model="gpt2", gpus=8)
    assert a.summary["hardware"]["peak_tflops_per_gpu"] is None
    assert any("hardware is unknown" in w and "ran on cuda at line 1" in w for w in a.run.warnings)
