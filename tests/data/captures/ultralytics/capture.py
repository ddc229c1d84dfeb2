"""Ultralytics YOLO on CPU: `yolo detect train` from a model YAML (random init, no weights downloaded) on the
synthetic set make_data.py writes. The console is what `yolo` prints; Ultralytics' own record is the run's
results.csv (one row per epoch), copied to <name>.results.csv."""

import shutil
import sys
from pathlib import Path

from ultralytics import YOLO

name, data, project = sys.argv[1], sys.argv[2], sys.argv[3]
here = Path(__file__).resolve().parent
shutil.rmtree(Path(project) / name, ignore_errors=True)
model = YOLO("yolov8n.yaml")
model.train(
    data=data,
    epochs=10,
    imgsz=64,
    batch=8,
    workers=0,
    device="cpu",
    seed=0,
    deterministic=True,
    plots=False,
    amp=False,
    project=project,
    name=name,
    exist_ok=True,
)
shutil.copy(Path(project) / name / "results.csv", here / f"{name}.results.csv")
