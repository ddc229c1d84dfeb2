"""Ultralytics YOLO on CPU: training from a model YAML (random init, no weights downloaded) on a synthetic set.
`detect`: yolov8n.yaml on the detection set make_data.py writes; `classify`: yolov8n-cls.yaml on an ImageFolder
(train/ and val/ of class folders, as timm/make_data.py writes). The console is what Ultralytics prints; its
own record is the run's results.csv (one row per epoch), copied to <name>.results.csv."""

import shutil
import sys
from pathlib import Path

from ultralytics import YOLO

name, data, project = sys.argv[1], sys.argv[2], sys.argv[3]
here = Path(__file__).resolve().parent
shutil.rmtree(Path(project) / name, ignore_errors=True)
model = YOLO("yolov8n-cls.yaml" if name == "classify" else "yolov8n.yaml")
model.train(
    data=data,
    epochs=10,
    imgsz=32 if name == "classify" else 64,
    batch=8 if name == "detect" else 16,
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
