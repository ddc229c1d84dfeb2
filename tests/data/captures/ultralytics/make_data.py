"""A tiny synthetic detection set in YOLO format (64x64 images, one or two coloured rectangles on noise, two
classes), fixed seed, and its data.yaml: <root>/images/{train,val}, <root>/labels/{train,val}."""

import sys
from pathlib import Path

import numpy as np
from PIL import Image

root = Path(sys.argv[1])
rng = np.random.default_rng(0)
colours = np.array([[230, 40, 40], [40, 40, 230]])
for split, n in (("train", 64), ("val", 16)):
    (root / "images" / split).mkdir(parents=True, exist_ok=True)
    (root / "labels" / split).mkdir(parents=True, exist_ok=True)
    for i in range(n):
        img = rng.normal(120, 30, (64, 64, 3))
        rows = []
        for _ in range(rng.integers(1, 3)):
            c = int(rng.integers(0, 2))
            w, h = rng.integers(12, 28, 2)
            x0, y0 = rng.integers(0, 64 - w), rng.integers(0, 64 - h)
            img[y0 : y0 + h, x0 : x0 + w] = colours[c]
            rows.append(f"{c} {(x0 + w / 2) / 64:.6f} {(y0 + h / 2) / 64:.6f} {w / 64:.6f} {h / 64:.6f}")
        Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(root / "images" / split / f"{i:03d}.png")
        (root / "labels" / split / f"{i:03d}.txt").write_text("\n".join(rows) + "\n")
(root / "data.yaml").write_text(
    f"path: {root}\ntrain: images/train\nval: images/val\nnames:\n  0: red\n  1: blue\n"
)
