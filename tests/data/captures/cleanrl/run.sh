#!/bin/bash
# cleanrl single-file PPO (cleanrl/ppo.py copied unmodified from vwxyzjn/cleanrl @ fe8d8a03c41a7ef5b523e2e354bd01c363e786bb)
# in a venv of its own, pinned like cleanrl's requirements (gymnasium==0.29.1, numpy<2).
cd "$(dirname "$0")"
rm -rf runs
"${PYTHON:-python}" ppo.py --env-id CartPole-v1 --total-timesteps 20000 --seed 1 2>&1 | tee console.log
"${PYTHON:-python}" dump_tfevents.py
