"""Tiny CPU MONAI workflow runs (SupervisedTrainer + StatsHandler), as the MONAI tutorials set them up.

python monai_run.py seg2d      -> 2D UNet segmentation, StatsHandler every iteration, TensorBoardStatsHandler
python monai_run.py seg2d_eval -> as seg2d + LrScheduleHandler(print_lr) + SupervisedEvaluator via ValidationHandler
                                  + CheckpointSaver (trainer interval + evaluator key metric), like
                                  MONAI tutorials' unet_training_workflows.py
python monai_run.py cls3d      -> 3D classification, StatsHandler logging every 5th iteration (event filter)

The framework's own record of each run: records/<mode>/train_steps.jsonl, written by an ignite handler on
Events.ITERATION_COMPLETED (epoch, global iteration, iteration within epoch, loss from engine.state.output, lr),
plus (seg2d*) the TensorBoard scalars of TensorBoardStatsHandler and an eval JSONL (seg2d_eval).
"""
import json
import logging
import os
import sys

import numpy as np
import torch
from ignite.engine import Events
from ignite.metrics import Accuracy

import monai
from monai.data import DataLoader, Dataset, create_test_image_2d, create_test_image_3d
from monai.engines import SupervisedEvaluator, SupervisedTrainer
from monai.handlers import (
    CheckpointSaver,
    LrScheduleHandler,
    MeanDice,
    StatsHandler,
    TensorBoardStatsHandler,
    ValidationHandler,
    from_engine,
)
from monai.inferers import SimpleInferer
from monai.losses import DiceLoss
from monai.networks.nets import UNet, Classifier
from monai.transforms import Activationsd, AsDiscreted, Compose

MODE = sys.argv[1]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), MODE)
os.makedirs(OUT, exist_ok=True)

logging.basicConfig(stream=sys.stdout, level=logging.INFO)
monai.config.print_config()
monai.utils.set_determinism(seed=0)


def seg_data(n, seed):
    rs = np.random.RandomState(seed)
    items = []
    for _ in range(n):
        im, seg = create_test_image_2d(64, 64, num_seg_classes=1, channel_dim=0, random_state=rs)
        items.append({"image": torch.as_tensor(im, dtype=torch.float32), "label": torch.as_tensor(seg, dtype=torch.float32)})
    return items


def cls_data(n, seed):
    rs = np.random.RandomState(seed)
    items = []
    for i in range(n):
        label = i % 2
        im, _ = create_test_image_3d(16, 16, 16, num_objs=1 + 4 * label, rad_max=4, rad_min=2, noise_max=0.3,
                                     channel_dim=0, random_state=rs)
        items.append({"image": torch.as_tensor(im, dtype=torch.float32), "label": torch.tensor(label)})
    return items


class JsonlRecorder:
    """Writes every training iteration's loss, as the engine holds it, to JSONL."""

    def __init__(self, path, optimizer):
        self.f = open(path, "w")
        self.opt = optimizer

    def attach(self, engine):
        engine.add_event_handler(Events.ITERATION_COMPLETED, self)
        engine.add_event_handler(Events.COMPLETED, lambda e: self.f.close())

    def __call__(self, engine):
        out = engine.state.output
        loss = out[0]["loss"] if isinstance(out, list) else out["loss"]
        el = engine.state.epoch_length
        rec = {
            "epoch": engine.state.epoch,
            "iteration": engine.state.iteration,
            "iter_in_epoch": (engine.state.iteration - 1) % el + 1,
            "epoch_length": el,
            "loss": float(loss.item() if torch.is_tensor(loss) else loss),
            "lr": self.opt.param_groups[0]["lr"],
        }
        self.f.write(json.dumps(rec) + "\n")
        self.f.flush()


device = torch.device("cpu")

if MODE in ("seg2d", "seg2d_eval"):
    train_ds = Dataset(seg_data(40 if MODE == "seg2d" else 32, 0))
    train_loader = DataLoader(train_ds, batch_size=4, shuffle=True, num_workers=0)
    net = UNet(spatial_dims=2, in_channels=1, out_channels=1, channels=(8, 16, 32), strides=(2, 2), num_res_units=1).to(device)
    loss = DiceLoss(sigmoid=True)
    opt = torch.optim.Adam(net.parameters(), 1e-3)
    max_epochs = 2 if MODE == "seg2d" else 3
    post = Compose([Activationsd(keys="pred", sigmoid=True), AsDiscreted(keys="pred", threshold=0.5)])

    train_handlers = []
    if MODE == "seg2d_eval":
        lr_scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
        val_loader = DataLoader(Dataset(seg_data(8, 1)), batch_size=4, num_workers=0)
        eval_rec = open(os.path.join(OUT, "eval_metrics.jsonl"), "w")
        val_handlers = [
            StatsHandler(iteration_log=False),
            CheckpointSaver(save_dir=os.path.join(OUT, "ckpt"), save_dict={"net": net}, save_key_metric=True),
        ]
        evaluator = SupervisedEvaluator(
            device=device,
            val_data_loader=val_loader,
            network=net,
            inferer=SimpleInferer(),
            postprocessing=post,
            key_val_metric={"val_mean_dice": MeanDice(include_background=True, output_transform=from_engine(["pred", "label"]))},
            val_handlers=val_handlers,
        )

        @evaluator.on(Events.EPOCH_COMPLETED)
        def _rec_eval(engine):
            eval_rec.write(json.dumps({"trainer_epoch": engine.state.epoch, **{k: float(v) for k, v in engine.state.metrics.items()}}) + "\n")
            eval_rec.flush()

        train_handlers += [
            LrScheduleHandler(lr_scheduler=lr_scheduler, print_lr=True),
            ValidationHandler(validator=evaluator, interval=1, epoch_level=True),
        ]
    train_handlers += [
        StatsHandler(tag_name="train_loss", output_transform=from_engine(["loss"], first=True)),
        TensorBoardStatsHandler(log_dir=os.path.join(OUT, "tb"), tag_name="train_loss", output_transform=from_engine(["loss"], first=True)),
    ]
    if MODE == "seg2d_eval":
        train_handlers.append(
            CheckpointSaver(save_dir=os.path.join(OUT, "ckpt"), save_dict={"net": net, "opt": opt}, save_interval=1, epoch_level=True)
        )
    trainer = SupervisedTrainer(
        device=device,
        max_epochs=max_epochs,
        train_data_loader=train_loader,
        network=net,
        optimizer=opt,
        loss_function=loss,
        inferer=SimpleInferer(),
        postprocessing=post,
        key_train_metric={"train_acc": Accuracy(output_transform=from_engine(["pred", "label"]))} if MODE == "seg2d_eval" else None,
        train_handlers=train_handlers,
    )
elif MODE == "cls3d":
    train_loader = DataLoader(Dataset(cls_data(100, 0)), batch_size=2, shuffle=True, num_workers=0)
    net = Classifier(in_shape=(1, 16, 16, 16), classes=2, channels=(4, 8), strides=(2, 2)).to(device)
    opt = torch.optim.Adam(net.parameters(), 1e-3)
    post = Compose([AsDiscreted(keys="pred", argmax=True, to_onehot=2), AsDiscreted(keys="label", to_onehot=2)])
    trainer = SupervisedTrainer(
        device=device,
        max_epochs=2,
        train_data_loader=train_loader,
        network=net,
        optimizer=opt,
        loss_function=torch.nn.CrossEntropyLoss(),
        inferer=SimpleInferer(),
        postprocessing=post,
        key_train_metric={"train_acc": Accuracy(output_transform=from_engine(["pred", "label"]))},
        train_handlers=[
            StatsHandler(
                tag_name="train_loss",
                output_transform=from_engine(["loss"], first=True),
                iteration_log=lambda engine, event: event % 5 == 0,
            ),
        ],
    )
else:
    raise SystemExit(f"unknown mode {MODE}")

JsonlRecorder(os.path.join(OUT, "train_steps.jsonl"), opt).attach(trainer)
trainer.run()
