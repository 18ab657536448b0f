#!/usr/bin/env python3
"""Writes crates/studio/games/*.json from the specs below (symbol counts per reel).

The strips are the DATA the engine runs on; this script only lays the counts out: a seeded shuffle,
then repairs so that no window of three shows two scatters (or, with `spread_wilds`, two wilds).
Re-running it with the same specs gives the same files. After changing a spec, run
`cargo run --release -p studio --example slot_tool -- crates/studio/games/<id>.json` for the exact
RTP and put the rounded value in `declaredRtpBp` (a unit test holds them equal to 0.01 %).
"""
import json, os, random, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "games")

LINES_10 = [
    [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2],
    [0, 0, 1, 0, 0], [2, 2, 1, 2, 2], [1, 2, 2, 2, 1], [1, 0, 0, 0, 1], [1, 0, 1, 0, 1],
]
LINES_20 = LINES_10 + [
    [1, 2, 1, 2, 1], [0, 1, 0, 1, 0], [2, 1, 2, 1, 2], [1, 1, 0, 1, 1], [1, 1, 2, 1, 1],
    [0, 1, 1, 1, 0], [2, 1, 1, 1, 2], [0, 2, 0, 2, 0], [2, 0, 2, 0, 2], [0, 2, 2, 2, 0],
]


def layout(counts, seed, spread=("S",)):
    rng = random.Random(seed)
    strip = [s for s, k in counts.items() for _ in range(k)]
    n = len(strip)
    for _ in range(10000):
        rng.shuffle(strip)
        ok = True
        for s in spread:
            pos = [i for i, x in enumerate(strip) if x == s]
            for a in pos:
                for b in pos:
                    if a != b and ((b - a) % n) < 3:
                        ok = False
        # avoid long runs of one symbol (cosmetic)
        for i in range(n):
            if strip[i] == strip[(i + 1) % n] == strip[(i + 2) % n]:
                ok = False
        if ok:
            return " ".join(strip)
    raise SystemExit(f"could not lay out {counts}")


def game(spec):
    out = {k: v for k, v in spec.items() if k not in ("baseCounts", "featureCounts", "spread")}
    spread = spec.get("spread", ("S",))
    out["baseReels"] = [layout(c, f"{spec['id']}-base-{i}", spread) for i, c in enumerate(spec["baseCounts"])]
    if spec.get("featureCounts"):
        out["featureReels"] = [layout(c, f"{spec['id']}-feature-{i}", spread) for i, c in enumerate(spec["featureCounts"])]
    return out


def sym(code, id, name, kind, pays):
    return {"code": code, "id": id, "name": name, "kind": kind, "pays": pays}


def counts(*reels):
    codes = reels[0]
    return [dict(zip(codes, r)) for r in reels[1:]]


SPECS = []

# ---------------------------------------------------------------- neon-fruits (low volatility)
NF = ["W", "S", "BAR", "BEL", "MEL", "GRP", "PLM", "ORG", "LEM", "CHR"]
SPECS.append({
    "id": "neon-fruits",
    "name": "Neon Fruits",
    "theme": "A neon-lit fruit machine: sevens, bars, bells and glowing fruit on a night-club backdrop.",
    "volatility": "low",
    "declaredRtpBp": 0,
    "symbols": [
        sym("W", "seven", "Neon Seven", "wild", [10, 50, 250]),
        sym("S", "star", "Disco Star", "scatter", [2, 5, 20]),
        sym("BAR", "bar", "Bar", "regular", [8, 30, 120]),
        sym("BEL", "bell", "Bell", "regular", [6, 20, 80]),
        sym("MEL", "melon", "Watermelon", "regular", [5, 15, 60]),
        sym("GRP", "grapes", "Grapes", "regular", [4, 12, 50]),
        sym("PLM", "plum", "Plum", "regular", [3, 8, 30]),
        sym("ORG", "orange", "Orange", "regular", [2, 6, 25]),
        sym("LEM", "lemon", "Lemon", "regular", [2, 5, 20]),
        sym("CHR", "cherry", "Cherry", "regular", [2, 5, 20]),
    ],
    "lines": LINES_10,
    "baseCounts": counts(NF,
        [3, 1, 2, 2, 3, 3, 3, 3, 3, 3],
        [3, 1, 2, 2, 3, 3, 3, 3, 3, 3],
        [4, 1, 2, 1, 3, 3, 3, 3, 3, 3],
        [3, 1, 2, 2, 1, 3, 2, 3, 1, 3],
        [5, 1, 2, 2, 3, 3, 3, 4, 3, 3],
    ),
    "feature": {
        "name": "Neon Nights",
        "description": "3 or more Disco Stars award 10 free spins where every win is doubled; 3 or more Stars during the free spins award 10 more.",
        "triggerCount": 3, "spins": 10, "retrigger": 10,
        "multipliers": [{"value": 2, "weight": 1}],
        "expandingWildReels": [],
    },
})

# ---------------------------------------------------------------- desert-gold (medium volatility)
DG = ["W", "S", "MSK", "ANU", "EYE", "ANK", "A", "K", "Q", "J"]
SPECS.append({
    "id": "desert-gold",
    "name": "Desert Gold",
    "theme": "Egyptian treasure: a pharaoh's tomb of golden masks, Anubis, the Eye of Horus and ankhs.",
    "volatility": "medium",
    "declaredRtpBp": 0,
    "symbols": [
        sym("W", "pharaoh", "Golden Pharaoh", "wild", [50, 200, 1000]),
        sym("S", "pyramid", "Pyramid", "scatter", [2, 10, 100]),
        sym("MSK", "mask", "Death Mask", "regular", [40, 150, 750]),
        sym("ANU", "anubis", "Anubis", "regular", [30, 100, 400]),
        sym("EYE", "eye", "Eye of Horus", "regular", [20, 75, 250]),
        sym("ANK", "ankh", "Ankh", "regular", [15, 50, 150]),
        sym("A", "ace", "A", "regular", [10, 25, 100]),
        sym("K", "king", "K", "regular", [10, 25, 100]),
        sym("Q", "queen", "Q", "regular", [5, 15, 75]),
        sym("J", "jack", "J", "regular", [5, 15, 75]),
    ],
    "lines": LINES_20,
    "baseCounts": counts(DG,
        [0, 1, 2, 3, 4, 6, 5, 5, 5, 4],
        [2, 1, 2, 3, 3, 4, 6, 5, 5, 4],
        [3, 1, 2, 4, 4, 4, 5, 5, 5, 5],
        [2, 1, 3, 3, 5, 3, 5, 4, 6, 5],
        [1, 1, 2, 3, 5, 4, 3, 3, 3, 5],
    ),
    "featureCounts": counts(DG,
        [0, 1, 2, 3, 3, 4, 5, 5, 5, 5],
        [4, 1, 2, 3, 3, 4, 5, 5, 5, 5],
        [4, 1, 2, 3, 3, 4, 5, 5, 5, 5],
        [4, 1, 2, 3, 3, 4, 5, 5, 5, 5],
        [0, 1, 2, 3, 3, 4, 5, 5, 5, 5],
    ),
    "spread": ("S", "W"),
    "feature": {
        "name": "Tomb of Wilds",
        "description": "3 or more Pyramids award 10 free spins where every Golden Pharaoh on reels 2, 3 and 4 expands to fill its reel; 3 or more Pyramids during the free spins award 5 more.",
        "triggerCount": 3, "spins": 10, "retrigger": 5,
        "multipliers": [{"value": 1, "weight": 1}],
        "expandingWildReels": [1, 2, 3],
    },
})

# ---------------------------------------------------------------- atlantis-pearls (high volatility)
AP = ["W", "S", "MER", "SEA", "TUR", "CLM", "STF", "SHL", "COR", "ANC"]
SPECS.append({
    "id": "atlantis-pearls",
    "name": "Atlantis Pearls",
    "theme": "Underwater pearls: the sunken city of Atlantis, mermaids, seahorses, turtles and giant clams.",
    "volatility": "high",
    "declaredRtpBp": 0,
    "symbols": [
        sym("W", "trident", "Trident", "wild", [100, 1000, 5000]),
        sym("S", "pearl", "Black Pearl", "scatter", [5, 50, 500]),
        sym("MER", "mermaid", "Mermaid", "regular", [50, 400, 2500]),
        sym("SEA", "seahorse", "Seahorse", "regular", [40, 200, 1000]),
        sym("TUR", "turtle", "Turtle", "regular", [25, 100, 500]),
        sym("CLM", "clam", "Giant Clam", "regular", [20, 75, 300]),
        sym("STF", "starfish", "Starfish", "regular", [10, 25, 100]),
        sym("SHL", "shell", "Shell", "regular", [10, 25, 100]),
        sym("COR", "coral", "Coral", "regular", [5, 20, 75]),
        sym("ANC", "anchor", "Anchor", "regular", [5, 20, 75]),
    ],
    "lines": LINES_20,
    "baseCounts": counts(AP,
        [1, 1, 1, 2, 3, 4, 8, 8, 4, 4],
        [1, 1, 1, 3, 3, 4, 4, 4, 8, 8],
        [1, 1, 1, 1, 3, 4, 8, 9, 4, 4],
        [1, 1, 1, 2, 3, 4, 4, 4, 7, 8],
        [1, 1, 1, 2, 3, 4, 8, 8, 4, 3],
    ),
    "featureCounts": counts(AP,
        [3, 1, 2, 3, 3, 4, 5, 5, 5, 5],
        [3, 1, 2, 3, 3, 4, 5, 5, 5, 5],
        [3, 1, 2, 3, 3, 4, 5, 5, 5, 5],
        [3, 1, 2, 3, 3, 4, 5, 5, 5, 5],
        [3, 1, 2, 3, 3, 4, 5, 5, 5, 5],
    ),
    "feature": {
        "name": "Pearl Treasury",
        "description": "3 or more Black Pearls award 8 free spins; every free spin opens a pearl with a multiplier of x2, x3, x5, x10 or x25 for that spin's wins; 3 or more Black Pearls during the free spins award 8 more.",
        "triggerCount": 3, "spins": 8, "retrigger": 8,
        "multipliers": [
            {"value": 2, "weight": 40}, {"value": 3, "weight": 30}, {"value": 5, "weight": 15},
            {"value": 10, "weight": 10}, {"value": 25, "weight": 5},
        ],
        "expandingWildReels": [],
    },
})


def main():
    only = sys.argv[1:]
    for spec in SPECS:
        if only and spec["id"] not in only:
            continue
        path = os.path.join(OUT, spec["id"] + ".json")
        declared = spec["declaredRtpBp"]
        if os.path.exists(path):
            declared = json.load(open(path)).get("declaredRtpBp", declared)
        g = game(spec)
        g["declaredRtpBp"] = declared
        text = json.dumps(g, indent=1)
        # keep number lists (pays, lines) on one line
        text = re.sub(r"\[\s*([0-9][0-9,\s]*?)\s*\]", lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text)
        text = re.sub(r'\{\s*"value": (\d+),\s*"weight": (\d+)\s*\}', r'{"value": \1, "weight": \2}', text)
        with open(path, "w") as f:
            f.write(text + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main()
