"""PPO on a vectorized gymnasium Pendulum-v1 (4 sync envs) with skrl's SequentialTrainer (skrl 2.x torch API),
the agent's DEFAULT experiment config (write_interval="auto" = timesteps/100, checkpoint_interval="auto"),
then dump the TensorBoard scalars skrl wrote to JSON with tensorboard's event_accumulator.
Usage: python train_ppo_pendulum.py TIMESTEPS EXPERIMENT_NAME"""
import json, os, sys

import gymnasium as gym
import torch
import torch.nn as nn

from skrl.agents.torch.ppo import PPO, PPO_CFG
from skrl.envs.wrappers.torch import wrap_env
from skrl.memories.torch import RandomMemory
from skrl.models.torch import DeterministicMixin, GaussianMixin, Model
from skrl.trainers.torch import SequentialTrainer
from skrl.utils import set_seed

timesteps, name = int(sys.argv[1]), sys.argv[2]
set_seed(3)
torch.set_num_threads(1)  # 2 shared cores


class Policy(GaussianMixin, Model):
    def __init__(self, observation_space, action_space, device):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device)
        GaussianMixin.__init__(self, clip_actions=False, clip_log_std=True, min_log_std=-20, max_log_std=2)
        self.net = nn.Sequential(nn.Linear(self.num_observations, 64), nn.ReLU(),
                                 nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, self.num_actions))
        self.log_std_parameter = nn.Parameter(torch.zeros(self.num_actions))

    def compute(self, inputs, role=""):
        return 2 * torch.tanh(self.net(inputs["observations"])), {"log_std": self.log_std_parameter}


class Value(DeterministicMixin, Model):
    def __init__(self, observation_space, action_space, device):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device)
        DeterministicMixin.__init__(self, clip_actions=False)
        self.net = nn.Sequential(nn.Linear(self.num_observations, 64), nn.ReLU(),
                                 nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))

    def compute(self, inputs, role=""):
        return self.net(inputs["observations"]), {}


env = wrap_env(gym.make_vec("Pendulum-v1", num_envs=4, vectorization_mode="sync"))
device = env.device
memory = RandomMemory(memory_size=256, num_envs=env.num_envs, device=device)
models = {"policy": Policy(env.observation_space, env.action_space, device),
          "value": Value(env.observation_space, env.action_space, device)}

cfg = PPO_CFG()
cfg.rollouts = 256
cfg.learning_epochs = 4
cfg.mini_batches = 4
cfg.entropy_loss_scale = 0.0
cfg.experiment.directory = "runs"
cfg.experiment.experiment_name = name
# experiment.write_interval / checkpoint_interval left at their defaults ("auto")

agent = PPO(models=models, memory=memory, cfg=cfg, observation_space=env.observation_space,
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
