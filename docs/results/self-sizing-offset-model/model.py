OB=4; PB=12; SB=16; SM=(1<<SB)-1; OM=15
def stream(idx,o): return (((idx>>o)<<OB)&SM)|o
def sx(v,b):
    v&=(1<<(b+1))-1
    return v-(1<<(b+1)) if v>>b else v
def dist(st,idx):
    o=st&OM; pos=st>>OB
    return sx(((idx>>o)-pos)&0xffffffff, PB-1)
def nxt(state,idx,floor,maxo):
    recent=state&SM; older=state>>SB; hit=recent; keep=older
    d=dist(recent,idx)
    if abs(d)>2:
        hit=older; keep=recent; d=dist(older,idx)
    if abs(d)>2:
        if (older&OM)>(recent&OM):
            keep=older; o=older&OM
            keep=(((keep&~OM)<<1)&SM)|(o-1)
        return (keep<<SB)|stream(idx,floor), floor
    o=hit&OM
    if d: o+=1
    o=max(min(o,maxo),floor)
    return (keep<<SB)|stream(idx,o), o
def scan(pages, skew, key_va, maxo=9):
    state=0x80008000; mapped=set(); faults=0; first_full=None
    for va in range(0,pages):
        if va in mapped: continue
        faults+=1
        key = va if key_va else va+skew
        state,o=nxt(state,key,0,maxo)
        n=1<<o; frm=va//n*n
        mapped.update(range(frm,frm+n))
        if n==(1<<maxo) and first_full is None: first_full=faults
    return faults, first_full
for maxo in (9,5,8):
  for skew in (0,1,2,3,5,7,100,255,256,511):
    print(maxo, skew, 'pgoff-keyed', scan(3*(1<<maxo),skew,False,maxo), 'va-keyed', scan(3*(1<<maxo),skew,True,maxo))
print('---')
def scan2(pages, skew, key_va, maxo, order_iter):
    state=0x80008000; mapped=set(); faults=0; first_full=None
    for va in order_iter:
        if va in mapped: continue
        faults+=1
        key = va if key_va else va+skew
        state,o=nxt(state,key,0,maxo)
        n=1<<o; frm=va//n*n
        mapped.update(range(frm,frm+n))
        if n==(1<<maxo) and first_full is None: first_full=faults
    return faults, first_full
import itertools
worst={}
for maxo in (9,5):
  P=8*(1<<maxo)
  for start in (0,1,3,17,100):
    for skew in range(0, 1<<maxo):
      for name,it in (('fwd',range(start,P)),('bwd',range(P-1-start,-1,-1)),('stride2',range(start,P,2))):
        a=scan2(P,skew,False,maxo,it); b=scan2(P,0,True,maxo,it)
        k=(maxo,name)
        d=(a[0]-b[0], (a[1] or 99)-(b[1] or 99))
        worst[k]=max(worst.get(k,(0,0)), d)
print(worst)
print('===')
for maxo in (9,5):
  P=8*(1<<maxo)
  for start in (0,1,17):
    ds=[]
    for skew in range(0,1<<maxo):
        a=scan2(P,skew,False,maxo,range(start,P)); b=scan2(P,0,True,maxo,range(start,P))
        ds.append(a[1]-b[1])
    import statistics
    print(maxo,start,'ramp faults va-keyed',scan2(P,0,True,maxo,range(start,P)),'extra: mean %.2f max %d'%(statistics.mean(ds),max(ds)), 'skew of max', ds.index(max(ds)))
print('###')
def scan3(pages, skew, key_va, maxo, it):
    state=0x80008000; mapped=set(); faults=0; full=None
    for va in it:
        if va in mapped: continue
        faults+=1
        key = va if key_va else va+skew
        state,o=nxt(state,key,0,maxo)
        n=1<<o; frm=va//n*n
        new=set(range(frm,min(frm+n,pages)))-mapped
        mapped|=new
        if len(new)==(1<<maxo) and full is None: full=faults
    return faults, full
for maxo in (9,8,5):
    P=3*(1<<maxo)-1
    print(maxo, 'pgoff', scan3(P,1,False,maxo,range(0,P)), 'va', scan3(P,1,True,maxo,range(0,P)))
print('@@@')
for maxo in (9,8,5):
    P=3*(1<<maxo)
    best=None
    for skew in range(1,1<<maxo):
        for start in range(0, 1<<maxo, 1):
            a=scan3(P,skew,False,maxo,range(start,P)); b=scan3(P,skew,True,maxo,range(start,P))
            d=(a[1] or 999)-(b[1] or 999)
            if best is None or d>best[0]: best=(d,skew,start,a,b)
    print(maxo,best)
    # same skew across maxo?
for maxo in (9,8,5):
    P=3*(1<<maxo)
    for skew,start in ((240,17),(3,1),(1,0),(2,1)):
        a=scan3(P,skew,False,maxo,range(start,P)); b=scan3(P,skew,True,maxo,range(start,P))
        print(maxo,skew,start,a,b)
print('&&&')
for maxo in (9,8,5):
    skew=(1<<maxo)-1
    for P in (3*(1<<maxo)-skew, 4*(1<<maxo)-skew):
        a=scan3(P,skew,False,maxo,range(2,P)); b=scan3(P,skew,True,maxo,range(2,P))
        print(maxo,P,'pgoff',a,'va',b, 'bound max+2 =',maxo+2)
