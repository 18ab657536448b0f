#!/usr/bin/env python3
"""The live game on a 3-instance cluster, tried as an operator would (issue 21, docs/OPERATIONS.md
"Several instances"): players connected to different instances play the crash game and the
sportsbook; the owner of both is killed with kill -9; the players' sockets on the other
instances go on with the new owner's rounds within 5 s; no bet is lost.

Needs a running cluster (scripts/cluster.sh start 3, demo mode, PostgreSQL) and prints one
line per check plus the figures. Standard library only (a minimal WebSocket client below).

  DATABASE_URL=postgres://…/carthage_cluster scripts/cluster.sh start 3
  python3 tests/cluster/live.py            # BASE_PORT (18100) and CLUSTER_DIR as the script's
"""
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import time
import urllib.request

BASE = int(os.environ.get("BASE_PORT", "18100"))
DIR = os.environ.get("CLUSTER_DIR", "data/cluster")
N = int(open(os.path.join(DIR, "size")).read().strip()) if os.path.exists(os.path.join(DIR, "size")) else 3
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def url(i, path):
    return f"http://127.0.0.1:{BASE + i}{path}"


def call(i, method, path, body=None, token=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url(i, path), data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


class Ws:
    """A minimal RFC 6455 client: text frames, client frames masked."""

    def __init__(self, port, path):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.s.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.decode(errors="replace"))
        self.buf = b""

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(65536)
            if not chunk:
                raise ConnectionError("socket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, obj):
        payload = json.dumps(obj).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        self.s.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def recv(self, timeout=10):
        self.s.settimeout(timeout)
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            data = self._read(n)
            op = b0 & 0x0F
            if op == 0x1:
                return json.loads(data)
            if op == 0x8:
                raise ConnectionError("closed by the server")

    def next_of(self, ty, timeout=10):
        end = time.time() + timeout
        while time.time() < end:
            m = self.recv(max(0.1, end - time.time()))
            if m.get("type") == ty:
                return m
        raise TimeoutError(ty)


def duties_owner():
    out = subprocess.run(["bash", "scripts/cluster.sh", "status"], capture_output=True, text=True).stdout
    return out


def instance_of_owner():
    """The instance (1..N) whose /metrics says it holds the crash duty."""
    for i in range(1, N + 1):
        try:
            with urllib.request.urlopen(url(i, "/metrics"), timeout=2) as r:
                if 'carthage_duty_held{duty="crash"} 1' in r.read().decode():
                    return i
        except Exception:
            pass
    return None


def player(i, email, password):
    status, body = call(i, "POST", "/api/user/login/email", {"email": email, "password": password})
    assert status == 200 and body.get("status") == 0, body
    return body["result"]["token"] if "result" in body else body["token"]


def main():
    owner = instance_of_owner()
    check(owner is not None, f"the crash duty is held (instance {owner})")
    others = [i for i in range(1, N + 1) if i != owner]
    token = player(others[0], "player@carthage.local", "Player123")

    # Crash: one socket on each instance that does not own the game.
    sockets = {}
    game_token = None
    for i in others:
        st, launch = call(i, "POST", "/api/casino/session", {"provider": "studio", "gameId": "crash"}, token=token)
        game_token = launch["result"]["sessionToken"]
        sockets[i] = Ws(BASE + i, f"/api/studio/crash/ws?token={game_token}")
        hello = sockets[i].next_of("hello")
        r = sockets[i].next_of("round", timeout=120)
        check(True, f"instance {i} (standby) relays the owner's round {r['id']}")
    # A bet through a standby instance, played by the owner.
    ws = sockets[others[-1]]
    while True:
        r = ws.next_of("round", timeout=120)
        if r["bettingEndsAt"] - r["serverTime"] > 1500:
            break
    ws.send({"type": "bet", "requestId": "live-1", "amount": 1000, "autoCashOut": 110})
    reply = None
    end = time.time() + 10
    while time.time() < end:
        m = ws.recv()
        if m.get("requestId") == "live-1":
            reply = m
            break
    check(reply is not None and reply.get("type") == "betAccepted", f"a bet sent to instance {others[-1]} is accepted by the owner: {reply}")
    bet_round = r["id"]

    # Sportsbook: every instance shows the same events.
    lines = {}
    for i in range(1, N + 1):
        st, line = call(i, "GET", "/api/sportsbook/line")
        lines[i] = sorted(e["id"] for e in (line.get("result") or line)["events"]) if st == 200 else None
    counts = {i: len(v or []) for i, v in lines.items()}
    same = len({json.dumps(v) for v in lines.values()}) == 1
    check(same and counts[owner] > 0, f"the line is the same on every instance: {counts}")

    # kill -9 of the owner: the duty moves; the sockets on the other instances go on.
    t0 = time.time()
    subprocess.run(["bash", "scripts/cluster.sh", "kill", str(owner)], check=True, capture_output=True)
    new_owner = None
    while time.time() - t0 < 10 and new_owner is None:
        new_owner = instance_of_owner()
        time.sleep(0.1)
    took = time.time() - t0
    check(new_owner is not None and took <= 5, f"crash duty taken over by instance {new_owner} after {took:.1f} s")
    for i, w in sockets.items():
        try:
            # Skip what the socket held from before the kill (the round of the bet).
            m = w.next_of("round", timeout=120)
            while m["id"] <= bet_round:
                m = w.next_of("round", timeout=120)
            check(True, f"instance {i}'s socket got the new owner's round {m['id']} {time.time() - t0:.1f} s after the kill")
        except Exception as e:
            check(False, f"instance {i}'s socket: {e}")
    # The bet is in the ledger once, settled (won or lost) or refunded by the recovery rule.
    st, hist = call(others[0], "GET", "/api/studio/rounds?limit=20", token=token, headers={"X-Game-Session": game_token})
    rows = [x for x in (hist.get("result") or []) if x.get("roundId") == bet_round]
    check(len(rows) == 1, f"the bet of round {bet_round} is in the player's history once: {rows}")
    subprocess.run(["bash", "scripts/cluster.sh", "restart", str(owner)], capture_output=True)
    print("figures: take-over %.1f s" % took)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
