# DeepSurv / CoxPH as in pycox examples/cox-ph.ipynb, on simulated data (SimStudyNonLinearPH).
import numpy as np
import torch
import torchtuples as tt
from pycox.models import CoxPH
from pycox.evaluation import EvalSurv
from common import sim_data, dump_record

np.random.seed(1234)
_ = torch.manual_seed(123)

df_train, df_val, df_test, get_x = sim_data()
x_train, x_val, x_test = get_x(df_train), get_x(df_val), get_x(df_test)
get_target = lambda df: (df['duration'].values.astype('float32'), df['event'].values.astype('float32'))
y_train = get_target(df_train)
y_val = get_target(df_val)
durations_test, events_test = get_target(df_test)
val = x_val, y_val

in_features = x_train.shape[1]
num_nodes = [32, 32]
out_features = 1
batch_norm = True
dropout = 0.1
output_bias = False
net = tt.practical.MLPVanilla(in_features, num_nodes, out_features, batch_norm,
                              dropout, output_bias=output_bias)
model = CoxPH(net, tt.optim.Adam)
batch_size = 256
model.optimizer.set_lr(0.01)

epochs = 40
callbacks = [tt.callbacks.EarlyStopping()]
verbose = True
log = model.fit(x_train, y_train, batch_size, epochs, callbacks, verbose,
                val_data=val, val_batch_size=batch_size)

print(model.partial_log_likelihood(*val).mean())
_ = model.compute_baseline_hazards()
surv = model.predict_surv_df(x_test)
ev = EvalSurv(surv, durations_test, events_test, censor_surv='km')
print(ev.concordance_td())
dump_record(log, 'coxph')
