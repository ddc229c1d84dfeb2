# EvoTorch CEM on the sphere function, 100 generations, StdOutLogger(searcher, interval=5).
import torch
from evotorch import Problem
from evotorch.algorithms import CEM
from evotorch.logging import StdOutLogger, PandasLogger


def sphere(x: torch.Tensor) -> torch.Tensor:
    return torch.sum(x.pow(2.0))


problem = Problem("min", sphere, solution_length=50, initial_bounds=(-10.0, 10.0), seed=1)
searcher = CEM(problem, popsize=200, parenthood_ratio=0.5, stdev_init=5.0)
stdout_logger = StdOutLogger(searcher, interval=5)
pandas_logger = PandasLogger(searcher)
searcher.run(100)

df = pandas_logger.to_dataframe()
df.to_csv("records/cem_sphere_pandaslogger.csv")
df.reset_index().to_json("records/cem_sphere_pandaslogger.json", orient="records", indent=1, double_precision=15)
