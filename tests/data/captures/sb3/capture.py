"""Stable-Baselines3 on CPU: PPO (or A2C) on gymnasium's CartPole-v1, verbose=1, the console as SB3 prints it
(one block of `| key | value |` rows per rollout). SB3's own record is the same logger's CSV output
(stable_baselines3.common.logger.configure(folder, ["stdout", "csv"])): <algo>.progress.csv.
"""

import argparse
import shutil
from pathlib import Path

import torch
from stable_baselines3 import A2C, PPO
from stable_baselines3.common.logger import configure

torch.set_num_threads(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("algo", choices=["ppo", "a2c"])
    ap.add_argument("--work-dir", default="/tmp/c43/sb3")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent
    folder = Path(args.work_dir) / args.algo
    shutil.rmtree(folder, ignore_errors=True)
    if args.algo == "ppo":
        model = PPO(
            "MlpPolicy",
            "CartPole-v1",
            n_steps=256,
            batch_size=64,
            n_epochs=4,
            seed=0,
            verbose=1,
            device="cpu",
        )
        steps = 256 * 8
    else:
        model = A2C("MlpPolicy", "CartPole-v1", n_steps=16, seed=0, verbose=1, device="cpu")
        steps = 16 * 100 * 4
    model.set_logger(configure(str(folder), ["stdout", "csv"]))
    model.learn(total_timesteps=steps)
    shutil.copy(folder / "progress.csv", here / f"{args.algo}.progress.csv")


if __name__ == "__main__":
    main()
