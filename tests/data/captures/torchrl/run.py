# torchrl 0.14.1 DQNTrainer (torchrl.trainers.algorithms.DQNTrainer) on CartPole-v1, CPU, with torchrl's CSVLogger.
# Model/loss set-up follows the DQNTrainer docstring example and the "getting started" DQN tutorial.
import torch
from torch import optim
from tensordict.nn import TensorDictModule as Mod, TensorDictSequential as Seq
from torchrl.collectors import Collector
from torchrl.data import LazyTensorStorage, TensorDictReplayBuffer
from torchrl.envs import GymEnv, StepCounter, TransformedEnv, RewardSum
from torchrl.modules import EGreedyModule, MLP, QValueModule
from torchrl.objectives import DQNLoss, HardUpdate
from torchrl.record import CSVLogger
from torchrl.trainers.algorithms import DQNTrainer

torch.manual_seed(0)

def make_env():
    env = TransformedEnv(GymEnv("CartPole-v1"), StepCounter())
    env.append_transform(RewardSum())
    return env

env = make_env()
env.set_seed(0)
value_mlp = MLP(out_features=env.action_spec.shape[-1], num_cells=[64, 64])
value_net = Mod(value_mlp, in_keys=["observation"], out_keys=["action_value"])
policy = Seq(value_net, QValueModule(spec=env.action_spec))
greedy = EGreedyModule(env.action_spec, annealing_num_steps=10_000, eps_init=1.0, eps_end=0.05)
policy_explore = Seq(policy, greedy)

collector = Collector(make_env, policy_explore, frames_per_batch=200, total_frames=12_000, init_random_frames=1000)
loss_module = DQNLoss(value_network=policy, action_space=env.action_spec, delay_value=True)
loss_module.make_value_estimator(gamma=0.99)
optimizer = optim.Adam(loss_module.parameters(), lr=1e-3)
replay_buffer = TensorDictReplayBuffer(storage=LazyTensorStorage(50_000), batch_size=128)
target_net_updater = HardUpdate(loss_module, value_network_update_interval=50)
logger = CSVLogger(exp_name="dqn_cartpole", log_dir="csv_logs")

trainer = DQNTrainer(
    collector=collector,
    total_frames=12_000,
    frame_skip=1,
    optim_steps_per_batch=20,
    loss_module=loss_module,
    optimizer=optimizer,
    replay_buffer=replay_buffer,
    target_net_updater=target_net_updater,
    greedy_module=greedy,
    logger=logger,
    log_interval=0,          # send every logged value to the CSVLogger (default 10000 frames)
    save_trainer_file=None,
    seed=0,
    episode_reward_key="episode_reward",  # name written by RewardSum()
)
trainer.train()
print("done: collected_frames =", trainer.collected_frames)
