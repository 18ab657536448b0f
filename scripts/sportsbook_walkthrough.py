#!/usr/bin/env python3
"""A player's walk through our sportsbook against a running server (issue 12's "tried as a new
user would"): sign in as the demo player, place a single and a 3-leg express on live matches,
see a stale price refused under the "none" policy (604) and taken under "accept_any", wait for
the simulated matches to end, then check that every bet settled with payout = stake × odds
(or 0) and that the balance moved by exactly −stakes + payouts.

  python3 scripts/sportsbook_walkthrough.py http://127.0.0.1:8080 [max wait s]

Then `carthage ledger verify` on the same database. Uses only the standard library."""
import http.cookiejar, json, sys, time, urllib.request, uuid
from decimal import Decimal

base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
wait_s = int(sys.argv[2]) if len(sys.argv) > 2 else 900
jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def call(method, path, body=None, key=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("content-type", "application/json")
    if key:
        req.add_header("Idempotency-Key", key)
    with opener.open(req) as r:
        return json.loads(r.read())


def ok(env):
    assert env["status"] == 0, env
    return env["result"]


def balance():
    return Decimal(str(ok(call("GET", "/api/user/balance"))["balance"]))


ok(call("POST", "/api/user/login", {"login": "player@carthage.local", "password": "Player123"}))
start = balance()
print(f"signed in; balance {start}")

def open_picks(n):
    """n live events with an open main-market favourite priced 1.3–4 (distinct events)."""
    line = ok(call("GET", "/api/sportsbook/line?live=true"))
    picks = []
    for e in line["events"]:
        m = e["markets"][0] if e["markets"] else None
        if not m or m["status"] != "active":
            continue
        # The favourite (most likely to win, so the walk usually sees a payout).
        o = min((o for o in m["outcomes"] if o["active"] and 1.3 <= o["odds"] <= 4), key=lambda o: o["odds"], default=None)
        if o:
            picks.append({"event_id": e["id"], "market": m["key"], "outcome_id": o["id"], "odds": o["odds"]})
        if len(picks) == n:
            return picks
    return picks

def place(kind, legs, stake, policy):
    return call("POST", "/api/sportsbook/bets", {"kind": kind, "stake": stake, "odds_policy": policy, "legs": legs}, key=str(uuid.uuid4()))

def place_until_ok(kind, n, stake):
    for _ in range(20):
        env = place(kind, open_picks(n), stake, "accept_any")
        if env["status"] == 0:
            return env["result"]
        print(f"  {kind}: refused {env['status']} (a market moved or closed), again")
        time.sleep(1)
    raise SystemExit(f"could not place the {kind}")

single = place_until_ok("single", 1, 2)
print(f"single {single['id']} at {single['total_odds']}, potential {single['potential_payout']}")
express = place_until_ok("express", 3, 2)
print(f"express {express['id']} of {len(express['legs'])} legs at {express['total_odds']}")

# A stale price: the player saw odds 0.5 higher than offered. "none" refuses with 604 and the
# prices now offered; "accept_higher" refuses a drop too; "accept_any" takes the offer.
leg = open_picks(1)[0]
stale = dict(leg, odds=round(leg["odds"] + 0.5, 2))
for policy in ["none", "accept_higher"]:
    env = place("single", [stale], 1, policy)
    print(f"stale price under {policy}: status {env['status']}")
    assert env["status"] in (604, 605, 607), env
changed = place("single", [stale], 1, "accept_any")
print(f"stale price under accept_any: status {changed['status']}")
placed = [single, express] + ([changed["result"]] if changed["status"] == 0 else [])
stakes = sum(Decimal(str(b["stake"])) for b in placed)
after = balance()
assert after == start - stakes, (start, stakes, after)
print(f"balance {start} → {after} (−{stakes})")

deadline = time.time() + wait_s
while time.time() < deadline:
    open_ids = {b["id"] for b in ok(call("GET", "/api/sportsbook/bets?status=open&limit=100"))}
    if not ({b["id"] for b in placed} & open_ids):
        break
    time.sleep(10)
else:
    raise SystemExit("bets still open after the wait")

settled = ok(call("GET", "/api/sportsbook/bets?status=settled&limit=100"))
by_id = {b["id"]: b for b in settled}
payouts = Decimal(0)
for b in placed:
    s = by_id[b["id"]]
    payout = Decimal(str(s["payout"]))
    legs = ", ".join(f"{l['result'] or '?'}@{l['odds']}" for l in s["legs"])
    print(f"bet {b['id']} {s['kind']} {s['status']}: stake {s['stake']} payout {payout} ({legs})")
    if s["status"] == "won":
        # stake × the product of the legs' odds, down to the millime.
        odds = Decimal(1)
        for l in s["legs"]:
            odds *= Decimal(str(l["odds"]))
        expect = (Decimal(str(s["stake"])) * odds).quantize(Decimal("0.001"), rounding="ROUND_DOWN")
        assert payout == expect == Decimal(str(s["potential_payout"])), (payout, expect, s["potential_payout"])
    if s["status"] == "lost":
        assert payout == 0
    payouts += payout
final = balance()
assert final == start - stakes + payouts, (start, stakes, payouts, final)
print(f"balance {final} = {start} − {stakes} + {payouts}: history and balance agree")
