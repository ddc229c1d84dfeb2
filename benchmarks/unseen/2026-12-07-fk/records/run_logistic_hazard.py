# LogisticHazard (Nnet-survival) as in pycox examples/01_introduction.ipynb, with a label transform.
import numpy as np
import torch
import torchtuples as tt
from pycox.models import LogisticHazard
from pycox.evaluation import EvalSurv
from common import sim_data, dump_record

np.random.seed(1234)
_ = torch.manual_seed(123)

df_train, df_val, df_test, get_x = sim_data()
x_train, x_val, x_test = get_x(df_train), get_x(df_val), get_x(df_test)

num_durations = 10
labtrans = LogisticHazard.label_transform(num_durations)
get_target = lambda df: (df['duration'].values, df['event'].values)
y_train = labtrans.fit_transform(*get_target(df_train))
y_val = labtrans.transform(*get_target(df_val))
train = (x_train, y_train)
val = (x_val, y_val)
durations_test, events_test = get_target(df_test)

in_features = x_train.shape[1]
num_nodes = [32, 32]
out_features = labtrans.out_features
batch_norm = True
dropout = 0.1
net = tt.practical.MLPVanilla(in_features, num_nodes, out_features, batch_norm, dropout)
model = LogisticHazard(net, tt.optim.Adam(0.01), duration_index=labtrans.cuts)

batch_size = 256
epochs = 30
callbacks = [tt.cb.EarlyStopping()]
log = model.fit(x_train, y_train, batch_size, epochs, callbacks, val_data=val)

surv = model.predict_surv_df(x_test)
ev = EvalSurv(surv, durations_test, events_test, censor_surv='km')
print(ev.concordance_td('antolini'))
dump_record(log, 'logistic_hazard')
