"""DQN on a vectorized gymnasium CartPole-v1 (4 sync envs) with skrl's SequentialTrainer (skrl 2.x torch API),
then dump the TensorBoard scalars skrl wrote (runs/<experiment>/events.*) to JSON with event_accumulator.
Usage: python train_dqn_cartpole.py TIMESTEPS WRITE_INTERVAL EXPERIMENT_NAME"""
import json, os, sys

import gymnasium as gym
import torch
import torch.nn as nn

from skrl.agents.torch.dqn import DQN, DQN_CFG
from skrl.envs.wrappers.torch import wrap_env
from skrl.memories.torch import RandomMemory
from skrl.models.torch import DeterministicMixin, Model
from skrl.trainers.torch import SequentialTrainer
from skrl.utils import set_seed

timesteps, write_interval, name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
set_seed(7)
torch.set_num_threads(1)  # 2 shared cores


class QNetwork(DeterministicMixin, Model):
    def __init__(self, observation_space, action_space, device):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device)
        DeterministicMixin.__init__(self, clip_actions=False)
        self.net = nn.Sequential(nn.Linear(self.num_observations, 64), nn.ReLU(),
                                 nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, self.num_actions))

    def compute(self, inputs, role=""):
        return self.net(inputs["observations"]), {}


env = wrap_env(gym.make_vec("CartPole-v1", num_envs=4, vectorization_mode="sync"))
device = env.device
memory = RandomMemory(memory_size=10000, num_envs=env.num_envs, device=device, replacement=False)
models = {"q_network": QNetwork(env.observation_space, env.action_space, device),
          "target_q_network": QNetwork(env.observation_space, env.action_space, device)}

cfg = DQN_CFG()
cfg.learning_starts = 50
cfg.random_timesteps = 0
cfg.update_interval = 1
cfg.target_update_interval = 10
cfg.batch_size = 64
cfg.exploration_scheduler = lambda timestep, timesteps: max(1 - timestep / (0.5 * timesteps), 0.05)
cfg.experiment.write_interval = write_interval
cfg.experiment.checkpoint_interval = "auto"
cfg.experiment.directory = "runs"
cfg.experiment.experiment_name = name

agent = DQN(models=models, memory=memory, cfg=cfg, observation_space=env.observation_space,
            action_space=env.action_space, device=device)

trainer = SequentialTrainer(cfg={"timesteps": timesteps, "headless": True}, env=env, agents=agent)
trainer.train()

# the framework's record: the TensorBoard scalars under runs/<name>/
agent.writer.flush()
from tensorboard.backend.event_processing import event_accumulator
ea = event_accumulator.EventAccumulator(os.path.join("runs", name), size_guidance={event_accumulator.SCALARS: 0})
ea.Reload()
out = {tag: [{"step": e.step, "wall_time": e.wall_time, "value": e.value} for e in ea.Scalars(tag)]
       for tag in ea.Tags()["scalars"]}
with open(f"{name}_tb_scalars.json", "w") as f:
    json.dump(out, f, indent=1)
