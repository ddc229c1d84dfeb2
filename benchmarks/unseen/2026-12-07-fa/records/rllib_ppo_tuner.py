"""RLlib PPO on CartPole-v1 run through Ray Tune with Tune's default console output (default verbosity).

Tune writes the framework's own record of every iteration to STORAGE/NAME/PPO_CartPole-v1_*/progress.csv and
result.json.  usage: python rllib_ppo_tuner.py ITERS STORAGE_PATH NAME
"""
import sys
import ray
from ray import tune
from ray.rllib.algorithms.ppo import PPOConfig

iters, storage, name = int(sys.argv[1]), sys.argv[2], sys.argv[3]
ray.init(num_cpus=2)

config = (
    PPOConfig()
    .environment("CartPole-v1")
    .env_runners(num_env_runners=1)
    .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=4, lr=0.0003)
)

tuner = tune.Tuner(
    "PPO",
    param_space=config,
    run_config=tune.RunConfig(
        name=name,
        storage_path=storage,
        stop={"training_iteration": iters},
    ),
)
results = tuner.fit()
ray.shutdown()
