#!/usr/bin/env bash
# Session 22, call 4: copy workers ordering their own lanes and waiting for the download's copies themselves (B) against 7cbb4fd's engine (A); GPU checks of B
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/e2e && tar -C /tmp/e2e -xJf .devcarry/e2e21.tar.xz
mkdir -p /tmp/e2eC && tar -C /tmp/e2eC -xJf .devcarry/e2e21C.tar.xz
mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/b22c.tar.xz
export LD_LIBRARY_PATH=/tmp/e2e/lib
A=/tmp/e2eC/C/cca_e2e_benchmark; B=/tmp/b/B/cca_e2e_benchmark
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
M=ct-face,ct-full,balls-60k,random3d-g4,random2d-g16,random2d-g4
timeout 60 $A --threads 16 --only ct-face --reps 3 --no-itk > $L/warmup.log 2>&1
for r in 1 2 3; do for v in A B; do
  [ $SECONDS -gt 330 ] && break
  bin=$A; [ $v = B ] && bin=$B
  timeout 100 $bin --threads 16 --only $M --reps 7 --no-itk --json $L/e2e-$v$r.json > $L/e2e-$v$r.log 2>&1; echo "e2e $v$r rc=$? at $SECONDS s" >> $L/summary.txt
done; done
( timeout 120 /tmp/b/B/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$?"; tail -1 $L/devmem.log ) >> $L/summary.txt
left=$((520 - SECONDS)); [ $left -gt 100 ] && left=100; [ $left -lt 10 ] && left=10
( timeout $left /tmp/b/B/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; tail -1 $L/backend.log ) >> $L/summary.txt
left=$((580 - SECONDS)); [ $left -gt 120 ] && left=120; [ $left -lt 10 ] && left=10
( timeout $left compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/B/ccaDeviceMemoryTest > $L/memcheck-devmem.log 2>&1; echo "memcheck devmem rc=$? at $SECONDS s"; tail -2 $L/memcheck-devmem.log ) >> $L/summary.txt
grep -h "engine alone\|ours-cuda" $L/e2e-*.log > /dev/null
python3 - $L > $L/ab.txt <<'PY'
import json,sys,glob,os,collections
L=sys.argv[1]
data=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(L+'/e2e-*.json')):
    v=os.path.basename(f)[4:5]
    try: d=json.load(open(f))
    except Exception as e: print(f, e); continue
    for r in d['rows']:
        if r['impl']!='ours-cuda': continue
        data[r['mask']][v].append((r['updateMs'],r['engineAloneMs'],r['engineUploadMs'],r['engineDownloadMs'],r['hostBoundMs'],r['check']))
print('%-14s %-2s %-26s %-26s %-22s %-22s %s'%('mask','v','update ms (rounds)','engine alone','engine up','engine down','bound w/ read'))
for m,vs in data.items():
    for v in sorted(vs):
        rs=vs[v]
        f=lambda k: ' '.join('%.2f'%x[k] for x in rs)
        print('%-14s %-2s %-26s %-26s %-22s %-22s %.2f %s'%(m,v,f(0),f(1),f(2),f(3),rs[0][4],','.join(sorted({x[5] for x in rs}))))
PY
tar -C $OUT -czf $OUT/logs.tgz logs; cp $L/summary.txt $L/ab.txt $OUT/
