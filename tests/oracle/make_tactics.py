#!/usr/bin/env python3
"""Generate candidate entries for positions/tactics.txt (a DEV TOOL).

Not run by CI and not needed by `cargo test`: it needs a Fairy-Stockfish
binary built with custom pieces (default /tmp/fsf/fairy-stockfish, variants
from /tmp/fsf/variants.ini) and a release build of ghast.

How it works:
  1. Semi-random games from each variant's start position (random legal
     moves from ghast's `go perft 1`, mixed with ghast's `go depth 1` move so
     that material stays roughly balanced).
  2. Every position is screened with ghast (`go depth 5`, MultiPV 2).
     Candidates: a mate in 1-3 for the side to move, or a best move at least
     250 cp better than the second best, which is about level.
  3. Each candidate is verified with Fairy-Stockfish (`go depth 20`, capped
     in time, MultiPV 2): the mate distance must be the same, the best move
     the same, and the move unique (the second line does not mate as fast;
     for material wins it is at least 200 cp worse and the position is about
     level without the tactic).
  4. ghast is then run exactly as tests/tactics.rs runs it (`ucinewgame`,
     `position fen`, `go nodes 200000`, one thread) and must agree.

Output: lines in the positions/tactics.txt format on stdout, each after a
comment with Fairy-Stockfish's verdict (the suite's `id` fields and entry
descriptions were added when the suite was assembled).

  python3 tests/oracle/make_tactics.py --variant nimrod --mates 4 --wins 3 --seed 1
"""
import argparse
import random
import subprocess
import sys

FSF_NAME = {
    "nimrod": "nimrod",
    "nimrod-corner": "nimrodcorner",
    "dragon-nimrod": "dragonnimrod",
    "dragon-nimrod-corner": "dragonnimrodcorner",
}
TEST_NODES = 200000


class Engine:
    def __init__(self, cmd, init=()):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        for line in init:
            self.send(line)
        self.sync()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read_until(self, pred):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died after: " + "\n".join(out[-5:]))
            line = line.rstrip("\n")
            out.append(line)
            if pred(line):
                return out

    def sync(self):
        self.send("isready")
        self.read_until(lambda l: l == "readyok")

    def legal(self, pos):
        self.send(pos)
        self.send("go perft 1")
        out = self.read_until(lambda l: l.startswith("Nodes searched"))
        return [l.split(":")[0] for l in out if ":" in l and not l.startswith("Nodes")]

    def go(self, pos, go, multipv=1):
        self.send(f"setoption name MultiPV value {multipv}")
        self.send(pos)
        self.send(go)
        out = self.read_until(lambda l: l.startswith("bestmove"))
        lines = {}
        for l in out:
            t = l.split()
            if not t or t[0] != "info" or "score" not in t or " pv " not in l:
                continue
            mpv = int(t[t.index("multipv") + 1]) if "multipv" in t else 1
            i = t.index("score")
            kind, val = t[i + 1], int(t[i + 2])
            if t[i + 3] in ("lowerbound", "upperbound"):
                continue
            lines[mpv] = (kind, val, t[t.index("pv") + 1], int(t[t.index("depth") + 1]))
        return out[-1].split()[1], lines


def score_value(kind, val):
    if kind == "mate":
        return 100000 - val if val > 0 else -100000 - val
    return val


def fen_of(ghast, pos):
    ghast.send(pos)
    ghast.send("d")
    out = ghast.read_until(lambda l: l.startswith("Fen:") or l.startswith("FEN"))
    return out[-1].split(":", 1)[1].strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", help="required unless --verify")
    ap.add_argument("--ghast", default="target/release/ghast")
    ap.add_argument("--fsf", default="/tmp/fsf/fairy-stockfish")
    ap.add_argument("--variants-ini", default="/tmp/fsf/variants.ini")
    ap.add_argument("--mates", type=int, default=4, help="mates wanted per distance 1..3")
    ap.add_argument("--wins", type=int, default=3, help="material wins wanted")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--verify", metavar="FILE",
                    help="only verify hand-made lines '<variant>; <FEN>' from FILE")
    args = ap.parse_args()
    if args.verify:
        return verify_file(args)
    if args.variant not in FSF_NAME:
        ap.error("--variant must be one of " + ", ".join(FSF_NAME))
    rng = random.Random(args.seed)
    v = args.variant
    ghast = Engine([args.ghast], [f"setoption name UCI_Variant value {v}"])
    fsf = Engine([args.fsf], [f"setoption name VariantPath value {args.variants_ini}",
                              f"setoption name UCI_Variant value {FSF_NAME[v]}",
                              "setoption name Threads value 1", "setoption name Hash value 64"])
    want = {1: args.mates, 2: args.mates, 3: args.mates, "win": args.wins}
    found = {k: 0 for k in want}
    seen = set()
    for game in range(args.games):
        if all(found[k] >= want[k] for k in want):
            break
        moves = []
        for ply in range(120):
            pos = "position startpos moves " + " ".join(moves) if moves else "position startpos"
            legal = ghast.legal(pos)
            if not legal:
                break
            if ply >= 8:
                check(v, pos, ghast, fsf, want, found, seen)
            if rng.random() < 0.6:
                best, _ = ghast.go(pos, "go depth 1")
                mv = best if best in legal else rng.choice(legal)
            else:
                mv = rng.choice(legal)
            moves.append(mv)
        print(f"# game {game}: found {found}", file=sys.stderr)


def verify_file(args):
    engines = {}
    for raw in open(args.verify):
        raw = raw.strip()
        if not raw or raw.startswith("#"):
            continue
        v, fen = [f.strip() for f in raw.split(";")[:2]]
        if v not in engines:
            engines[v] = (
                Engine([args.ghast], [f"setoption name UCI_Variant value {v}"]),
                Engine([args.fsf], [f"setoption name VariantPath value {args.variants_ini}",
                                    f"setoption name UCI_Variant value {FSF_NAME[v]}",
                                    "setoption name Threads value 1",
                                    "setoption name Hash value 64"]))
        ghast, fsf = engines[v]
        line = verify(v, fen, ghast, fsf)
        print(line if line else f"# REJECTED {v}; {fen}", flush=True)


def check(v, pos, ghast, fsf, want, found, seen):
    best, lines = ghast.go(pos, "go depth 5", multipv=2)
    if 1 not in lines:
        return
    kind, val, _, _ = lines[1]
    if kind == "mate" and 1 <= val <= 3:
        cat = val
    elif kind == "cp" and 2 in lines and lines[2][0] == "cp" \
            and 150 <= val <= 1500 and val - lines[2][1] >= 250 and abs(lines[2][1]) <= 150:
        cat = "win"
    else:
        return
    if found[cat] >= want[cat]:
        return
    fen = fen_of(ghast, pos)
    if fen in seen:
        return
    seen.add(fen)
    line = verify(v, fen, ghast, fsf, cat)
    if line:
        found[cat] += 1
        print(line, flush=True)


def verify(v, fen, ghast, fsf, cat=None):
    """The entry for `fen` if both engines agree (cat: 1-3 mate, "win",
    or None to take it from Fairy-Stockfish), else None."""
    fpos = "position fen " + fen
    fbest, flines = fsf.go(fpos, "go depth 20 movetime 4000", multipv=2)
    if 1 not in flines:
        return None
    f1 = flines[1]
    f2 = flines.get(2)
    if cat is None:
        cat = f1[1] if f1[0] == "mate" and 1 <= f1[1] <= 3 else "win"
    if cat != "win":
        if f1[0] != "mate" or f1[1] != cat:
            return None
        if f2 and f2[0] == "mate" and 0 < f2[1] <= cat:
            return None
    else:
        if f1[0] != "cp" or not f2 or f2[0] != "cp":
            return None
        if f1[1] - f2[1] < 200 or f1[1] < 150 or abs(f2[1]) > 200:
            return None
    # ghast exactly as the test runs it
    ghast.send("ucinewgame")
    gbest, glines = ghast.go(fpos, f"go nodes {TEST_NODES}", multipv=1)
    ghast.send("ucinewgame")
    if gbest != fbest:
        print(f"# disagree {v} {fen}: ghast {gbest} fsf {fbest} {flines}", file=sys.stderr)
        return None
    g1 = glines[1]
    if cat != "win" and (g1[0] != "mate" or g1[1] != cat):
        print(f"# mate distance disagree {v} {fen}: ghast {g1} fsf {f1}", file=sys.stderr)
        return None
    tail = f"; mate {cat}" if cat != "win" else ""
    note = f"fsf depth {f1[3]} {f1[0]} {f1[1]}, second {f2[2] if f2 else '-'} " \
           f"{f2[0] + ' ' + str(f2[1]) if f2 else '-'}"
    return f"# {note}\n{v}; {fen}; bm {fbest}{tail}"


if __name__ == "__main__":
    main()
