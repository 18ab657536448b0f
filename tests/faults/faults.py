#!/usr/bin/env python3
"""Fault tests of issue 21 §4, against a built `carthage` binary, on loopback only.

  python3 tests/faults/faults.py kill-sqlite   # kill -9 one SQLite instance ten times, restart it each time
  python3 tests/faults/faults.py kill-pg       # kill -9 instances of a 3-instance PostgreSQL cluster (scripts/cluster.sh)
  python3 tests/faults/faults.py pg-restart    # stop and start a private PostgreSQL server under two instances
  python3 tests/faults/faults.py disk-full     # the SQLite database on a small loop-mounted ext4 that fills up

Load during each run (threads, http.client, the standard library only):
  * provider-wallet bet + win pairs, signed (provider `demo`, HMAC-SHA256 of `ts.body`), each call
    retried with the SAME transactionId after a failure or a timeout;
  * studio dice rounds (`/api/studio/dice/roll`; the endpoint takes no idempotency key: a retry
    is a new round, so an unanswered round is left to the server's recovery);
  * sandbox deposits: token → deposit (retried with the same token, the deposit's idempotency
    key) → the sandbox's card page (4242…) → the signed callback credits `pay:{intent}:credit`;
  * sportsbook singles (`POST /api/sportsbook/bets`, retried with the same Idempotency-Key).
A reply is acknowledged when its envelope says status 0. HTTP 503 with code 1000 or a cut
connection is retried; any other 5xx is a violation; any other code is a refusal (counted).

Afterwards, from the database and `carthage ledger verify`: every acknowledged operation is in
the ledger exactly once (none lost, none doubled), the players' balances equal what the
acknowledged operations say, the crash chain has no gap or repeat. Exit 0 only when all hold.
Environment: CARTHAGE_BIN (default target/release/carthage, else target/debug/carthage),
FAULTS_PG_ADMIN (default postgres://postgres@127.0.0.1:5432/postgres, for kill-pg),
FAULTS_KILLS (10), FAULTS_KILL_EVERY (4 s), FAULTS_JSON (write the figures there as JSON).
Every process and temporary directory started here is stopped / removed at exit, by pid.
"""
import atexit
import hashlib
import hmac
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections import Counter
from decimal import Decimal

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def find_bin():
    b = os.environ.get("CARTHAGE_BIN")
    if b:
        return os.path.abspath(b)
    for p in ("target/release/carthage", "target/debug/carthage"):
        if os.access(os.path.join(ROOT, p), os.X_OK):
            return os.path.join(ROOT, p)
    sys.exit("no carthage binary: cargo build -p server (or set CARTHAGE_BIN)")


BIN = find_bin()
PG_ADMIN = os.environ.get("FAULTS_PG_ADMIN", "postgres://postgres@127.0.0.1:5432/postgres")
KILLS = int(os.environ.get("FAULTS_KILLS", "10"))
KILL_EVERY = float(os.environ.get("FAULTS_KILL_EVERY", "4"))
DEMO_SECRET = "demo-secret"
OP_DEADLINE = 60.0  # how long one operation is retried before the client gives up (s)
CLIENT_TIMEOUT = 5.0  # one request's timeout (s); pg-restart waits longer to see every answer


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


# --------------------------------------------------------------------------- clean-up

class Cleanup:
    """Everything started here, undone at exit (processes by pid, mounts, temp dirs)."""

    def __init__(self):
        self.steps = []  # LIFO
        self.lock = threading.Lock()

    def add(self, fn, what):
        with self.lock:
            self.steps.append((fn, what))

    def run(self):
        with self.lock:
            steps, self.steps = self.steps[::-1], []
        for fn, what in steps:
            try:
                fn()
            except Exception as e:  # keep going: every step must run
                print(f"cleanup: {what}: {e}", file=sys.stderr)


CLEANUP = Cleanup()
atexit.register(CLEANUP.run)
for _sig in (signal.SIGINT, signal.SIGTERM):
    signal.signal(_sig, lambda *_: sys.exit(130))


def tmpdir(prefix):
    d = tempfile.mkdtemp(prefix=f"carthage-faults-{prefix}-")
    if os.environ.get("FAULTS_KEEP"):
        log(f"keeping {d} (FAULTS_KEEP)")
    else:
        CLEANUP.add(lambda: shutil.rmtree(d, ignore_errors=True), f"rm -r {d}")
    return d


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def kill_pid(pid, sig=signal.SIGKILL):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def server_env(extra=None):
    env = dict(os.environ)
    env.update(
        CARTHAGE_MODE="demo",
        RUST_LOG="warn",
        JSON_LOGS="false",
        ARGON2_MEMORY_KIB="4096",
        ARGON2_ITERATIONS="1",
        MESSAGES_PER_IP_BURST="100000",
    )
    env.update(extra or {})
    return env


def carthage(args, url, check=True, timeout=300):
    r = subprocess.run([BIN, *args], env=server_env({"DATABASE_URL": url}), capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f"carthage {' '.join(args)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r


# --------------------------------------------------------------------------- HTTP

class Client:
    """One keep-alive connection (reopened after any failure)."""

    def __init__(self, addr, timeout=None):
        self.host, port = addr.split(":")
        self.port = int(port)
        self.timeout = timeout or CLIENT_TIMEOUT
        self.conn = None
        self.bearer = None

    def close(self):
        if self.conn:
            self.conn.close()
        self.conn = None

    def request(self, method, path, body=None, headers=None, raw=None):
        """(HTTP status, parsed JSON or None, text) or (None, None, error) on a transport failure."""
        h = {"content-type": "application/json"}
        if self.bearer:
            h["authorization"] = f"Bearer {self.bearer}"
        h.update(headers or {})
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self.conn.request(method, path, body=data, headers=h)
            r = self.conn.getresponse()
            text = r.read().decode("utf-8", "replace")
            if r.getheader("connection", "").lower() == "close":
                self.close()
        except (OSError, http.client.HTTPException) as e:
            self.close()
            return None, None, str(e)
        try:
            env = json.loads(text, parse_float=Decimal)
        except ValueError:
            env = None
        return r.status, env, text


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.c = Counter()
        self.violations = []
        self.replies = Counter()  # (http, code) of every reply that was not an acknowledgement
        self.latency = {}  # class of reply -> [seconds]: "503/1000", "transport", "ok-after-retry"

    def took(self, what, seconds):
        with self.lock:
            self.latency.setdefault(what, []).append(seconds)

    def inc(self, key, n=1):
        with self.lock:
            self.c[key] += n

    def violation(self, what):
        with self.lock:
            self.violations.append(what)
            if len(self.violations) <= 20:
                log("VIOLATION", what)


STATS = Stats()


def classify(status, env):
    """ok | retry | refused (with the code) for one reply; records violations."""
    if status is None:
        return "retry", None
    code = env.get("status") if isinstance(env, dict) else None
    if status >= 500:
        with STATS.lock:
            STATS.replies[(status, code)] += 1
        if status == 503 and code == 1000:
            return "retry", 1000
        STATS.violation(f"HTTP {status} with code {code}")
        return "retry", code
    if code == 0:
        return "ok", 0
    with STATS.lock:
        STATS.replies[(status, code)] += 1
    if code == 1000:
        STATS.violation(f"code 1000 with HTTP {status}")
        return "retry", 1000
    if code is None:
        STATS.violation(f"HTTP {status} without the envelope")
        return "retry", None
    return "refused", code


def until_done(kind, send, stop_at=None):
    """Sends one operation until it is acknowledged or refused (the same key each time).
    Answers (outcome, envelope, tries): outcome ok | refused | gave_up."""
    t0 = time.time()
    tries = 0
    while True:
        tries += 1
        t = time.time()
        status, env, _ = send()
        what, code = classify(status, env)
        took = time.time() - t
        if status is None:
            STATS.took("transport", took)
        elif what != "ok":
            STATS.took(f"{status}/{code}", took)
        if what == "ok":
            if tries > 1:
                STATS.inc(f"{kind}.retried")
                STATS.took("ok-after-retry", took)
            return "ok", env, tries
        if what == "refused":
            STATS.inc(f"{kind}.refused")
            STATS.inc(f"{kind}.refused.{code}")
            return "refused", env, tries
        STATS.inc(f"{kind}.retries")
        if time.time() - t0 > OP_DEADLINE or (stop_at and time.time() > stop_at):
            STATS.inc(f"{kind}.gave_up")
            return "gave_up", env, tries
        time.sleep(0.1 + random.random() * 0.2)


# --------------------------------------------------------------------------- players

def setup_retry(fn, what, deadline=60):
    t0 = time.time()
    while True:
        try:
            return fn()
        except Exception as e:
            if time.time() - t0 > deadline:
                raise RuntimeError(f"{what}: {e}")
            time.sleep(0.3)


def ok_result(client, method, path, body=None, headers=None):
    status, env, text = client.request(method, path, body, headers)
    if status != 200 or not isinstance(env, dict) or env.get("status") != 0:
        raise RuntimeError(f"{method} {path}: {status} {text[:200] if text else ''}")
    return env["result"]


class Player:
    def __init__(self, addr):
        self.client = Client(addr)
        r = setup_retry(lambda: ok_result(self.client, "POST", "/api/user/signup/one-click", {"currency": "TND"}), "sign-up")
        self.client.bearer = r["token"]
        me = setup_retry(lambda: ok_result(self.client, "GET", "/api/user/check"), "check")
        self.id = int(me.get("id") or me.get("user", {}).get("id"))
        self.baseline = None  # real balance (minor units) once set up

    def balance_minor(self):
        r = setup_retry(lambda: ok_result(self.client, "GET", "/api/user/balance"), "balance")
        return int(Decimal(str(r["balance"])) * 1000)

    def game_session(self, provider, game):
        r = setup_retry(lambda: ok_result(self.client, "POST", "/api/casino/session",
                                          {"provider": provider, "gameId": game, "lang": "en", "platform": "desktop"}), "game session")
        return r["sessionToken"]


# --------------------------------------------------------------------------- workloads

class Workload:
    """A thread per worker; `addrs` are the addresses the workers spread over."""

    def __init__(self, name, addrs, workers):
        self.name, self.addrs, self.workers = name, addrs, workers
        self.stop = threading.Event()
        self.threads = []
        self.lock = threading.Lock()
        self.players = []

    def setup(self):
        for i in range(self.workers):
            self.players.append(self.make_player(self.addrs[i % len(self.addrs)], i))

    def start(self):
        for i, p in enumerate(self.players):
            t = threading.Thread(target=self.loop, args=(i, p), daemon=True, name=f"{self.name}-{i}")
            t.start()
            self.threads.append(t)

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(OP_DEADLINE + 30)

    def loop(self, i, p):
        n = 0
        while not self.stop.is_set():
            self.one(i, p, n)
            n += 1


class WalletLoad(Workload):
    """Signed provider-wallet bet + win pairs (provider `demo`), 0.100 TND each way."""

    def __init__(self, addrs, workers, run_id):
        super().__init__("wallet", addrs, workers)
        self.run_id = run_id
        self.acked = {}  # ledger key -> (player id, signed amount)
        self.unresolved = set()  # player ids with an operation given up or refused

    def make_player(self, addr, i):
        p = Player(addr)
        p.session = p.game_session("demo", "demo-table")
        p.baseline = p.balance_minor()
        return p

    def signed(self, p, op, raw):
        ts = str(int(time.time()))
        sig = hmac.new(DEMO_SECRET.encode(), ts.encode() + b"." + raw, hashlib.sha256).hexdigest()
        return p.client.request("POST", f"/api/wallet/v1/{op}", raw=raw,
                                headers={"x-provider": "demo", "x-timestamp": ts, "x-signature": sig})

    def one(self, i, p, n):
        rnd = f"{self.run_id}-{i}-{n}"
        for op in ("bet", "win"):
            tx = f"{rnd}-{op[0]}"
            raw = json.dumps({"sessionToken": p.session, "transactionId": tx, "roundId": rnd, "gameId": "demo-table",
                              "amount": 100, "currency": "TND"}).encode()
            outcome, env, _ = until_done("wallet", lambda: self.signed(p, op, raw))
            if outcome == "ok":
                STATS.inc("wallet.acked")
                with self.lock:
                    self.acked[f"prov:demo:{tx}"] = (p.id, -100 if op == "bet" else 100)
            else:
                with self.lock:
                    self.unresolved.add(p.id)
                return


class StudioLoad(Workload):
    """Studio dice rounds of 0.100 TND (no idempotency key on the endpoint: a failed try is
    left to the server's recovery and the next try is a new round)."""

    def __init__(self, addrs, workers):
        super().__init__("studio", addrs, workers)
        self.acked = {}  # round id -> (player id, bet, win)

    def make_player(self, addr, i):
        p = Player(addr)
        p.session = p.game_session("studio", "dice")
        p.baseline = p.balance_minor()
        return p

    def one(self, i, p, n):
        body = {"amount": 100, "target": 5000, "over": bool(n % 2)}
        outcome, env, tries = until_done("studio", lambda: p.client.request("POST", "/api/studio/dice/roll", body,
                                                                             {"x-game-session": p.session}))
        if tries > 1:
            STATS.inc("studio.unanswered_tries", tries - 1)
        if outcome == "ok":
            r = env["result"]
            STATS.inc("studio.acked")
            with self.lock:
                self.acked[int(r["roundId"])] = (p.id, int(r["bet"]), int(r["win"]))


class DepositLoad(Workload):
    """Sandbox deposits of 5 TND: token, deposit (retried with the same token), card page."""

    def __init__(self, addrs, workers):
        super().__init__("deposit", addrs, workers)
        self.acked = {}  # intent id -> (player id, amount minor)
        self.unresolved = set()

    def make_player(self, addr, i):
        p = Player(addr)
        p.baseline = p.balance_minor()
        return p

    def one(self, i, p, n):
        outcome, env, _ = until_done("deposit_token", lambda: p.client.request("POST", "/api/payment/token", {}))
        if outcome != "ok":
            time.sleep(0.5)
            return
        token = env["result"]["token"]
        outcome, env, _ = until_done("deposit", lambda: p.client.request("POST", "/api/payment/deposit", {"amount": 5, "sessionToken": token}))
        if outcome != "ok":
            with self.lock:
                self.unresolved.add(p.id)
            return
        intent = int(env["result"]["id"])
        # A kill between the intent's row and the sandbox's answer leaves it `created`, with no
        # page yet (the payment jobs' reconciliation asks the sandbox later): the retry with the
        # same token answers it without `invoice_url`. Asked again for a while, then left
        # unpaid (no money moved; counted).
        t0 = time.time()
        while not env["result"].get("invoice_url"):
            if time.time() - t0 > 20:
                STATS.inc("deposit.left_without_page")
                return
            time.sleep(1)
            outcome, env, _ = until_done("deposit", lambda: p.client.request("POST", "/api/payment/deposit", {"amount": 5, "sessionToken": token}))
            if outcome != "ok":
                with self.lock:
                    self.unresolved.add(p.id)
                return
        ref = env["result"]["invoice_url"].split("/pay/sandbox/")[1].split("?")[0]
        form = b"action=card&card=4242424242424242&lang=en"
        t0 = time.time()
        while True:
            status, _, text = p.client.request("POST", f"/pay/sandbox/{ref}", raw=form,
                                                headers={"content-type": "application/x-www-form-urlencoded"})
            if status == 200 and 'data-payment-status="succeeded"' in (text or ""):
                break
            if status is not None and status >= 500 and status != 503:
                STATS.violation(f"sandbox page HTTP {status}")
            if time.time() - t0 > OP_DEADLINE:
                STATS.inc("deposit.page_gave_up")
                with self.lock:
                    self.unresolved.add(p.id)
                return
            STATS.inc("deposit.retries")
            time.sleep(0.2)
        STATS.inc("deposit.acked")
        with self.lock:
            self.acked[intent] = (p.id, 5000)


class SportsLoad(Workload):
    """Sportsbook singles of 1 TND at any price, retried with the same Idempotency-Key."""

    def __init__(self, addrs, workers):
        super().__init__("sports", addrs, workers)
        self.acked = {}  # bet id -> (player id, key)
        self.keys = {}  # idempotency key -> player id (every key sent)

    def make_player(self, addr, i):
        return Player(addr)

    def pick(self, p):
        status, env, _ = p.client.request("GET", "/api/sportsbook/line")
        if status != 200 or not isinstance(env, dict) or env.get("status") != 0:
            return None
        picks = []
        for e in env["result"].get("events", []):
            for m in e.get("markets", [])[:1]:
                if m.get("status") != "active":
                    continue
                for o in m.get("outcomes", []):
                    if o.get("active"):
                        picks.append({"event_id": e["id"], "market": m["key"], "outcome_id": o["id"], "odds": float(o["odds"])})
        return random.choice(picks) if picks else None

    def one(self, i, p, n):
        leg = self.pick(p)
        if leg is None:
            STATS.inc("sports.no_line")
            time.sleep(0.5)
            return
        key = str(uuid.uuid4())
        with self.lock:
            self.keys[key] = p.id
        body = {"kind": "single", "stake": 1, "odds_policy": "accept_any", "legs": [leg]}
        outcome, env, _ = until_done("sports", lambda: p.client.request("POST", "/api/sportsbook/bets", body,
                                                                         {"idempotency-key": key}))
        if outcome == "ok":
            STATS.inc("sports.acked")
            with self.lock:
                self.acked[int(env["result"]["id"])] = (p.id, key)
        elif outcome == "refused":
            time.sleep(0.2)


# --------------------------------------------------------------------------- databases

class Database:
    def __init__(self, url):
        self.url = url
        self.pg = url.startswith("postgres")

    def rows(self, sql):
        if self.pg:
            r = subprocess.run(["psql", self.url, "-qAtX", "-F", "\t", "-c", sql], capture_output=True, text=True, timeout=120)
            if r.returncode != 0:
                raise RuntimeError(f"psql: {r.stderr}")
            return [tuple(line.split("\t")) for line in r.stdout.splitlines() if line]
        path = self.url.split("sqlite://", 1)[1].split("?")[0]
        con = sqlite3.connect(path, timeout=30)
        try:
            return [tuple("" if v is None else str(v) for v in row) for row in con.execute(sql).fetchall()]
        finally:
            con.close()

    def scalar(self, sql):
        r = self.rows(sql)
        return r[0][0] if r else None


def keys_count(db, keys):
    """idempotency key -> number of ledger transactions with it (chunks of 500)."""
    keys = list(keys)
    found = Counter()
    for i in range(0, len(keys), 500):
        chunk = ",".join("'" + k.replace("'", "''") + "'" for k in keys[i:i + 500])
        for k, n in db.rows(f"SELECT idempotency_key, COUNT(*) FROM ledger_transactions WHERE idempotency_key IN ({chunk}) "
                            f"AND request_hash <> 'tombstone' GROUP BY idempotency_key"):
            found[k] = int(n)
    return found


def balance_of(db, user):
    v = db.scalar(f"SELECT balance FROM ledger_accounts WHERE owner_id = {user} AND kind = 'real' AND currency = 'TND'")
    return int(v or 0)


def crash_chain(db):
    """(rounds, gaps or repeats, rounds left unsettled but the last)."""
    out = {"rounds": 0, "gaps": 0, "repeats": 0, "unsettled": 0}
    for chain, lo, hi, n, distinct in db.rows("SELECT chain_id, MIN(number), MAX(number), COUNT(*), COUNT(DISTINCT number) FROM crash_rounds GROUP BY chain_id"):
        lo, hi, n, distinct = int(lo), int(hi), int(n), int(distinct)
        out["rounds"] += n
        out["repeats"] += n - distinct
        out["gaps"] += (hi - lo + 1) - distinct
    last = db.scalar("SELECT MAX(id) FROM crash_rounds")
    if last:
        out["unsettled"] = int(db.scalar(f"SELECT COUNT(*) FROM crash_rounds WHERE settled_at IS NULL AND id <> {last}"))
        out["phases"] = dict((p, int(c)) for p, c in db.rows("SELECT phase, COUNT(*) FROM crash_rounds GROUP BY phase"))
    return out


def check_all(db, loads, figures):
    """The invariants from the database: figures[...] filled, answers the list of failures."""
    fails = []
    wallet, studio, deposit, sports = loads["wallet"], loads["studio"], loads["deposit"], loads["sports"]

    # Provider wallet: every acknowledged key once; balances = baseline + acknowledged moves.
    found = keys_count(db, wallet.acked)
    lost = [k for k in wallet.acked if found[k] == 0]
    dup = [k for k in wallet.acked if found[k] > 1]
    extra = int(db.scalar(f"SELECT COUNT(*) FROM ledger_transactions WHERE idempotency_key LIKE 'prov:demo:{wallet.run_id}-%' "
                          f"AND request_hash <> 'tombstone'")) - len(wallet.acked)
    bal_bad = 0
    for p in wallet.players:
        if p.id in wallet.unresolved:
            continue
        expect = p.baseline + sum(a for (u, a) in wallet.acked.values() if u == p.id)
        if balance_of(db, p.id) != expect:
            bal_bad += 1
    figures["wallet"] = {"acknowledged": len(wallet.acked), "lost": len(lost), "duplicated": len(dup),
                         "landed_unacknowledged": extra, "balance_mismatches": bal_bad}
    if lost or dup or bal_bad or extra < 0:
        fails.append(f"wallet: lost {len(lost)} {lost[:3]}, duplicated {len(dup)}, balance mismatches {bal_bad}")

    # Studio: every acknowledged round settled with its stake (and win) once; every round of
    # these players settled or void; balances = baseline - stakes + wins of the settled rounds.
    uids = ",".join(str(p.id) for p in studio.players) or "0"
    rounds = db.rows(f"SELECT id, user_id, bet, win, status FROM studio_rounds WHERE user_id IN ({uids})")
    keys = [f"prov:studio:{r[0]}-bet" for r in rounds] + [f"prov:studio:{r[0]}-win" for r in rounds]
    found = keys_count(db, keys)
    by_id = {int(r[0]): r for r in rounds}
    lost = dup = 0
    for rid, (u, bet, win) in studio.acked.items():
        r = by_id.get(rid)
        if r is None or r[4] != "settled" or found[f"prov:studio:{rid}-bet"] != 1 or (win > 0) != (found[f"prov:studio:{rid}-win"] == 1):
            lost += 1
    status = Counter(r[4] for r in rounds)
    bad_state = 0
    moves = Counter()
    for r in rounds:
        rid, u, bet, win, st = int(r[0]), int(r[1]), int(r[2]), int(r[3]), r[4]
        staked, paid = found[f"prov:studio:{rid}-bet"], found[f"prov:studio:{rid}-win"]
        dup += max(0, staked - 1) + max(0, paid - 1)
        if st == "settled" and (staked != 1 or (win > 0) != (paid == 1)):
            bad_state += 1
        if st == "void" and paid:
            bad_state += 1
        moves[u] += -bet * staked + win * paid
    bal_bad = sum(1 for p in studio.players if balance_of(db, p.id) != p.baseline + moves[p.id])
    figures["studio"] = {"acknowledged": len(studio.acked), "lost": lost, "duplicated": dup, "rounds": dict(status),
                         "inconsistent_rounds": bad_state, "balance_mismatches": bal_bad}
    if lost or dup or bad_state or bal_bad or status.get("open"):
        fails.append(f"studio: lost {lost}, duplicated {dup}, inconsistent {bad_state}, open {status.get('open', 0)}, balance mismatches {bal_bad}")

    # Deposits: every acknowledged (paid) intent credited once; nothing else credited.
    found = keys_count(db, [f"pay:{i}:credit" for i in deposit.acked])
    lost = [i for i in deposit.acked if found[f"pay:{i}:credit"] == 0]
    dup = [i for i in deposit.acked if found[f"pay:{i}:credit"] > 1]
    uids = ",".join(str(p.id) for p in deposit.players) or "0"
    intents = int(db.scalar(f"SELECT COUNT(*) FROM payment_intents WHERE user_id IN ({uids})"))
    bal_bad = 0
    for p in deposit.players:
        if p.id in deposit.unresolved:
            continue
        expect = p.baseline + sum(a for (u, a) in deposit.acked.values() if u == p.id)
        if balance_of(db, p.id) != expect:
            bal_bad += 1
    figures["deposit"] = {"acknowledged": len(deposit.acked), "lost": len(lost), "duplicated": len(dup),
                          "intents": intents, "balance_mismatches": bal_bad}
    if lost or dup or bal_bad:
        fails.append(f"deposits: lost {len(lost)} {lost[:3]}, duplicated {len(dup)}, balance mismatches {bal_bad}")

    # Sportsbook: one bet per (player, key); every acknowledged bet open (or settled) with
    # its stake posted once; no open bet without its stake.
    uids = ",".join(str(p.id) for p in sports.players) or "0"
    bets = db.rows(f"SELECT id, user_id, client_key, status FROM sb_bets WHERE user_id IN ({uids})")
    per_key = Counter((b[1], b[2]) for b in bets)
    dup = sum(n - 1 for n in per_key.values() if n > 1)
    found = keys_count(db, [f"sb:{b[0]}:stake" for b in bets])
    by_id = {int(b[0]): b for b in bets}
    lost = 0
    for bid in sports.acked:
        b = by_id.get(bid)
        if b is None or b[3] in ("rejected", "placing") or found[f"sb:{bid}:stake"] != 1:
            lost += 1
    unstaked = sum(1 for b in bets if b[3] not in ("rejected", "placing") and found[f"sb:{b[0]}:stake"] != 1)
    figures["sports"] = {"acknowledged": len(sports.acked), "lost": lost, "duplicated": dup, "bets": dict(Counter(b[3] for b in bets)),
                         "open_without_stake": unstaked,
                         "refused": {k.split(".")[-1]: v for k, v in STATS.c.items() if k.startswith("sports.refused.")}}
    if lost or dup or unstaked:
        fails.append(f"sportsbook: lost {lost}, duplicated {dup}, bets without stake {unstaked}")

    # The crash chain.
    chain = crash_chain(db)
    figures["crash"] = chain
    if chain["gaps"] or chain["repeats"] or chain["unsettled"]:
        fails.append(f"crash chain: {chain}")
    return fails


def open_studio_rounds(db, loads):
    uids = ",".join(str(p.id) for p in loads["studio"].players) or "0"
    return db.rows(f"SELECT id, created_at FROM studio_rounds WHERE user_id IN ({uids}) AND status = 'open'")


def pending_credits(db, loads):
    acked = loads["deposit"].acked
    found = keys_count(db, [f"pay:{i}:credit" for i in acked])
    return [i for i in acked if found[f"pay:{i}:credit"] == 0]


# --------------------------------------------------------------------------- processes

def healthz(addr, timeout=1.0):
    c = Client(addr, timeout)
    status, env, _ = c.request("GET", "/healthz")
    c.close()
    return status, env


def duties_held(addr):
    """{duty: held?} from an instance's /metrics, or None when it does not answer."""
    c = Client(addr, 1.0)
    status, _, text = c.request("GET", "/metrics")
    c.close()
    if status != 200:
        return None
    return {m.group(1): m.group(2) == "1" for m in re.finditer(r'carthage_duty_held\{duty="([^"]+)"\} (\d)', text)}


class Instance:
    """One `carthage serve` started here (stopped by its pid)."""

    def __init__(self, name, url, logdir, extra_env=None):
        self.name, self.url = name, url
        self.port = free_port()
        self.addr = f"127.0.0.1:{self.port}"
        self.logdir = logdir
        self.extra_env = extra_env or {}
        self.proc = None
        CLEANUP.add(self.kill, f"instance {name}")

    def start(self, wait=60):
        env = server_env({"DATABASE_URL": self.url, "BIND": self.addr, "PUBLIC_URL": f"http://{self.addr}", **self.extra_env})
        out = open(os.path.join(self.logdir, f"{self.name}.log"), "ab")
        self.proc = subprocess.Popen([BIN, "serve"], env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        out.close()
        t0 = time.time()
        while time.time() - t0 < wait:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited {self.proc.returncode}: see {self.logdir}/{self.name}.log")
            if healthz(self.addr)[0] == 200:
                return time.time() - t0
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not become healthy in {wait} s")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            kill_pid(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def term(self, grace=20):
        if self.proc and self.proc.poll() is None:
            kill_pid(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.kill()


class Cluster:
    """scripts/cluster.sh: N instances and the balancer, in a temporary CLUSTER_DIR."""

    def __init__(self, url, n, workdir):
        self.url, self.n = url, n
        self.dir = os.path.join(workdir, "cluster")
        os.makedirs(self.dir, exist_ok=True)
        while True:
            self.base = random.randint(20000, 40000)
            if all(self._free(self.base + i) for i in range(n + 1)):
                break
        self.bind = f"127.0.0.1:{free_port()}"
        self.env = server_env({"DATABASE_URL": url, "CLUSTER_DIR": self.dir, "BASE_PORT": str(self.base), "BIND": self.bind,
                               "CARTHAGE_BIN": BIN})
        CLEANUP.add(self.stop, "cluster")

    @staticmethod
    def _free(port):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False
        finally:
            s.close()

    def sh(self, *args, check=True):
        r = subprocess.run(["bash", os.path.join(ROOT, "scripts/cluster.sh"), *args], env=self.env, capture_output=True, text=True, timeout=120)
        if check and r.returncode != 0:
            raise RuntimeError(f"cluster.sh {' '.join(args)}: {r.stdout}{r.stderr}")
        return r.stdout

    def addr(self, i):
        return f"127.0.0.1:{self.base + i}"

    def start(self):
        log(self.sh("start", str(self.n)).strip().replace("\n", "; "))

    def kill(self, i):
        self.sh("kill", str(i))

    def restart(self, i):
        t0 = time.time()
        self.sh("restart", str(i))
        return time.time() - t0

    def stop(self):
        if os.path.isdir(self.dir):
            self.sh("stop", check=False)
            # Anything left (by the pid files only).
            for f in os.listdir(self.dir):
                if f.endswith(".pid"):
                    try:
                        kill_pid(int(open(os.path.join(self.dir, f)).read().strip()))
                    except ValueError:
                        pass


# --------------------------------------------------------------------------- scenarios

def make_loads(addrs, run_id, scale=1):
    loads = {
        "wallet": WalletLoad(addrs, 4 * scale, run_id),
        "studio": StudioLoad(addrs, 2 * scale),
        "deposit": DepositLoad(addrs, 2 * scale),
        "sports": SportsLoad(addrs, 2 * scale),
    }
    for l in loads.values():
        l.setup()
    return loads


def run_loads(loads):
    for l in loads.values():
        l.start()


def finish_loads(loads):
    for l in loads.values():
        l.stop.set()
    for l in loads.values():
        l.finish()


def wait_for(pred, timeout, every=0.5):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if pred():
            return True
        time.sleep(every)
    return False


def settle_tail(db, loads, restart):
    """After the load: deposits' callbacks land; studio rounds a kill interrupted are
    recovered by the housekeeping pass of a (re)started owner once they are 30 s old."""
    ok = wait_for(lambda: not pending_credits(db, loads), 120, 1)
    log(f"deposits: {'every paid deposit credited' if ok else 'credits missing: ' + str(pending_credits(db, loads)[:5])}")
    opened = open_studio_rounds(db, loads)
    recovered = len(opened)
    if opened:
        newest = max(int(r[1]) for r in opened)
        wait = max(0.0, newest / 1000 + 31 - time.time())
        log(f"studio: {len(opened)} interrupted round(s) open; waiting {wait:.0f} s for them to be recoverable, then a restart")
        time.sleep(wait)
        restart()
        wait_for(lambda: not open_studio_rounds(db, loads), 60, 1)
    return recovered


def summary(name, figures, fails):
    c = STATS.c
    figures["client"] = {k: v for k, v in sorted(c.items())}
    figures["violations"] = STATS.violations[:50]
    figures["non_ack_replies"] = {f"{h}/{code}": n for (h, code), n in sorted(STATS.replies.items(), key=str)}
    figures["reply_seconds"] = {k: {"n": len(v), "max": round(max(v), 2), "median": round(sorted(v)[len(v) // 2], 2)}
                                for k, v in sorted(STATS.latency.items())}
    acked = sum(figures[k]["acknowledged"] for k in ("wallet", "studio", "deposit", "sports") if k in figures)
    lost = sum(figures[k]["lost"] for k in ("wallet", "studio", "deposit", "sports") if k in figures)
    dup = sum(figures[k]["duplicated"] for k in ("wallet", "studio", "deposit", "sports") if k in figures)
    retried = sum(v for k, v in c.items() if k.endswith(".retried"))
    figures["totals"] = {"acknowledged": acked, "retried": retried, "lost": lost, "duplicated": dup,
                         "gave_up": sum(v for k, v in c.items() if k.endswith("gave_up"))}
    print(json.dumps(figures, indent=1, default=str))
    out = os.environ.get("FAULTS_JSON")
    if out:
        with open(out, "a") as f:
            f.write(json.dumps({"scenario": name, **figures}, default=str) + "\n")
    if STATS.violations:
        fails.append(f"{len(STATS.violations)} wrong replies: {STATS.violations[:5]}")
    if fails:
        log(f"{name}: FAILED")
        for f in fails:
            log("  -", f)
        return 1
    log(f"{name}: PASSED — {acked} operations acknowledged ({retried} after a retry), lost {lost}, duplicated {dup}")
    return 0


def ledger_verify(url, figures, fails):
    r = carthage(["ledger", "verify"], url, check=False)
    last = (r.stdout.strip().splitlines() or [""])[-1]
    figures["ledger_verify"] = {"exit": r.returncode, "last_line": last}
    log(f"ledger verify: exit {r.returncode}: {last}")
    if r.returncode != 0:
        fails.append(f"ledger verify failed: {r.stdout[-500:]} {r.stderr[-500:]}")


def kill_sqlite():
    work = tmpdir("sqlite")
    url = f"sqlite://{work}/carthage.db"
    carthage(["migrate"], url)
    carthage(["seed"], url)
    inst = Instance("sqlite", url, work)
    inst.start()
    db = Database(url)
    run_id = uuid.uuid4().hex[:8]
    loads = make_loads([inst.addr], run_id)
    run_loads(loads)
    figures = {"backend": "sqlite", "kills": 0, "takeover_s": []}
    time.sleep(KILL_EVERY)
    for k in range(KILLS):
        inst.kill()
        t0 = time.time()
        figures["kills"] += 1
        inst.start()
        # Restart to every duty held again (SQLite: one instance holds them all at start).
        wait_for(lambda: (d := duties_held(inst.addr)) is not None and d and all(d.values()), 30, 0.05)
        figures["takeover_s"].append(round(time.time() - t0, 2))
        log(f"kill {k + 1}/{KILLS}: back with every duty after {figures['takeover_s'][-1]} s; acknowledged so far "
            f"{sum(v for kk, v in STATS.c.items() if kk.endswith('.acked'))}")
        time.sleep(KILL_EVERY * (0.75 + random.random() * 0.5))
    finish_loads(loads)

    def restart():
        inst.term()
        inst.start()

    figures["studio_interrupted"] = settle_tail(db, loads, restart)
    fails = check_all(db, loads, figures)
    inst.term()
    ledger_verify(url, figures, fails)
    return summary("kill-sqlite", figures, fails)


def pg_database(admin, name):
    subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)
    subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    CLEANUP.add(lambda: subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True), f"drop {name}")
    return admin.rsplit("/", 1)[0] + "/" + name


def kill_pg():
    work = tmpdir("pg")
    url = pg_database(PG_ADMIN, f"faults_kill_{os.getpid()}")
    cluster = Cluster(url, 3, work)
    cluster.start()
    db = Database(url)
    run_id = uuid.uuid4().hex[:8]
    # Through the balancer, as players would come.
    loads = make_loads([cluster.bind], run_id)
    run_loads(loads)
    figures = {"backend": "postgres, 3 instances + balancer", "kills": 0, "takeover_s": {}, "killed_owner": 0}
    time.sleep(KILL_EVERY)
    restarts = []
    for k in range(KILLS):
        held = {i: duties_held(cluster.addr(i)) or {} for i in range(1, 4)}
        owner = next((i for i, d in held.items() if d.get("crash")), None)
        # Odd kills take the crash owner (a take-over to time), even ones another instance.
        victim = owner if (k % 2 == 0 and owner) else random.choice([i for i in range(1, 4) if i != owner] or [1])
        lost_duties = [d for d, h in held.get(victim, {}).items() if h]
        cluster.kill(victim)
        t0 = time.time()
        figures["kills"] += 1
        if lost_duties:
            figures["killed_owner"] += 1
            others = [i for i in range(1, 4) if i != victim]
            pending = set(lost_duties)
            while pending and time.time() - t0 < 20:
                for i in others:
                    d = duties_held(cluster.addr(i)) or {}
                    for duty in list(pending):
                        if d.get(duty):
                            figures["takeover_s"].setdefault(duty, []).append(round(time.time() - t0, 2))
                            pending.discard(duty)
                time.sleep(0.05)
            for duty in pending:
                figures["takeover_s"].setdefault(duty, []).append(None)
                fails_note = f"duty {duty} not taken over within 20 s"
                STATS.violation(fails_note)
        restarts.append(cluster.restart(victim))
        log(f"kill {k + 1}/{KILLS}: instance {victim} (duties {','.join(lost_duties) or 'none'}) restarted in {restarts[-1]:.1f} s; "
            f"acknowledged so far {sum(v for kk, v in STATS.c.items() if kk.endswith('.acked'))}")
        time.sleep(KILL_EVERY * (0.5 + random.random() * 0.5))
    finish_loads(loads)

    def restart():
        # The housekeeping owner goes (SIGTERM: handed over at once), another runs a pass at take-over.
        for i in range(1, 4):
            if (duties_held(cluster.addr(i)) or {}).get("housekeeping"):
                cluster.sh("term", str(i))
                time.sleep(3)
                cluster.restart(i)
                return

    figures["studio_interrupted"] = settle_tail(db, loads, restart)
    figures["duties_after"] = {i: duties_held(cluster.addr(i)) for i in range(1, 4)}
    fails = check_all(db, loads, figures)
    takeovers = [t for ts in figures["takeover_s"].values() for t in ts if t is not None]
    figures["takeover_max_s"] = max(takeovers) if takeovers else None
    if any(t is None or t > 5 for ts in figures["takeover_s"].values() for t in ts):
        fails.append(f"a take-over took more than 5 s: {figures['takeover_s']}")
    cluster.stop()
    ledger_verify(url, figures, fails)
    return summary("kill-pg", figures, fails)


# --- PostgreSQL restart (a private server: the machine's shared one is never touched)

def pg_bin(name):
    for d in sorted(os.listdir("/usr/lib/postgresql"), reverse=True):
        p = f"/usr/lib/postgresql/{d}/bin/{name}"
        if os.access(p, os.X_OK):
            return p
    sys.exit(f"no {name} under /usr/lib/postgresql/*/bin")


class PrivatePg:
    def __init__(self, work, port):
        self.dir = os.path.join(work, "pgdata")
        self.sock = os.path.join(work, "pgsock")
        self.port = port
        self.as_user = os.geteuid() == 0  # initdb refuses root: run the server as `postgres`
        os.makedirs(self.sock)
        if self.as_user:
            shutil.chown(work, "postgres")
            shutil.chown(self.sock, "postgres")
        self._run([pg_bin("initdb"), "-D", self.dir, "-A", "trust", "-U", "postgres", "--no-sync"])
        CLEANUP.add(lambda: self.stop("immediate"), "private PostgreSQL")
        self.url = f"postgres://postgres@127.0.0.1:{port}/postgres"

    def _run(self, cmd):
        if self.as_user:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {r.stdout}{r.stderr}")
        return r

    def start(self):
        self._run([pg_bin("pg_ctl"), "-D", self.dir, "-w", "-l", os.path.join(self.dir, "..", "pg.log"), "-o",
                   f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", "start"])

    def stop(self, mode="fast"):
        if os.path.exists(os.path.join(self.dir, "postmaster.pid")):
            self._run([pg_bin("pg_ctl"), "-D", self.dir, "-w", "-m", mode, "stop"])


def pg_restart():
    global CLIENT_TIMEOUT
    CLIENT_TIMEOUT = 30.0
    work = tmpdir("pgrestart")
    os.chmod(work, 0o755)
    pg = PrivatePg(work, int(os.environ.get("FAULTS_PG_PORT", "55432")))
    pg.start()
    url = pg_database(pg.url, "faults")
    carthage(["migrate"], url)
    carthage(["seed"], url)
    logs = os.path.join(work, "logs")
    os.makedirs(logs)
    insts = [Instance(f"pg{i}", url, logs) for i in (1, 2)]
    for inst in insts:
        inst.start()
    db = Database(url)
    loads = make_loads([i.addr for i in insts], uuid.uuid4().hex[:8])
    run_loads(loads)
    figures = {"backend": "private postgres, 2 instances", "outages": []}
    for cycle, mode in enumerate(("fast", "immediate")):
        time.sleep(8)
        before = dict(STATS.replies)
        acked0 = sum(v for k, v in STATS.c.items() if k.endswith(".acked"))
        pg.stop(mode)
        t_down = time.time()
        log(f"PostgreSQL stopped (-m {mode})")
        health = Counter()
        while time.time() - t_down < 6:
            for inst in insts:
                st, env = healthz(inst.addr, 2)
                health[f"{st}"] += 1
            time.sleep(0.5)
        acked_down = sum(v for k, v in STATS.c.items() if k.endswith(".acked")) - acked0
        pg.start()
        t_up = time.time()
        log("PostgreSQL started again")
        # Each instance serves again by itself: /healthz 200 and a write (a token) acknowledged.
        back = {}
        for inst in insts:
            wait_for(lambda: healthz(inst.addr, 2)[0] == 200, 60, 0.1)
            back[inst.name] = round(time.time() - t_up, 2)
        # Every duty held by exactly one instance again.
        duties_ok = wait_for(lambda: all(d is not None for d in [duties_held(i.addr) for i in insts]) and
                             all(sum(1 for i in insts if (duties_held(i.addr) or {}).get(duty)) == 1
                                 for duty in (duties_held(insts[0].addr) or {})), 30, 0.5)
        t_duties = round(time.time() - t_up, 2)
        during = {f"{h}/{c}": n - before.get((h, c), 0) for (h, c), n in STATS.replies.items() if n - before.get((h, c), 0)}
        figures["outages"].append({"mode": mode, "down_s": round(t_up - t_down, 1), "healthz_during": dict(health),
                                   "replies_during_and_after": during, "acked_during_outage": acked_down,
                                   "healthy_again_after_s": back, "duties_rebalanced": duties_ok, "duties_after_s": t_duties})
        log(f"outage {cycle + 1}: {figures['outages'][-1]}")
    time.sleep(8)
    finish_loads(loads)
    acked_end = {k: v for k, v in STATS.c.items() if k.endswith(".acked")}
    figures["studio_interrupted"] = settle_tail(db, loads, lambda: (insts[0].term(), insts[0].start(), insts[1].term(), insts[1].start()))
    fails = check_all(db, loads, figures)
    for o in figures["outages"]:
        if not o["duties_rebalanced"]:
            fails.append(f"duties not held again after the outage ({o['mode']})")
    for inst in insts:
        inst.term()
    ledger_verify(url, figures, fails)
    return summary("pg-restart", figures, fails)


# --- SQLite disk full

def disk_full():
    if os.geteuid() != 0:
        sys.exit("disk-full needs root (a loop-mounted ext4 image)")
    work = tmpdir("diskfull")
    img, mnt = os.path.join(work, "fs.img"), os.path.join(work, "mnt")
    os.makedirs(mnt)
    size_mb = int(os.environ.get("FAULTS_FS_MB", "48"))
    subprocess.run(["truncate", "-s", f"{size_mb}M", img], check=True)
    subprocess.run(["mkfs.ext4", "-q", "-F", "-m", "0", img], check=True)
    subprocess.run(["mount", "-o", "loop", img, mnt], check=True)
    CLEANUP.add(lambda: subprocess.run(["umount", mnt], check=False), f"umount {mnt}")
    url = f"sqlite://{mnt}/carthage.db"
    carthage(["migrate"], url)
    carthage(["seed"], url)
    inst = Instance("diskfull", url, work)
    inst.start()
    db = Database(url)
    loads = make_loads([inst.addr], uuid.uuid4().hex[:8])
    run_loads(loads)
    figures = {"backend": f"sqlite on a {size_mb} MB ext4 image"}
    time.sleep(5)
    # Fill the file system.
    filler = os.path.join(mnt, "filler")
    subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True)
    free = shutil.disk_usage(mnt).free
    log(f"file system full ({free} bytes free)")
    acked0 = sum(v for k, v in STATS.c.items() if k.endswith(".acked"))
    before = dict(STATS.replies)
    health = Counter()
    t_full = time.time()
    while time.time() - t_full < 15:
        st, env = healthz(inst.addr, 2)
        health[f"{st} {json.dumps(env, sort_keys=True) if env else ''}"] += 1
        # Keep it full: anything freed (a checkpoint) is taken again.
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}.{int(time.time() * 10)}", "bs=4k"], capture_output=True)
        time.sleep(1)
    acked_full = sum(v for k, v in STATS.c.items() if k.endswith(".acked")) - acked0
    during = {f"{h}/{c}": n - before.get((h, c), 0) for (h, c), n in STATS.replies.items() if n - before.get((h, c), 0)}
    alive = inst.proc.poll() is None
    for f in os.listdir(mnt):
        if f.startswith("filler"):
            os.remove(os.path.join(mnt, f))
    t_free = time.time()
    log("space freed")
    acked1 = sum(v for k, v in STATS.c.items() if k.endswith(".acked"))
    recovered = wait_for(lambda: sum(v for k, v in STATS.c.items() if k.endswith(".acked")) > acked1 + 20 and healthz(inst.addr)[0] == 200, 60, 0.1)
    figures["full"] = {"seconds": 15, "acked_while_full": acked_full, "replies_while_full": during, "healthz_while_full": dict(health),
                       "server_alive": alive, "recovered": recovered, "recovered_after_s": round(time.time() - t_free, 2)}
    log(f"full: {figures['full']}")
    time.sleep(5)
    finish_loads(loads)
    figures["studio_interrupted"] = settle_tail(db, loads, lambda: (inst.term(), inst.start()))
    fails = check_all(db, loads, figures)
    inst.term()
    path = url.split("sqlite://", 1)[1]
    con = sqlite3.connect(path)
    integrity = con.execute("PRAGMA integrity_check").fetchall()
    con.close()
    figures["integrity_check"] = [r[0] for r in integrity][:5]
    if integrity != [("ok",)]:
        fails.append(f"integrity_check: {integrity[:5]}")
    if not alive or not recovered:
        fails.append(f"no recovery after the disk was freed (alive {alive}, recovered {recovered})")
    ledger_verify(url, figures, fails)
    return summary("disk-full", figures, fails)


SCENARIOS = {"kill-sqlite": kill_sqlite, "kill-pg": kill_pg, "pg-restart": pg_restart, "disk-full": disk_full}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in SCENARIOS:
        sys.exit(__doc__)
    log(f"{sys.argv[1]} with {BIN}")
    sys.exit(SCENARIOS[sys.argv[1]]())
