"""PPO on gymnasium CartPole-v1 with skrl's SequentialTrainer (skrl 2.x torch API), then dump the
TensorBoard scalars skrl wrote (runs/<experiment>/events.*) to JSON with tensorboard's event_accumulator.
Usage: python train_ppo_cartpole.py TIMESTEPS WRITE_INTERVAL EXPERIMENT_NAME [EVAL_TIMESTEPS]"""
import json, os, sys

import gymnasium as gym
import torch
import torch.nn as nn

from skrl.agents.torch.ppo import PPO, PPO_CFG
from skrl.envs.wrappers.torch import wrap_env
from skrl.memories.torch import RandomMemory
from skrl.models.torch import CategoricalMixin, DeterministicMixin, Model
from skrl.trainers.torch import SequentialTrainer
from skrl.utils import set_seed

timesteps, write_interval, name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
eval_timesteps = int(sys.argv[4]) if len(sys.argv) > 4 else 0
set_seed(42)
torch.set_num_threads(1)  # 2 shared cores


class Policy(CategoricalMixin, Model):
    def __init__(self, observation_space, action_space, device):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device)
        CategoricalMixin.__init__(self, unnormalized_log_prob=True)
        self.net = nn.Sequential(nn.Linear(self.num_observations, 32), nn.ELU(),
                                 nn.Linear(32, 32), nn.ELU(), nn.Linear(32, self.num_actions))

    def compute(self, inputs, role=""):
        return self.net(inputs["observations"]), {}


class Value(DeterministicMixin, Model):
    def __init__(self, observation_space, action_space, device):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device)
        DeterministicMixin.__init__(self, clip_actions=False)
        self.net = nn.Sequential(nn.Linear(self.num_observations, 32), nn.ELU(),
                                 nn.Linear(32, 32), nn.ELU(), nn.Linear(32, 1))

    def compute(self, inputs, role=""):
        return self.net(inputs["observations"]), {}


env = wrap_env(gym.make("CartPole-v1"))
device = env.device
memory = RandomMemory(memory_size=128, num_envs=env.num_envs, device=device)
models = {"policy": Policy(env.observation_space, env.action_space, device),
          "value": Value(env.observation_space, env.action_space, device)}

cfg = PPO_CFG()
cfg.rollouts = 128
cfg.learning_epochs = 4
cfg.mini_batches = 4
cfg.learning_rate = 1e-3
cfg.experiment.write_interval = write_interval
cfg.experiment.checkpoint_interval = "auto"
cfg.experiment.directory = "runs"
cfg.experiment.experiment_name = name

agent = PPO(models=models, memory=memory, cfg=cfg, observation_space=env.observation_space,
            action_space=env.action_space, device=device)

trainer = SequentialTrainer(cfg={"timesteps": timesteps, "headless": True}, env=env, agents=agent)
trainer.train()
if eval_timesteps:
    trainer.cfg.timesteps = eval_timesteps
    trainer.eval()

# the framework's record: the TensorBoard scalars under runs/<name>/
agent.writer.flush()
from tensorboard.backend.event_processing import event_accumulator
ea = event_accumulator.EventAccumulator(os.path.join("runs", name), size_guidance={event_accumulator.SCALARS: 0})
ea.Reload()
out = {tag: [{"step": e.step, "wall_time": e.wall_time, "value": e.value} for e in ea.Scalars(tag)]
       for tag in ea.Tags()["scalars"]}
with open(f"{name}_tb_scalars.json", "w") as f:
    json.dump(out, f, indent=1)
