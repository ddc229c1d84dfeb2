"""Hardware: dense peak FLOPS per device and dtype, from the data table hardware.toml.

There is no fallback: an unknown device or a dtype the device lacks is an error that lists what is
known, because a silently substituted peak (A100 for an unknown GPU, a sparse figure) is the most
common way an MFU goes wrong.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import LogparseError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DTYPES = ("bf16", "fp16", "fp8", "tf32", "fp32")


@dataclass(frozen=True)
class Device:
    name: str
    title: str
    aliases: tuple[str, ...]
    peak_tflops: dict[str, float]
    source: str
    verified: bool = True


@lru_cache(maxsize=1)
def devices() -> dict[str, Device]:
    with open(Path(__file__).with_name("hardware.toml"), "rb") as fh:
        table = tomllib.load(fh)
    return {
        name: Device(
            name,
            e["title"],
            tuple(e.get("aliases", ())),
            dict(e["peak_tflops"]),
            e["source"],
            e.get("verified", True),
        )
        for name, e in table.items()
    }


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def lookup(name: str) -> Device:
    """The device for a name a user would type (`h100`, `H100-SXM`, `a100_80g`, ...)."""
    key = _key(name)
    for dev in devices().values():
        if key == dev.name or key in dev.aliases:
            return dev
    known = ", ".join(sorted(devices()))
    raise LogparseError(
        f"unknown hardware {name!r}; known: {known} (or give the dense peak with --peak-tflops)"
    )


def peak_tflops(device: Device, dtype: str) -> float:
    """The dense peak of `device` in `dtype`, TFLOPS per device."""
    if dtype not in DTYPES:
        raise LogparseError(f"unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
    if dtype not in device.peak_tflops:
        has = ", ".join(device.peak_tflops)
        raise LogparseError(
            f"{device.name} has no published dense {dtype} peak (it has: {has}); "
            "pick another --dtype or give --peak-tflops"
        )
    return device.peak_tflops[dtype]


def fastest(dtype: str) -> tuple[str | None, float]:
    """The device with the highest dense peak in `dtype`, and that peak: no device can beat it."""
    best, top = None, 0.0
    for dev in devices().values():
        p = dev.peak_tflops.get(dtype)
        if p is not None and p > top:
            best, top = dev.name, float(p)
    return best, top
