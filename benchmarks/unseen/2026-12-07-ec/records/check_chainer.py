"""Re-render each LogReport entry of result_<mode>/log with PrintReport's template and compare it with the log's rows."""
import json, re, sys
logf, rec, entries = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
L = json.load(open(rec))
rows = []
for n, l in enumerate(open(logf), 1):
    s = re.sub(r'\x1b\[\d*[A-Za-z]', '', l)
    if re.match(r'^\d+\s', s):
        rows.append((n, s.split('\n')[0]))
print(logf, len(rows), 'rows;', len(L), 'log entries')
for (n, s), r in zip(rows, L):
    out = ''
    for e in entries:
        w = max(10, len(e))
        out += ('{:<%dg}  ' % w).format(r[e]) if e in r else ' ' * (w + 2)
    print(n, 'OK' if out == s else 'DIFF', s.rstrip())
