import json,re,sys,glob
log,d=sys.argv[1],sys.argv[2]
lines=open(log,newline='').read().split('\n')
recs=[json.loads(l) for l in open(glob.glob(d+'/*/episode_statistics.jsonl')[0])]
steps=[];stats=[]
for i,l in enumerate(lines,1):
    m=re.search(r'train_agent:outdir:\S+ step:(\d+) episode:(\d+) R:(\S+)$',l)
    if m: steps.append((i,int(m.group(1)),int(m.group(2)),float(m.group(3))))
    m=re.search(r'train_agent:statistics:(.*)$',l)
    if m: stats.append((i,m.group(1)))
assert len(steps)==len(recs)==len(stats),(len(steps),len(recs),len(stats))
for (i,s,e,R),(j,st),r in zip(steps,stats,recs):
    assert j==i+1 and s==r['step'] and e==r['episode'] and R==r['R'] and st==r['statistics_repr'],(i,s,r)
print(log,'OK',len(steps),'records; steps',[s for _,s,_,_ in steps])
ev=[]
for i,l in enumerate(lines,1):
    if 'evaluation episode' in l or 'Saved the agent' in l or 'best score' in l: ev.append((i,l.split('train_agent:')[1]))
for e in ev: print(e)
