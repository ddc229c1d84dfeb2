"""Hardware: dense peak FLOPS per device and dtype, from the data table hardware.toml.

There is no fallback: an unknown device or a dtype the device lacks is an error that lists what is
known, because a silently substituted peak (A100 for an unknown GPU, a sparse figure) is the most
common way an MFU goes wrong.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..core.errors import UsageError, flag
from ..core.schema import DTYPES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


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


# Words that name the vendor or the product line, not the device: "NVIDIA A100-SXM4-80GB", "Tesla T4",
# "AMD Instinct MI300X", "NVIDIA GeForce RTX 4090" are the a100, t4, mi300x and rtx4090.
_VENDOR_WORDS = frozenset({"nvidia", "tesla", "amd", "instinct", "geforce", "radeon", "google"})
# Memory size and kind: no device in the table has two peaks that differ only by memory (A100 40/80 GB,
# V100 16/32 GB, "H100 80GB HBM3" is the SXM part), so the name means the same device without them.
_MEMORY = re.compile(r"^(?:\d+(?:\.\d+)?(?:gb|gib|g)|hbm\d*e?)$")


def normalise(name: str) -> str:
    """A device name reduced to what identifies it: case, spaces, dashes and underscores, the vendor
    words and the memory size dropped (`NVIDIA A100-SXM4-80GB` -> `a100sxm4`, `Tesla V100-SXM2-32GB`
    -> `v100sxm2`, `NVIDIA H100 80GB HBM3` -> `h100`). A name nvidia-smi truncated (`Tesla V100-SXM2...`)
    loses its ellipsis."""
    text = name.strip().lower().replace("\u2026", "...")
    text = text.removesuffix("...").strip()
    words = [w for w in re.split(r"[\s_\-/]+", text) if w]
    kept = [w for w in words if w not in _VENDOR_WORDS and not _MEMORY.match(w)]
    return "".join(kept)


@lru_cache(maxsize=1)
def _by_normalised() -> dict[str, Device | None]:
    table: dict[str, Device | None] = {}
    for dev in devices().values():
        for spelling in (dev.name, *dev.aliases):
            key = normalise(spelling)
            # two devices that normalise alike: the short form means neither (never a guess)
            table[key] = dev if table.get(key, dev) is dev else None
    return table


def find(name: str) -> Device | None:
    """The device for a name as a user types it (`h100`, `H100-SXM`, `a100_80g`) or as a log prints it
    (`NVIDIA H100 80GB HBM3`, `NVIDIA A100-SXM4-40GB`, `Tesla T4`, `AMD Instinct MI300X`); None if unknown."""
    key = _key(name)
    for dev in devices().values():
        if key == dev.name or key in dev.aliases:
            return dev
    norm = normalise(name)
    return _by_normalised().get(norm) if norm else None


def _with_short_name(dev: Device) -> str:
    """`h100-sxm (h100)`: a device with the shorter name users type for it, when it has one."""
    short = [a for a in dev.aliases if len(a) < len(dev.name) and not a[:1].isdigit()]
    return f"{dev.name} ({min(short, key=len)})" if short else dev.name


def lookup(name: str) -> Device:
    """The device for a name (see `find`); an unknown name is an error that lists the known ones."""
    dev = find(name)
    if dev is not None:
        return dev
    known = ", ".join(_with_short_name(d) for d in sorted(devices().values(), key=lambda d: d.name))
    raise UsageError(
        f"unknown hardware {name!r}; known: {known} (or give the dense peak with {flag('peak_tflops')})"
    )


def peak_tflops(device: Device, dtype: str) -> float:
    """The dense peak of `device` in `dtype`, TFLOPS per device."""
    if dtype not in DTYPES:
        raise UsageError(f"unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
    if dtype not in device.peak_tflops:
        has = ", ".join(device.peak_tflops)
        raise UsageError(
            f"{device.name} has no published dense {dtype} peak (it has: {has}); "
            f"pick another {flag('dtype')} or give {flag('peak_tflops')}"
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
