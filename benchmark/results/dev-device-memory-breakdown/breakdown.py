import subprocess,sys,collections,re
cat={'the feature table':'table','the widened feature table':'table','run offsets':'table',
 'grouped runs':'grouped runs (output)',
 'the runs\' records':'run arrays','union-find parents':'run arrays','run starts':'run arrays','run ends':'run arrays','run rows':'run arrays',
 'run end index':'run arrays','run link flags':'run arrays','the runs\' pairs with their previous slices':'run arrays','the runs\' pairs with their previous rows':'run arrays',
 'component numbers':'numbering and sort','run labels':'numbering and sort','component roots':'numbering and sort','indices in raster order':'numbering and sort','indices sorted by key':'numbering and sort',
 'the foreground image':'image','the image\'s foreground bits':'image','the image\'s rows as bits':'image'}
order=['image','run arrays','numbering and sort','grouped runs (output)','table','other']
def run(dim,n,d,conn,g):
    p=subprocess.run(['build-emu/test/gpu/ccaMemBreakdown',str(dim),str(n),str(d),conn,str(g)],env={'CCA_EMU_LOG_RESERVE':'1'},capture_output=True,text=True)
    cap={}; name={}
    for l in p.stderr.splitlines():
        if l.startswith('RESERVE'):
            _,ptr,b,what=l.split(' ',3); b=int(b)
            cap[ptr]=max(cap.get(ptr,0),(b+7)//8*8); name[ptr]=what
        elif l.startswith('DONE'): done=l
    px,comp,runs=[int(x) for x in re.findall(r'\d+',done)]
    agg=collections.Counter()
    for ptr,b in cap.items(): agg[cat.get(name[ptr],'other')]+=b
    tot=sum(agg.values())
    cells=' | '.join('%.1f'%(agg[k]/px) for k in order)
    print(f'| {dim}D {n} {"face" if conn=="face" else "full"} g={g} d={d} | {runs/px:.3f} | {comp/px:.3f} | {cells} | **{tot/px:.1f}** | {(agg["run arrays"]+agg["numbering and sort"]+agg["grouped runs (output)"])/max(runs,1):.0f} |')
print('| image | runs/px | components/px | '+' | '.join(order)+' | total B/px | run bytes/run |')
for a in sys.argv[1:]:
    dim,n,d,conn,g=a.split(',')
    run(int(dim),int(n),float(d),conn,int(g))
