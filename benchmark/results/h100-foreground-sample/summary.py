# Summed labels-only throughput, A against B, best of two rounds per image:
#   python3 summary.py FOLDER   (FOLDER holds k{2,3}-labels-{A,B}{1,2}.json)
import json, sys
d0 = sys.argv[1]
for d in (2,3):
  R={v:json.load(open(f'{d0}/k{d}-labels-{v}.json'))['measurements'] for v in ('A1','A2','B1','B2')}
  for conn in ('face','full'):
    for g in (1,4,16,0):
      idx=[i for i,m in enumerate(R['A1']) if m['g']==g and m['connectivity']==conn]
      best=lambda v1,v2,k,i: min(R[v1][i][k],R[v2][i][k])
      px=sum(R['A1'][i].get('pixels', (8192*8192 if d==2 else 512**3)) for i in idx)
      ta=sum(best('A1','A2','kernelMs',i) for i in idx); tb=sum(best('B1','B2','kernelMs',i) for i in idx)
      up=sum(best('B1','B2','uploadMs',i)-best('A1','A2','uploadMs',i) for i in idx)/len(idx)
      print('%dD %-4s g=%-3s summed A %6.1f B %6.1f Gpix/s (%+.1f %%); run count (upload) %+.4f ms an image' % (
        d, conn, g if g else 'all', px/ta/1e6, px/tb/1e6, 100*(ta/tb-1), up))
