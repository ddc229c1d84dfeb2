"""A tiny synthetic ImageFolder (4 classes, 32x32 PNGs, class-tinted noise), fixed seed: train/ and val/."""

import sys
from pathlib import Path

import numpy as np
from PIL import Image

root = Path(sys.argv[1])
rng = np.random.default_rng(0)
tints = np.array([[200, 60, 60], [60, 200, 60], [60, 60, 200], [180, 180, 60]])
for split, n in (("train", 48), ("val", 16)):
    for c, tint in enumerate(tints):
        d = root / split / f"class{c}"
        d.mkdir(parents=True, exist_ok=True)
        for i in range(n):
            img = np.clip(tint * 0.35 + rng.normal(128, 60, (32, 32, 3)), 0, 255).astype(np.uint8)
            Image.fromarray(img).save(d / f"{i:03d}.png")
