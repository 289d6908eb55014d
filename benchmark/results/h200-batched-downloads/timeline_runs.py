#!/usr/bin/env python3
"""One run of a CUPTI timeline (timeline-injection.cpp of h200-host-waits):
its kernels and its copies, consecutive copies merged, times in us from the
run's first GPU activity. Runs are split where the GPU idles over 1 ms.
Usage: timeline_runs.py TIMELINE.tsv [RUN]   (RUN: index, -1 the last)
"""
import sys
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
rows=[(int(k),int(s),int(e),int(st),int(c),n) for k,s,e,st,c,n in rows]
gpu=sorted([r for r in rows if r[0]<3],key=lambda r:r[1])
api=sorted([r for r in rows if r[0]==3],key=lambda r:r[1])
# runs: start at first memcpy after a gap > 1 ms of GPU idle
runs=[];cur=[];prev=None
for r in gpu:
    if prev is not None and r[1]-prev>1_000_000: runs.append(cur);cur=[]
    cur.append(r); prev=max(prev or 0,r[2])
runs.append(cur)
which=int(sys.argv[2]) if len(sys.argv)>2 else -1
print(len(runs),"runs; spans(us):",[round((x[-1][2]-x[0][1])/1000) for x in runs])
run=runs[which]; t0=run[0][1]
def short(n):
    n=n.replace('_ZN3cca4cuda','').replace('_ZN3cub17CUB_300001_SM_9006detail','cub')
    return n[:50]
# compress: consecutive memcpys grouped
out=[]
for r in run:
    out.append((r[1]-t0,r[2]-t0,r[3],short(r[5])))
grp=None
for s,e,st,n in out:
    if n.startswith('memcpy'):
        if grp and grp[3]=='memcpy' and s-grp[1]<30000:
            grp=[grp[0],max(grp[1],e),grp[2]+int(n.split()[1]),'memcpy',grp[4]+1]; continue
        if grp: print(f"{grp[0]/1000:8.1f} {grp[1]/1000:8.1f}  {grp[4]} copies {grp[2]/1e6:.2f} MB  ({grp[2]/max(1,grp[1]-grp[0]):.1f} GB/s)")
        grp=[s,e,int(n.split()[1]),'memcpy',1]
    else:
        if grp: print(f"{grp[0]/1000:8.1f} {grp[1]/1000:8.1f}  {grp[4]} copies {grp[2]/1e6:.2f} MB  ({grp[2]/max(1,grp[1]-grp[0]):.1f} GB/s)"); grp=None
        print(f"{s/1000:8.1f} {e/1000:8.1f}  s{st} {n}")
if grp: print(f"{grp[0]/1000:8.1f} {grp[1]/1000:8.1f}  {grp[4]} copies {grp[2]/1e6:.2f} MB  ({grp[2]/max(1,grp[1]-grp[0]):.1f} GB/s)")
