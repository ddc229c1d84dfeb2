"""Tianshou 2.x DQN on CartPole-v1, as in tianshou's test/discrete/test_dqn.py (smaller, fewer epochs).
Record: TensorboardLogger event files (read back to JSONL by dump_record.py) and the returned InfoStats (JSON)."""
import argparse
import dataclasses
import json
import logging
import os

import gymnasium as gym
import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

from tianshou.algorithm import DQN
from tianshou.algorithm.algorithm_base import Algorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils import TensorboardLogger
from tianshou.utils.net.common import Net
from tianshou.utils.space_info import SpaceInfo
from tianshou.utils.torch_utils import policy_within_training_step

from dump_record import dump


def get_args() -> argparse.Namespace:
    p = argparse.ArgumentParser()
    p.add_argument("--task", type=str, default="CartPole-v1")
    p.add_argument("--seed", type=int, default=1626)
    p.add_argument("--eps_test", type=float, default=0.05)
    p.add_argument("--eps_train", type=float, default=0.1)
    p.add_argument("--buffer_size", type=int, default=20000)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--gamma", type=float, default=0.9)
    p.add_argument("--n_step", type=int, default=3)
    p.add_argument("--target_update_freq", type=int, default=320)
    p.add_argument("--epoch", type=int, default=12)
    p.add_argument("--epoch_num_steps", type=int, default=1000)
    p.add_argument("--collection_step_num_env_steps", type=int, default=10)
    p.add_argument("--update_per_step", type=float, default=0.1)
    p.add_argument("--batch_size", type=int, default=64)
    p.add_argument("--hidden_sizes", type=int, nargs="*", default=[64, 64])
    p.add_argument("--num_training_envs", type=int, default=10)
    p.add_argument("--num_test_envs", type=int, default=10)
    p.add_argument("--logdir", type=str, default="log")
    p.add_argument("--reward_threshold", type=float, default=None)
    p.add_argument("--test_in_training", action="store_true", default=False)
    p.add_argument("--python_logging", action="store_true", default=False,
                   help="also configure Python logging at INFO (logging.basicConfig)")
    p.add_argument("--checkpoint", action="store_true", default=False)
    return p.parse_known_args()[0]


def main(args: argparse.Namespace) -> None:
    if args.python_logging:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-5s %(name)s - %(message)s")
    env = gym.make(args.task)
    space_info = SpaceInfo.from_env(env)
    args.state_shape = space_info.observation_info.obs_shape
    args.action_shape = space_info.action_info.action_shape
    training_envs = DummyVectorEnv([lambda: gym.make(args.task) for _ in range(args.num_training_envs)])
    test_envs = DummyVectorEnv([lambda: gym.make(args.task) for _ in range(args.num_test_envs)])
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    training_envs.seed(args.seed)
    test_envs.seed(args.seed)

    net = Net(state_shape=args.state_shape, action_shape=args.action_shape, hidden_sizes=args.hidden_sizes)
    policy = DiscreteQLearningPolicy(
        model=net, action_space=env.action_space, observation_space=env.observation_space,
        eps_training=args.eps_train, eps_inference=args.eps_test,
    )
    algorithm = DQN(
        policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
        n_step_return_horizon=args.n_step, target_update_freq=args.target_update_freq,
    )
    buf = VectorReplayBuffer(args.buffer_size, buffer_num=len(training_envs))
    training_collector = Collector[CollectStats](algorithm, training_envs, buf, exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    with policy_within_training_step(policy):
        training_collector.reset()
        training_collector.collect(n_step=args.batch_size * args.num_training_envs)

    log_path = os.path.join(args.logdir, args.task, "dqn")
    writer = SummaryWriter(log_path)
    # update_interval=1: every gradient step's losses go to the record (default 1000 env steps would thin it)
    logger = TensorboardLogger(writer, training_interval=1, update_interval=1, save_interval=1)

    def save_best_fn(alg: Algorithm) -> None:
        torch.save(alg.state_dict(), os.path.join(log_path, "policy.pth"))

    def save_checkpoint_fn(epoch: int, env_step: int, gradient_step: int) -> str:
        ckpt = os.path.join(log_path, "checkpoint.pth")
        torch.save({"model": algorithm.state_dict()}, ckpt)
        return ckpt

    stop_fn = None
    if args.reward_threshold is not None:
        stop_fn = lambda mean_rewards: mean_rewards >= args.reward_threshold

    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=training_collector,
            test_collector=test_collector,
            max_epochs=args.epoch,
            epoch_num_steps=args.epoch_num_steps,
            collection_step_num_env_steps=args.collection_step_num_env_steps,
            test_step_num_episodes=args.num_test_envs,
            batch_size=args.batch_size,
            update_step_num_gradient_steps_per_sample=args.update_per_step,
            stop_fn=stop_fn,
            save_best_fn=save_best_fn,
            save_checkpoint_fn=save_checkpoint_fn if args.checkpoint else None,
            logger=logger,
            test_in_training=args.test_in_training,
        )
    )
    writer.flush()
    writer.close()
    with open(os.path.join(args.logdir, "result.json"), "w") as f:
        json.dump(dataclasses.asdict(result), f, indent=1, default=str)
    dump(log_path, os.path.join(args.logdir, "tb_scalars.jsonl"))


if __name__ == "__main__":
    main(get_args())
