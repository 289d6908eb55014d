# Summed labels-only throughput (total pixels over summed kernel time, Gpix/s
# or Gvox/s) of each variant in a folder, best of its rounds per image:
#   python3 summary.py FOLDER
# Files: k{2,3}-c{CLIMBS}-{ROUND}.json (CCA_CLIMBS, numbering climbs a
# thread) or b3-o{OFFER}-l{LABEL}-{ROUND}.json (block labeling lines a thread).
import collections, glob, json, os, sys

folder = sys.argv[1]
groups = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(folder, '*.json'))):
    name = os.path.basename(f)[:-5]
    variant, _, round_ = name.rpartition('-')
    kind = 'rounds of all g' if round_.startswith('a') and round_ != 'all' else ('one round of all g' if round_ == 'all' else 'g = 1 rounds')
    groups[(name.split('-')[0], kind, variant)].append(json.load(open(f))['measurements'])
for (dim, kind, variant), runs in sorted(groups.items()):
    out = []
    for conn in ('face', 'full'):
        for g in (1, 4, 16, 0):
            idx = [i for i, m in enumerate(runs[0]) if m['g'] == g and m['connectivity'] == conn]
            if not idx:
                continue
            px = sum(runs[0][i].get('pixels', 8192 * 8192 if dim.endswith('2') else 512 ** 3) for i in idx)
            t = sum(min(r[i]['kernelMs'] for r in runs) for i in idx)
            out.append('%s g=%s %.1f' % (conn, g if g else 'all', px / t / 1e6))
    print('%-3s %-18s %-10s (%d) %s' % (dim, kind, variant, len(runs), '  '.join(out)))
