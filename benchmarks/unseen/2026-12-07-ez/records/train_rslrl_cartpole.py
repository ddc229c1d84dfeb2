"""Tiny batched CartPole (continuous force) in torch, trained with rsl_rl's OnPolicyRunner on CPU.

usage: python train_rslrl_cartpole.py LOG_DIR NUM_STEPS_PER_ENV SAVE_INTERVAL ITERS [RUN_NAME] [--resume CKPT]
"""
import sys
import math
import argparse
import torch
from tensordict import TensorDict
from rsl_rl.env import VecEnv
from rsl_rl.runners import OnPolicyRunner


class TorchCartPole(VecEnv):
    """Batched CartPole (classic-control dynamics, continuous force in [-1,1]*10 N) implementing rsl_rl's VecEnv."""

    def __init__(self, num_envs=32, max_episode_length=200, device="cpu", seed=0):
        self.num_envs = num_envs
        self.num_actions = 1
        self.max_episode_length = max_episode_length
        self.device = device
        self.cfg = {"name": "TorchCartPole", "num_envs": num_envs, "max_episode_length": max_episode_length}
        self.gen = torch.Generator(device="cpu").manual_seed(seed)
        self.state = torch.zeros(num_envs, 4, device=device)
        self.episode_length_buf = torch.zeros(num_envs, dtype=torch.long, device=device)
        self._reset(torch.arange(num_envs, device=device))

    def _reset(self, ids):
        if len(ids) == 0:
            return
        self.state[ids] = (torch.rand(len(ids), 4, generator=self.gen) * 0.1 - 0.05).to(self.device)
        self.episode_length_buf[ids] = 0

    def get_observations(self) -> TensorDict:
        return TensorDict({"policy": self.state.clone()}, batch_size=[self.num_envs], device=self.device)

    def step(self, actions: torch.Tensor):
        g, mc, mp, l, dt = 9.8, 1.0, 0.1, 0.5, 0.02
        force = 10.0 * actions[:, 0].clamp(-1.0, 1.0)
        x, x_dot, th, th_dot = self.state.unbind(1)
        cos, sin = torch.cos(th), torch.sin(th)
        temp = (force + mp * l * th_dot**2 * sin) / (mc + mp)
        th_acc = (g * sin - cos * temp) / (l * (4.0 / 3.0 - mp * cos**2 / (mc + mp)))
        x_acc = temp - mp * l * th_acc * cos / (mc + mp)
        x = x + dt * x_dot
        x_dot = x_dot + dt * x_acc
        th = th + dt * th_dot
        th_dot = th_dot + dt * th_acc
        self.state = torch.stack([x, x_dot, th, th_dot], dim=1)
        self.episode_length_buf += 1
        terminated = (x.abs() > 2.4) | (th.abs() > 12 * 2 * math.pi / 360)
        time_outs = self.episode_length_buf >= self.max_episode_length
        dones = terminated | time_outs
        rewards = torch.ones(self.num_envs, device=self.device)
        extras = {"time_outs": time_outs, "log": {"/pole_angle_abs": th.abs().mean()}}
        self._reset(dones.nonzero(as_tuple=False).flatten())
        return self.get_observations(), rewards, dones.long(), extras


def main():
    p = argparse.ArgumentParser()
    p.add_argument("log_dir")
    p.add_argument("num_steps_per_env", type=int)
    p.add_argument("save_interval", type=int)
    p.add_argument("iters", type=int)
    p.add_argument("--run_name", default=None)
    p.add_argument("--resume", default=None)
    p.add_argument("--num_envs", type=int, default=32)
    a = p.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    env = TorchCartPole(num_envs=a.num_envs)
    # default train_cfg structure: docs/guide/configuration.rst "Example Configuration"
    train_cfg = {
        "num_steps_per_env": a.num_steps_per_env,
        "obs_groups": {"actor": ["policy"], "critic": ["policy"]},
        "save_interval": a.save_interval,
        "algorithm": {"class_name": "PPO"},
        "actor": {"class_name": "MLPModel", "hidden_dims": [32, 32],
                  "distribution_cfg": {"class_name": "GaussianDistribution"}},
        "critic": {"class_name": "MLPModel", "hidden_dims": [32, 32]},
    }
    if a.run_name:
        train_cfg["run_name"] = a.run_name
    runner = OnPolicyRunner(env, train_cfg, log_dir=a.log_dir, device="cpu")
    if a.resume:
        print(f"Loading model checkpoint from: {a.resume}")
        runner.load(a.resume)
    runner.learn(num_learning_iterations=a.iters)


if __name__ == "__main__":
    main()
