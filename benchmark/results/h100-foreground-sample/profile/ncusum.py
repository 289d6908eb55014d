import csv, sys, re, collections
# sums ncu gpu__time_duration.sum per kernel name (base name) from --csv output
rows = list(csv.reader(open(sys.argv[1])))
hdr = None
tot = collections.OrderedDict(); cnt = collections.Counter()
for r in rows:
    if 'Kernel Name' in r:
        hdr = r; continue
    if hdr is None or len(r) != len(hdr): continue
    d = dict(zip(hdr, r))
    if d.get('Metric Name') != 'gpu__time_duration.sum': continue
    name = d['Kernel Name']
    name = re.sub(r'^void ', '', name)
    name = re.split(r'[<(]', name)[0]
    v = float(d['Metric Value'].replace(',', ''))
    tot[name] = tot.get(name, 0) + v; cnt[name] += 1
all_ = sum(tot.values())
for k, v in sorted(tot.items(), key=lambda kv: -kv[1]):
    print('%10.1f us  x%-3d %s' % (v / 1000, cnt[k], k))
print('%10.1f us  total' % (all_ / 1000))
