"""pfrl DQN / PPO on gym CartPole-v1 via pfrl.experiments.train_agent_with_evaluation,
in the style of pfrl's examples/gym/train_dqn_gym.py (logging.basicConfig(level=INFO)).

usage: python pfrl_cartpole.py --algo dqn|ppo [--steps N] [--eval-interval N] [--eval-n-episodes N]
                               [--checkpoint-freq N] [--outdir results]
Besides pfrl's own scores.txt, a step hook (pfrl's step_hooks API) writes agent.get_statistics() at every
episode end, i.e. exactly what the 'statistics:' log line prints, to <outdir>/episode_statistics.jsonl.
"""
import argparse
import json
import logging
import os

import gym
import numpy as np
import torch
from torch import nn

import pfrl
from pfrl import experiments, explorers, replay_buffers, utils
from pfrl.q_functions import DiscreteActionValueHead


class EpisodeEndFlag(gym.Wrapper):
    """Remembers whether the last step ended an episode and the running return (for the record hook)."""

    def reset(self, **kwargs):
        self.last_done = False
        self.episode_r = 0.0
        return self.env.reset(**kwargs)

    def step(self, action):
        obs, r, done, info = self.env.step(action)
        self.episode_r += r
        self.last_done = done
        return obs, r, done, info


class StatisticsRecorder:
    """step hook: called by train_agent after agent.observe() and before the episode-end log lines."""

    def __init__(self, path, total_steps):
        self.f = open(path, "w")
        self.total_steps = total_steps
        self.episode = 0

    def __call__(self, env, agent, step):
        if env.last_done or step == self.total_steps:
            rec = {"step": step, "episode": self.episode, "R": env.episode_r,
                   "statistics": [[k, float(v)] for k, v in agent.get_statistics()],
                   "statistics_repr": repr(agent.get_statistics())}
            self.f.write(json.dumps(rec) + "\n")
            self.f.flush()
            self.episode += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--algo", choices=["dqn", "ppo"], default="dqn")
    parser.add_argument("--outdir", default="results")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--eval-interval", type=int, default=500)
    parser.add_argument("--eval-n-episodes", type=int, default=1)
    parser.add_argument("--checkpoint-freq", type=int, default=None)
    parser.add_argument("--log-level", type=int, default=logging.INFO)
    args = parser.parse_args()

    logging.basicConfig(level=args.log_level)
    utils.set_random_seed(args.seed)
    args.outdir = experiments.prepare_output_dir(args, args.outdir)
    print("Output files are saved in {}".format(args.outdir))

    env = EpisodeEndFlag(gym.make("CartPole-v1"))
    env.reset(seed=args.seed)
    eval_env = gym.make("CartPole-v1")
    eval_env.reset(seed=args.seed + 1)
    obs_size = env.observation_space.low.size
    n_actions = env.action_space.n

    if args.algo == "dqn":
        q_func = nn.Sequential(
            nn.Linear(obs_size, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
            nn.Linear(64, n_actions), DiscreteActionValueHead(),
        )
        opt = torch.optim.Adam(q_func.parameters(), lr=1e-3)
        rbuf = replay_buffers.ReplayBuffer(10**5)
        explorer = explorers.LinearDecayEpsilonGreedy(1.0, 0.05, 500, env.action_space.sample)
        agent = pfrl.agents.DQN(
            q_func, opt, rbuf, gpu=-1, gamma=0.99, explorer=explorer,
            replay_start_size=100, target_update_interval=100, update_interval=1,
            minibatch_size=32, phi=lambda x: x.astype(np.float32, copy=False),
        )
    else:
        model = nn.Sequential(
            nn.Linear(obs_size, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(),
            pfrl.nn.Branched(
                nn.Sequential(nn.Linear(64, n_actions), pfrl.policies.SoftmaxCategoricalHead()),
                nn.Linear(64, 1),
            ),
        )
        opt = torch.optim.Adam(model.parameters(), lr=3e-4)
        agent = pfrl.agents.PPO(
            model, opt, gpu=-1, phi=lambda x: x.astype(np.float32, copy=False),
            update_interval=256, minibatch_size=64, epochs=4, clip_eps=0.2,
            standardize_advantages=True, entropy_coef=0.0,
        )

    recorder = StatisticsRecorder(os.path.join(args.outdir, "episode_statistics.jsonl"), args.steps)
    experiments.train_agent_with_evaluation(
        agent=agent,
        env=env,
        steps=args.steps,
        eval_n_steps=None,
        eval_n_episodes=args.eval_n_episodes,
        eval_interval=args.eval_interval,
        outdir=args.outdir,
        eval_env=eval_env,
        checkpoint_freq=args.checkpoint_freq,
        step_hooks=[recorder],
    )


if __name__ == "__main__":
    main()
