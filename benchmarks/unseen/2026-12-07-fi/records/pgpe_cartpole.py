# EvoTorch neuroevolution quick start (PGPE + ClipUp on a GymNE CartPole-v1 problem), shrunk for a 2-core CPU:
# linear policy, popsize 40, 20 generations, evaluation in the main process (num_actors=0), StdOutLogger every generation.
from evotorch.algorithms import PGPE
from evotorch.logging import StdOutLogger, PandasLogger
from evotorch.neuroevolution import GymNE
import torch

torch.manual_seed(0)

problem = GymNE(
    env="CartPole-v1",
    network="Linear(obs_length, act_length)",
    observation_normalization=True,
    num_actors=0,

)

searcher = PGPE(
    problem,
    popsize=40,
    center_learning_rate=0.075,
    stdev_learning_rate=0.1,
    optimizer="clipup",
    optimizer_config={"max_speed": 0.15},
    radius_init=0.27,
    num_interactions=5000,
    popsize_max=200,
)

stdout_logger = StdOutLogger(searcher)
pandas_logger = PandasLogger(searcher)
searcher.run(20)

df = pandas_logger.to_dataframe()
df.to_csv("records/pgpe_cartpole_pandaslogger.csv")
df.reset_index().to_json("records/pgpe_cartpole_pandaslogger.json", orient="records", indent=1, double_precision=15)
