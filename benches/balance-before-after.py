"""Balance poll before/after: CPU per request (the server process, all its threads) and latency
of sequential `GET /api/user/balance` of one demo player, two servers side by side on fresh
databases, three interleaved rounds. The "after" player holds a free bet (FREEBET activated).

    python3 benches/balance-before-after.py BEFORE_BINARY AFTER_BINARY [requests]   (SQLite)
    PG=1 python3 benches/balance-before-after.py ...   (PostgreSQL: drops and creates
                                                        h19_bench_before / h19_bench_after)
"""
import http.client, json, os, subprocess, sys, tempfile, time, signal
ROOT=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TMP=tempfile.mkdtemp(prefix='balance-bench-')
def start(binary, port, name):
    d=f'{TMP}/{name}'; os.makedirs(d, exist_ok=True)
    for f in os.listdir(d): os.remove(os.path.join(d,f))
    url=f'sqlite://{d}/b.db'
    if os.environ.get('PG'):
        db=f'h19_bench_{name}'
        subprocess.run(['dropdb','-h','127.0.0.1','-U','postgres','--if-exists',db],check=True)
        subprocess.run(['createdb','-h','127.0.0.1','-U','postgres',db],check=True)
        url=f'postgres://postgres@127.0.0.1:5432/{db}'
    env=dict(os.environ, CARTHAGE_MODE='demo', DATABASE_URL=url, BIND=f'127.0.0.1:{port}', WEB_DIR=f'{ROOT}/web/dist', RUST_LOG='warn', ARGON2_MEMORY_KIB='4096', ARGON2_ITERATIONS='1')
    subprocess.run([binary,'seed'],env=env,cwd=ROOT,stdout=subprocess.DEVNULL,check=True)
    p=subprocess.Popen([binary,'serve'],env=env,cwd=ROOT,stdout=open(f'{d}/log','w'),stderr=subprocess.STDOUT)
    for _ in range(100):
        try:
            c=http.client.HTTPConnection('127.0.0.1',port); c.request('GET','/healthz'); c.getresponse().read(); break
        except Exception: time.sleep(0.1)
    return p
def call(port, method, path, body=None, token=None):
    c=http.client.HTTPConnection('127.0.0.1',port)
    h={'content-type':'application/json','Origin':f'http://127.0.0.1:{port}'}
    if token: h['Authorization']='Bearer '+token
    c.request(method,path,json.dumps(body) if body is not None else None,h)
    return json.loads(c.getresponse().read())
def cpu(pid):
    f=open(f'/proc/{pid}/stat').read().split(')')[1].split()
    return (int(f[11])+int(f[12]))/os.sysconf('SC_CLK_TCK')
def run(port, pid, token, n):
    c=http.client.HTTPConnection('127.0.0.1',port)
    h={'Authorization':'Bearer '+token}
    lat=[]; c0=cpu(pid)
    for _ in range(n):
        t=time.perf_counter(); c.request('GET','/api/user/balance',headers=h); b=c.getresponse().read(); lat.append(time.perf_counter()-t)
        assert b'"status":0' in b, b[:200]
    c1=cpu(pid); lat.sort()
    return (c1-c0)*1e6/n, lat[len(lat)//2]*1e3, lat[int(len(lat)*0.99)]*1e3
before=start(os.path.abspath(sys.argv[1]),18432,'before')
after=start(os.path.abspath(sys.argv[2]),18433,'after')
try:
    toks={}
    for port in (18432,18433):
        toks[port]=call(port,'POST','/api/user/login',{'login':'player@carthage.local','password':'Player123'})['result']['token']
    # The player on the new server has promotion rows: an inactive free bet.
    call(18433,'POST','/api/payment/promocode/activation',{'code':'FREEBET'},toks[18433])
    N=int(sys.argv[3]) if len(sys.argv)>3 else 2000
    res={'before':[], 'after (player with a free bet)':[]}
    for rnd in range(3):
        res['before'].append(run(18432,before.pid,toks[18432],N))
        res['after (player with a free bet)'].append(run(18433,after.pid,toks[18433],N))
    b=call(18433,'GET','/api/user/balance',token=toks[18433])['result']
    print('after reply freeBets', json.dumps(b['freeBets'])[:200], 'jackpots', len(b['jackpots']))
    for k,v in res.items():
        print(k, ' | '.join('cpu %.0f us/req p50 %.2f ms p99 %.2f ms'%r for r in v))
finally:
    before.send_signal(signal.SIGTERM); after.send_signal(signal.SIGTERM)
