#!/usr/bin/env python3
"""Idle time of the GPU between the kernels of each run in a timeline that
timeline-injection.cpp wrote: per run (from one run count kernel to the
next), its kernels, their span, the idle time inside it, and each gap over
3 us with the runtime calls the host made during it.
Usage: timeline_gaps.py TIMELINE.tsv
"""
import sys,collections
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
rows=[(int(k),int(s),int(e),int(st),int(c),n) for k,s,e,st,c,n in rows]
gpu=sorted([r for r in rows if r[0]<3],key=lambda r:r[1])
api=sorted([r for r in rows if r[0]==3],key=lambda r:r[1])
def short(n):
    n=n.replace('_ZN3cca4cuda','').replace('_ZN3cub17CUB_300001_SM_9006detail','cub')
    return n[:45]
idx=[i for i,r in enumerate(gpu) if 'CountByteRuns' in r[5] or 'CountRunsKernel' in r[5]]
for j,a in enumerate(idx):
    b=idx[j+1] if j+1<len(idx) else len(gpu)
    seg=[r for r in gpu[a:b] if r[0]==0]  # kernels only
    t0=seg[0][1]; prev=seg[0][2]; idle=0; gaps=[]
    for i,r in enumerate(seg[1:],1):
        g=r[1]-prev
        if g>0:
            idle+=g
            if g>3000:
                calls=collections.Counter(x[5].split('_v')[0] for x in api if x[1]<r[1] and x[2]>prev)
                gaps.append(f"{g/1000:.1f} before {short(r[5])} [{', '.join(f'{k}x{v}' for k,v in calls.items())}]")
        prev=max(prev,r[2])
    span=prev-t0
    print(f"iter {j}: {len(seg)} kernels, span {span/1000:.1f} us, idle {idle/1000:.1f} us")
    for g in gaps: print("     ",g)
