"""Tianshou 2.x PPO on CartPole-v1, as in tianshou's test/discrete/test_ppo_discrete.py (smaller, fewer epochs).
Record: TensorboardLogger event files (read back to JSONL by dump_record.py) and the returned InfoStats (JSON)."""
import argparse
import dataclasses
import json
import os

import gymnasium as gym
import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

from tianshou.algorithm import PPO
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OnPolicyTrainerParams
from tianshou.utils import TensorboardLogger
from tianshou.utils.net.common import ActorCritic, Net
from tianshou.utils.net.discrete import DiscreteActor, DiscreteCritic
from tianshou.utils.space_info import SpaceInfo

from dump_record import dump


def get_args() -> argparse.Namespace:
    p = argparse.ArgumentParser()
    p.add_argument("--task", type=str, default="CartPole-v1")
    p.add_argument("--seed", type=int, default=1626)
    p.add_argument("--buffer_size", type=int, default=20000)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--epoch", type=int, default=4)
    p.add_argument("--epoch_num_steps", type=int, default=2000)
    p.add_argument("--collection_step_num_env_steps", type=int, default=500)
    p.add_argument("--update_step_num_repetitions", type=int, default=2)
    p.add_argument("--batch_size", type=int, default=64)
    p.add_argument("--hidden_sizes", type=int, nargs="*", default=[64, 64])
    p.add_argument("--num_training_envs", type=int, default=10)
    p.add_argument("--num_test_envs", type=int, default=10)
    p.add_argument("--logdir", type=str, default="log")
    return p.parse_known_args()[0]


def main(args: argparse.Namespace) -> None:
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

    net = Net(state_shape=args.state_shape, hidden_sizes=args.hidden_sizes)
    actor = DiscreteActor(preprocess_net=net, action_shape=args.action_shape)
    critic = DiscreteCritic(preprocess_net=net)
    for m in ActorCritic(actor, critic).modules():
        if isinstance(m, torch.nn.Linear):
            torch.nn.init.orthogonal_(m.weight)
            torch.nn.init.zeros_(m.bias)
    policy = DiscreteActorPolicy(
        actor=actor, dist_fn=torch.distributions.Categorical, action_space=env.action_space,
        deterministic_eval=True,
    )
    algorithm = PPO(
        policy=policy, critic=critic, optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
        max_grad_norm=0.5, eps_clip=0.2, vf_coef=0.5, ent_coef=0.0, gae_lambda=0.95,
    )
    training_collector = Collector[CollectStats](
        algorithm, training_envs, VectorReplayBuffer(args.buffer_size, len(training_envs))
    )
    test_collector = Collector[CollectStats](algorithm, test_envs)

    log_path = os.path.join(args.logdir, args.task, "ppo")
    writer = SummaryWriter(log_path)
    logger = TensorboardLogger(writer, training_interval=1, update_interval=1)

    def save_best_fn(alg) -> None:
        torch.save(alg.state_dict(), os.path.join(log_path, "policy.pth"))

    result = algorithm.run_training(
        OnPolicyTrainerParams(
            training_collector=training_collector,
            test_collector=test_collector,
            max_epochs=args.epoch,
            epoch_num_steps=args.epoch_num_steps,
            update_step_num_repetitions=args.update_step_num_repetitions,
            test_step_num_episodes=args.num_test_envs,
            batch_size=args.batch_size,
            collection_step_num_env_steps=args.collection_step_num_env_steps,
            save_best_fn=save_best_fn,
            logger=logger,
        )
    )
    writer.flush()
    writer.close()
    with open(os.path.join(args.logdir, "result.json"), "w") as f:
        json.dump(dataclasses.asdict(result), f, indent=1, default=str)
    dump(log_path, os.path.join(args.logdir, "tb_scalars.jsonl"))


if __name__ == "__main__":
    main(get_args())
