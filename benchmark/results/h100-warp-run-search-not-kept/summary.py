# Summed throughput (total pixels over summed kernel time) of each variant, best of its rounds per image:
#   python3 summary.py FOLDER   (files k{2,3}-{labels,all}-{run,warp}{round}.json)
import collections, glob, json, os, re, sys
folder = sys.argv[1]
groups = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(folder, 'k*.json'))):
    m = re.match(r'k(\d)-(\w+)-([a-z]+)(\d+)\.json', os.path.basename(f))
    groups[(m.group(1), m.group(2), m.group(3))].append(json.load(open(f))['measurements'])
for (dim, out, variant), runs in sorted(groups.items()):
    cells = []
    for conn in ('face', 'full'):
        for g in (1, 4, 16, 0):
            idx = [i for i, m in enumerate(runs[0]) if m['connectivity'] == conn and (m['allForeground'] if g == 0 else (m['g'] == g and not m['allForeground']))]
            px = len(idx) * (8192 * 8192 if dim == '2' else 512 ** 3)
            t = sum(min(r[i]['kernelMs'] for r in runs) for i in idx)
            cells.append('%s g=%s %.1f' % (conn, g if g else 'all', px / t / 1e6))
    print('%sD %-6s %-5s (%d rounds) %s' % (dim, out, variant, len(runs), '  '.join(cells)))
