"""TransE on Nations with an early stopper (validation every 5 epochs), CSV result tracker as the record (the JSON tracker raised TypeError: MarginRankingLoss is not JSON serializable)."""
import sys
from pykeen.pipeline import pipeline

out = sys.argv[1]
result = pipeline(
    dataset="Nations",
    model="TransE",
    training_kwargs=dict(num_epochs=30),
    stopper="early",
    stopper_kwargs=dict(frequency=5, patience=2, relative_delta=0.002),
    random_seed=1234,
    device="cpu",
    result_tracker="csv",
    result_tracker_kwargs=dict(path=f"{out}.csv"),
)
print("stopper results (hits@10 on validation):", result.stopper.results)
