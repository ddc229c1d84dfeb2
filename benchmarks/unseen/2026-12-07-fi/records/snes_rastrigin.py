# EvoTorch README quick start (SNES on Rastrigin), shortened to 20 generations; StdOutLogger every generation.
import math
import torch
from evotorch import Problem
from evotorch.algorithms import SNES
from evotorch.logging import StdOutLogger, PandasLogger

torch.manual_seed(0)


def rastrigin(xs: torch.Tensor) -> torch.Tensor:
    A = 10
    (_, n) = xs.shape
    return A * n + torch.sum((xs**2) - A * torch.cos(2 * math.pi * xs), 1)


problem = Problem("min", rastrigin, initial_bounds=(-5.12, 5.12), solution_length=100, vectorized=True, seed=0)
searcher = SNES(problem, popsize=1000, stdev_init=10.0)
stdout_logger = StdOutLogger(searcher)
pandas_logger = PandasLogger(searcher)
searcher.run(20)

df = pandas_logger.to_dataframe()
df.to_csv("records/snes_rastrigin_pandaslogger.csv")
df.reset_index().to_json("records/snes_rastrigin_pandaslogger.json", orient="records", indent=1, double_precision=15)
