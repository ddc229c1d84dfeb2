"""Synthetic images for an imagefolder dataset (32 PNGs, 16x16, smooth random blobs), fixed seed, and a tiny
UNet2DModel config (unet/config.json) for train_unconditional.py's --model_config_name_or_path."""

import json
import sys
from pathlib import Path

import numpy as np
from PIL import Image

root = Path(sys.argv[1])
(root / "images").mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(0)
yy, xx = np.mgrid[0:16, 0:16]
for i in range(32):
    cx, cy, r = rng.uniform(3, 13), rng.uniform(3, 13), rng.uniform(2, 6)
    colour = rng.integers(40, 255, 3)
    img = np.full((16, 16, 3), 20.0) + ((xx - cx) ** 2 + (yy - cy) ** 2 < r * r)[..., None] * colour
    Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(root / "images" / f"{i:03d}.png")
(root / "unet").mkdir(exist_ok=True)
(root / "unet" / "config.json").write_text(
    json.dumps(
        {
            "_class_name": "UNet2DModel",
            "sample_size": 16,
            "in_channels": 3,
            "out_channels": 3,
            "layers_per_block": 1,
            "block_out_channels": [16, 32],
            "down_block_types": ["DownBlock2D", "AttnDownBlock2D"],
            "up_block_types": ["AttnUpBlock2D", "UpBlock2D"],
            "norm_num_groups": 8,
        },
        indent=2,
    )
)
