# Darts RNNModel (LSTM) with pl_trainer_kwargs enabling a Lightning CSVLogger (metrics.csv, every step)
# on a synthetic sine series (AirPassengersDataset needs a download, which fails offline). Default verbosity.
import sys
from pytorch_lightning.loggers import CSVLogger
from darts.utils.timeseries_generation import sine_timeseries, gaussian_timeseries
from darts.models import RNNModel
from record_cb import JsonlRecord

series = (sine_timeseries(length=300, value_frequency=1 / 24, value_y_offset=1.0)
          + gaussian_timeseries(length=300, std=0.05, start=sine_timeseries(length=1).start_time())).astype("float32")
train, val = series[:-36], series[-36:]

model = RNNModel(
    model="LSTM", input_chunk_length=24, training_length=36,
    hidden_dim=16, n_rnn_layers=1,
    n_epochs=20, batch_size=32, random_state=42,
    pl_trainer_kwargs={
        "logger": CSVLogger(save_dir=sys.argv[1], name="rnn_csv"),
        "log_every_n_steps": 1,
        "callbacks": [JsonlRecord(sys.argv[2])],
    },
)
model.fit(train)
pred = model.predict(n=36)
print("mean abs err:", float(abs(pred.values() - val.values()).mean()))
