"""PyKEEN quick start: TransE on Nations, default console output, CSV result tracker as the record."""
import sys
from pykeen.pipeline import pipeline

out = sys.argv[1]
result = pipeline(
    dataset="Nations",
    model="TransE",
    training_kwargs=dict(num_epochs=20),
    random_seed=1234,
    device="cpu",
    result_tracker="csv",
    result_tracker_kwargs=dict(path=f"{out}.csv"),
)
print(result.losses)  # (not part of the framework's record; shown by the script)
