import json,subprocess,sys
rig, peer, vrma = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
for s in peer['samples']:
    out=subprocess.run([rig,'pose',peer['file'],'--clips-from',vrma,'--clip','0','--time',str(s['time']),'--no-springs','--playback','loop'],capture_output=True,text=True)
    if out.returncode: sys.exit(out.stderr)
    mine={j['node']:j['world'][12:15] for j in json.loads(out.stdout)['joints']}
    worst=0; wn=None
    for n,p in s['nodes'].items():
        if int(n) in mine:
            d=sum((a-b)**2 for a,b in zip(p,mine[int(n)]))**.5
            if d>worst: worst,wn=d,n
    print(f"t={s['time']}: worst {worst:.2e} at node {wn}")
