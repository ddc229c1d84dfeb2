"""RLlib quick start: PPO on CartPole-v1, algo.train() in a loop, each result printed with pretty_print.

Every 5th iteration (i % 5 == 0, as in RLlib's getting-started example) the algorithm is checkpointed with
algo.save_to_path() and the directory printed.
Every result dict is also appended to a JSONL file (the same object pretty_print serialises:
config and hist_stats dropped, SafeFallbackEncoder for non-JSON values).
usage: python rllib_ppo_train_loop.py ITERS RESULTS_JSONL
"""
import sys
import json
import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.tune.logger import pretty_print
from ray.tune.utils.util import SafeFallbackEncoder

iters, out_path = int(sys.argv[1]), sys.argv[2]
ray.init(num_cpus=2)

config = (
    PPOConfig()
    .environment("CartPole-v1")
    .env_runners(num_env_runners=1)
    .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=4, lr=0.0003)
)
algo = config.build_algo()

with open(out_path, "w") as jf:
    for i in range(iters):
        result = algo.train()
        print(pretty_print(result))
        rec = {k: v for k, v in result.items() if k not in ("config", "hist_stats") and v is not None}
        jf.write(json.dumps(rec, cls=SafeFallbackEncoder) + "\n")
        jf.flush()
        if i % 5 == 0:
            checkpoint_dir = algo.save_to_path()
            print(f"Checkpoint saved in directory {checkpoint_dir}")

algo.stop()
ray.shutdown()
