"""TransE on Nations saving a training checkpoint after every epoch (checkpoint_frequency=0), CSV result tracker."""
import sys
from pykeen.pipeline import pipeline

out, ckpt_dir = sys.argv[1], sys.argv[2]
result = pipeline(
    dataset="Nations",
    model="TransE",
    training_kwargs=dict(
        num_epochs=15,
        checkpoint_name="transe_nations.pt",
        checkpoint_directory=ckpt_dir,
        checkpoint_frequency=0,
    ),
    random_seed=1234,
    device="cpu",
    result_tracker="csv",
    result_tracker_kwargs=dict(path=f"{out}.csv"),
)
