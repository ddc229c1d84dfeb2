"""Offline DQN / DiscreteCQL with d3rlpy on a CartPole dataset built from numpy arrays (random policy).

usage: python d3rlpy_offline.py dqn_epoch|cql_steps
"""
import sys

import gymnasium as gym
import numpy as np

import d3rlpy

mode = sys.argv[1]
d3rlpy.seed(0)

# collect 5000 transitions of CartPole-v1 with a uniform random policy (no network)
env = gym.make("CartPole-v1")
rng = np.random.default_rng(0)
obs_l, act_l, rew_l, term_l, tout_l = [], [], [], [], []
obs, _ = env.reset(seed=0)
for t in range(5000):
    a = int(rng.integers(2))
    nobs, r, term, trunc, _ = env.step(a)
    last = t == 4999
    obs_l.append(obs); act_l.append(a); rew_l.append(r)
    term_l.append(float(term)); tout_l.append(float(trunc or (last and not term)))
    obs = nobs
    if term or trunc:
        obs, _ = env.reset()
dataset = d3rlpy.dataset.MDPDataset(
    observations=np.array(obs_l, dtype=np.float32),
    actions=np.array(act_l),
    rewards=np.array(rew_l, dtype=np.float32),
    terminals=np.array(term_l, dtype=np.float32),
    timeouts=np.array(tout_l, dtype=np.float32),
    action_space=d3rlpy.ActionSpace.DISCRETE,
)

if mode == "dqn_epoch":
    # default logging strategy: one record line per epoch; 5 epochs of 400 gradient steps
    algo = d3rlpy.algos.DQNConfig(batch_size=32, learning_rate=1e-3, target_update_interval=100).create(device="cpu:0")
    algo.fit(
        dataset,
        n_steps=2000,
        n_steps_per_epoch=400,
        experiment_name="DQN_offline",
        evaluators={"td_error": d3rlpy.metrics.TDErrorEvaluator(episodes=dataset.episodes[:20])},
    )
elif mode == "cql_steps":
    # logging_strategy=STEPS: a record line every 100 gradient steps, 3 epochs of 600 steps
    algo = d3rlpy.algos.DiscreteCQLConfig(batch_size=32, learning_rate=1e-3, target_update_interval=100).create(device="cpu:0")
    algo.fit(
        dataset,
        n_steps=1800,
        n_steps_per_epoch=600,
        experiment_name="DiscreteCQL_offline",
        logging_strategy=d3rlpy.LoggingStrategy.STEPS,
        logging_steps=100,
    )
