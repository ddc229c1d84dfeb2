"""Online DQN with d3rlpy's fit_online on gymnasium CartPole-v1 (epsilon-greedy, evaluation env)."""
import gymnasium as gym

import d3rlpy

d3rlpy.seed(0)
env = gym.make("CartPole-v1")
eval_env = gym.make("CartPole-v1")
d3rlpy.envs.seed_env(env, 0)
d3rlpy.envs.seed_env(eval_env, 1)

dqn = d3rlpy.algos.DQNConfig(batch_size=32, learning_rate=1e-3, target_update_interval=100).create(device="cpu:0")
buffer = d3rlpy.dataset.create_fifo_replay_buffer(limit=10000, env=env)
explorer = d3rlpy.algos.LinearDecayEpsilonGreedy(start_epsilon=1.0, end_epsilon=0.1, duration=3000)
dqn.fit_online(
    env,
    buffer,
    explorer,
    n_steps=5000,
    n_steps_per_epoch=1000,
    update_start_step=200,
    eval_env=eval_env,
    eval_n_trials=3,
    experiment_name="DQN_online",
)
