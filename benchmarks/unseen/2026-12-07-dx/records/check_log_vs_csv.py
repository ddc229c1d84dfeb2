import re,sys,csv,ast,glob,os
log,d=sys.argv[1],sys.argv[2]
raw=open(log,encoding='utf-8').read()
txt=re.sub(r'\x1b\[[0-9;]*m','',raw)
recs=[]
for m in re.finditer(r': epoch=(\d+) step=(\d+) epoch=\d+ metrics=(\{.*?\}) step=(\d+)',txt):
    recs.append((int(m.group(1)),int(m.group(2)),ast.literal_eval(m.group(3))))
print('records',len(recs),[r[1] for r in recs])
csvs={os.path.basename(f)[:-4]:{int(r[1]):r[2] for r in csv.reader(open(f))} for f in glob.glob(d+'/*.csv') if not f.endswith('_grad.csv')}
bad=0
for e,s,m in recs:
    for k,v in m.items():
        if csvs[k][s]!=repr(v): bad+=1; print('MISMATCH',s,k,v,csvs[k][s])
print('mismatches',bad, 'csv rows', {k:len(v) for k,v in csvs.items()})
