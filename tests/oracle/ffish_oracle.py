#!/usr/bin/env python3
"""Independent move-generation oracle for the Nimrod Chess variants.

Uses Fairy-Stockfish's Python binding (`pip install pyffish`) with the variant
definitions in tests/oracle/variants.ini (copied from the appendix of
/work/shared/rules/nimrod.md).  VARIANT is a ghast name (nimrod, nimrod-corner,
dragon-nimrod, dragon-nimrod-corner) or the Fairy-Stockfish section name.

Usage (from the repository root):

  python3 tests/oracle/ffish_oracle.py perft VARIANT FEN DEPTH [--divide]
      Perft with pyffish; FEN may be `startpos`.

  python3 tests/oracle/ffish_oracle.py gen VARIANT --count N --seed S --out FILE
          [--depth D] [--budget CALLS] [--jobs J]
      Write a perft suite: the start position, the rulebook's hand-made
      positions for VARIANT, then N positions from seeded, biased random play
      (castling rights, e.p., promotions, dragon promotions, checks, pins,
      mates/stalemates).  Each position gets counts for depths 1..d, where d
      (3 <= d <= D) is the largest depth whose pyffish cost stays within
      --budget legal_moves calls and 2,000,000 leaves.

  python3 tests/oracle/ffish_oracle.py compare VARIANT --engine PATH
          (--suite FILE | --random N) [--seed S] [--max-plies P] [--perft-depth K]
      Drive a UCI engine (`go perft 1` divide output) and compare its set of
      legal moves with pyffish.legal_moves.  --suite checks every position of
      a suite file (and, with --perft-depth K, the engine's `go perft K` node
      count against the suite's ;DK).  --random plays N seeded random games
      of up to P plies and checks every ply, sending both `position fen FEN`
      and `position fen ROOT moves ...`.  Exit status 1 on any difference.

  python3 tests/oracle/ffish_oracle.py examples
      Check the worked examples of rulebook section 6 against pyffish.

Suite format, one position per line: `<FEN> ;D1 <n> ;D2 <n> ...`; `#` starts
a comment line.
"""

import argparse
import multiprocessing
import os
import queue
import random
import re
import subprocess
import sys
import threading

import pyffish as sf

HERE = os.path.dirname(os.path.abspath(__file__))
INI_PATH = os.path.join(HERE, "variants.ini")

FSF_NAME = {
    "nimrod": "nimrod",
    "nimrod-corner": "nimrodcorner",
    "dragon-nimrod": "dragonnimrod",
    "dragon-nimrod-corner": "dragonnimrodcorner",
}
GHAST_NAME = {fsf: ghast for ghast, fsf in FSF_NAME.items()}

MAX_LEAVES = 2_000_000
MIN_DEPTH = 3

_loaded = False


def load():
    """Load variants.ini into pyffish (once per process)."""
    global _loaded
    if not _loaded:
        with open(INI_PATH) as f:
            sf.load_variant_config(f.read())
        _loaded = True


def version():
    return ".".join(map(str, sf.version()))


def ghast_name(variant):
    if variant in FSF_NAME:
        return variant
    if variant in GHAST_NAME:
        return GHAST_NAME[variant]
    raise SystemExit(f"unknown variant {variant!r}; expected one of {sorted(FSF_NAME)}")


def is_corner(variant):
    return variant.endswith("corner")


def is_dragon(variant):
    return variant.startswith("dragon")


def start_fen(variant):
    load()
    return sf.start_fen(FSF_NAME[variant])


# ---------------------------------------------------------------- board model

# Promotion squares by side (rulebook 3.4).
FIDE_ZONE = {"w": {f + "8" for f in "abcdefgh"}, "b": {f + "1" for f in "abcdefgh"}}
CORNER_ZONE = {
    "w": {"a8", "b8", "c8", "d8", "a7", "a6", "a5", "a4"},
    "b": {"h1", "g1", "f1", "e1", "d1", "h2", "h3", "h4"},
}
# Unpromoted pieces that gain their dragon form on a promotion square.
DRAGONABLE = {False: set("nhauw"), True: set("nhamy")}
# Canonical dragon letters for Fairy-Stockfish's `+X` notation (rulebook 5.2).
DRAGON_LETTER = {False: dict(zip("nhauw", "cdfgj")), True: dict(zip("nhamy", "cdfoz"))}


def promotion_zone(variant, colour):
    return (CORNER_ZONE if is_corner(variant) else FIDE_ZONE)[colour]


def parse_board(fen):
    """Map square -> piece token ('P', 'n', '+W', ...) from a FEN placement."""
    board = {}
    for rank_index, row in enumerate(fen.split()[0].split("/")):
        rank = 8 - rank_index
        file = 0
        promoted = ""
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            elif ch == "+":
                promoted = "+"
            else:
                board["abcdefgh"[file] + str(rank)] = promoted + ch
                file += 1
                promoted = ""
    return board


def canonical_fen(variant, fen):
    """Rewrite Fairy-Stockfish `+X` dragon pieces with their own letters."""
    letters = DRAGON_LETTER[is_corner(variant)]

    def repl(m):
        ch = m.group(1)
        new = letters[ch.lower()]
        return new.upper() if ch.isupper() else new

    return re.sub(r"\+([A-Za-z])", repl, fen)


def divergent_placement(variant, fen):
    """Why FEN is outside the agreed rules, or None.

    Pawns never stand on their promotion squares.  In the dragon variants an
    unpromoted Knight/hunter must not stand on its own promotion squares,
    because Fairy-Stockfish would let it promote when leaving (rulebook M8).
    """
    dragonable = DRAGONABLE[is_corner(variant)]
    for square, token in parse_board(fen).items():
        colour = "w" if token[-1].isupper() else "b"
        if square not in promotion_zone(variant, colour):
            continue
        kind = token.lower()
        if kind == "p":
            return f"pawn on promotion square {square}"
        if is_dragon(variant) and kind in dragonable:
            return f"unpromoted {token} on its promotion square {square}"
    return None


# ---------------------------------------------------------------------- perft


def legal_moves(variant, fen, moves=()):
    load()
    return sf.legal_moves(FSF_NAME[variant], fen, list(moves))


def get_fen(variant, fen, moves=()):
    load()
    return sf.get_fen(FSF_NAME[variant], fen, list(moves))


def in_check(variant, fen, moves=()):
    load()
    return sf.gives_check(FSF_NAME[variant], fen, list(moves))


def perft_levels(variant, fen, max_depth, budget=None):
    """Leaf counts [perft(1), perft(2), ...] by breadth-first expansion.

    Level d+1 costs perft(d) legal_moves calls.  Without a budget every depth
    up to max_depth is computed.  With one, depths up to MIN_DEPTH always are;
    a deeper level only if the calls spent so far plus its cost fit the
    budget and its estimated leaf count stays within MAX_LEAVES.  A position
    without legal moves stops at depth 1.
    """
    counts = []
    frontier = [[]]
    spent = 0
    for depth in range(1, max_depth + 1):
        cost = len(frontier)
        if budget is not None and depth > MIN_DEPTH:
            growth = counts[-1] / counts[-2]
            if spent + cost > budget or counts[-1] * growth > MAX_LEAVES:
                break
        room = float("inf") if budget is None or depth < MIN_DEPTH else budget - spent - cost
        total = 0
        children = []
        for line in frontier:
            lm = legal_moves(variant, fen, line)
            total += len(lm)
            if depth < max_depth and len(children) <= room:
                children.extend(line + [m] for m in lm)
        spent += cost
        counts.append(total)
        if depth == max_depth or total == 0 or len(children) != total:
            break
        frontier = children
    return counts


def perft_divide(variant, fen, depth):
    """{move: perft(child, depth - 1)} for depth >= 1."""
    result = {}
    for m in legal_moves(variant, fen):
        child = get_fen(variant, fen, [m])
        result[m] = perft_levels(variant, child, depth - 1)[-1] if depth > 1 else 1
    return result


# ---------------------------------------------------------------- random play


def move_weight(board, move, castling):
    """Bias random play towards pawn advances, promotions and castling."""
    token = board.get(move[:2], "")
    if len(move) > 4:
        return 4.0 if move[4] != "+" else 3.0
    kind = token.lower()
    if kind == "p":
        return 3.0
    if kind == "k":
        if castling != "-" and abs(ord(move[0]) - ord(move[2])) == 2:
            return 6.0
        return 0.5
    return 1.0


def random_move(rng, fen, moves):
    parts = fen.split()
    board = parse_board(fen)
    weights = [move_weight(board, m, parts[2]) for m in moves]
    return rng.choices(moves, weights=weights)[0]


def features(variant, fen, moves):
    """Feature tags of a position: what a suite entry for it exercises."""
    parts = fen.split()
    tags = set()
    if parts[2] != "-":
        tags.add("castling")
        if any(parse_board(fen).get(m[:2], "").lower() == "k" and abs(ord(m[0]) - ord(m[2])) == 2
               for m in moves):
            tags.add("castle-move")
    if parts[3] != "-":
        tags.add("ep")
    if any(len(m) == 5 and m[4] != "+" for m in moves):
        tags.add("promotion")
    if any(m.endswith("+") for m in moves):
        tags.add("dragon")
    if in_check(variant, fen):
        tags.add("check")
    if not moves:
        tags.add("checkmate" if "check" in tags else "stalemate")
    return tags


def has_pin(variant, fen):
    """True if removing some own non-King piece would expose the King."""
    parts = fen.split()
    if in_check(variant, fen):
        return False
    side = parts[1]
    board = parse_board(fen)
    for square, token in board.items():
        own = token[-1].isupper() == (side == "w")
        if not own or token[-1].lower() == "k":
            continue
        rest = {s: t for s, t in board.items() if s != square}
        probe = " ".join([placement(rest), side, "-", "-", "0", "1"])
        if in_check(variant, probe):
            return True
    return False


def placement(board):
    rows = []
    for rank in range(8, 0, -1):
        row, empty = "", 0
        for f in "abcdefgh":
            token = board.get(f + str(rank))
            if token is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += token
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def random_game(variant, rng, plies, root=None):
    """Yield (fen, move list, legal moves) for each ply of a random game."""
    root = root or start_fen(variant)
    line = []
    for _ in range(plies + 1):
        fen = get_fen(variant, root, line)
        moves = legal_moves(variant, fen)
        yield fen, list(line), moves
        if not moves:
            return
        line.append(random_move(rng, fen, moves))


# --------------------------------------------------------------- suite gen

# Hand-made positions: (comment, FEN, variants).  From the rulebook's worked
# examples (section 6) unless marked otherwise.
FIDE = ("nimrod", "dragon-nimrod")
CORNER = ("nimrod-corner", "dragon-nimrod-corner")
HAND_MADE = [
    ("E2: lone Hunter d4", "k7/8/8/8/3H4/8/8/7K w - - 0 1", FIDE),
    ("E2: lone Hawker d4", "k7/8/8/8/3A4/8/8/7K w - - 0 1", FIDE),
    ("E2: lone Huntress d4", "k7/8/8/8/3U4/8/8/7K w - - 0 1", FIDE),
    ("E2: lone Hawkress d4", "k7/8/8/8/3W4/8/8/7K w - - 0 1", FIDE),
    ("E2: lone Black Hunter d4", "k7/8/8/8/3h4/8/8/7K b - - 0 1", FIDE),
    ("E3: Dragonhunter d4", "k7/8/8/8/3D4/8/8/7K w - - 0 1", ("dragon-nimrod",)),
    ("E3: Acelander d4", "k7/8/8/8/3C4/8/8/7K w - - 0 1", ("dragon-nimrod",)),
    ("E4: corner Hunter d4", "k7/8/8/8/3H4/8/8/7K w - - 0 1", CORNER),
    ("E4: corner Hawker d4", "k7/8/8/8/3A4/8/8/7K w - - 0 1", CORNER),
    ("E4: corner Huntsman d4", "k7/8/8/8/3M4/8/8/7K w - - 0 1", CORNER),
    ("E4: corner Hawksman d4", "k7/8/8/8/3Y4/8/8/7K w - - 0 1", CORNER),
    ("E4: corner Black Hunter d4", "k7/8/8/8/3h4/8/8/7K b - - 0 1", CORNER),
    ("E4: corner White Pawn d4", "k7/8/8/8/3P4/8/8/7K w - - 0 1", CORNER),
    ("E4: corner Black Pawn d4", "k7/8/8/8/3p4/8/8/7K b - - 0 1", CORNER),
    ("E4: corner Pawn capture d5xc6", "k7/8/2p5/3P4/8/8/8/7K w - - 0 1", CORNER),
    ("E4: Dragonhuntsman d4", "k7/8/8/8/3O4/8/8/7K w - - 0 1", ("dragon-nimrod-corner",)),
    ("E5: castling both ways", "w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1", FIDE),
    ("E5: castling both ways, Black to move", "w3k2u/8/8/8/8/8/8/W3K2U b KQkq - 0 1", FIDE),
    ("E6: no castling through attacked f1", "w3k2u/8/8/8/8/8/5h2/W3K2U w KQkq - 0 1", FIDE),
    ("E7: en passant e5xd6 available",
     "whnqkanu/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/WHNQKANU w KQkq d6 0 3", FIDE),
    ("E8: en passant illegal, exposes King to Huntress h5", "8/8/8/K2pP2u/8/8/8/4k3 w - d6 0 1", FIDE),
    ("E9: pawn promotion choices", "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1", FIDE),
    ("E9: pawn promotion choices, Black to move", "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U b - - 0 1", FIDE),
    ("E10: after 1.b3 g6, Hawkress a1 can take h8", "whnqkanu/pppppp1p/6p1/8/8/1P6/P1PPPPPP/WHNQKANU w KQkq - 0 2", FIDE),
    ("E11: White dragon piece promotions", "n3k3/8/1N6/8/8/1H1A4/8/U3K2W w - - 0 1", ("dragon-nimrod",)),
    ("E12: Black dragon piece promotions", "4k3/8/8/8/8/8/1n4h1/4K3 b - - 0 1", ("dragon-nimrod",)),
    ("E13: dragon pieces do not promote again", "c3k2j/8/8/8/8/8/8/D3K2G w - - 0 1", ("dragon-nimrod",)),
    ("E14: corner pawn promotions", "8/1P6/2k5/8/8/5K2/6p1/8 w - - 0 1", CORNER),
    ("E14: corner pawn promotions, Black to move", "8/1P6/2k5/8/8/5K2/6p1/8 b - - 0 1", CORNER),
    ("E15: Black Hunter d5 does not pin Hunter e4", "k7/8/8/3h4/4H3/8/8/7K w - - 0 1", CORNER),
    ("E15: Black Hawksman d5 pins Huntsman e4", "k7/8/8/3y4/4M3/8/8/7K w - - 0 1", CORNER),
    ("E15: Black Huntsman d5 does not pin Hawksman e4", "k7/8/8/3m4/4Y3/8/8/7K w - - 0 1", CORNER),
    ("E16: corner dragon piece promotions", "1k6/8/8/8/1N2A3/8/5h2/7K w - - 0 1", ("dragon-nimrod-corner",)),
    # Not from the rulebook.
    ("extra: Hunter a1 mates along the a-file (no legal moves, in check)",
     "kh6/1p6/8/8/8/8/8/H6K b - - 0 1", FIDE),
    ("extra: Queen b7 guarded by the King mates", "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1", FIDE + CORNER),
    ("extra: stalemate by Queen (no legal moves, not in check)", "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
     FIDE + CORNER),
    ("extra: Black promotes by capture: pawn a2xb1, Hawker c2xb1 and c2-d1",
     "4k3/8/8/8/8/8/p1a5/1N2K3 b - - 0 1", FIDE),
]


def hand_made(variant):
    return [(c, f) for c, f, vs in HAND_MADE if variant in vs]


def collect_pool(variant, rng, games):
    """Candidate positions from `games` random games of 4..80 plies."""
    pool = []
    for game in range(games):
        target = rng.randint(4, 80)
        for fen, line, moves in random_game(variant, rng, target):
            tags = features(variant, fen, moves)
            final = len(line) == target or not moves
            if final or tags - {"castling"}:
                pool.append({"fen": fen, "tags": tags, "game": game, "final": final, "ply": len(line)})
    return pool


# How many random positions to take per feature tag, as a fraction of N.
QUOTAS = [("checkmate", 0.05), ("stalemate", 0.05), ("ep", 0.1), ("promotion", 0.12),
          ("dragon", 0.12), ("check", 0.12), ("castle-move", 0.08), ("pin", 0.1)]


def select_positions(variant, rng, pool, count):
    """Pick `count` distinct positions covering the feature tags."""
    pool = [p for p in pool if divergent_placement(variant, p["fen"]) is None]
    rng.shuffle(pool)
    chosen, seen, per_game = [], set(), {}

    def take(p, why):
        key = " ".join(p["fen"].split()[:4])
        if key in seen or per_game.get(p["game"], 0) >= 2 or len(chosen) >= count:
            return False
        seen.add(key)
        per_game[p["game"]] = per_game.get(p["game"], 0) + 1
        chosen.append((why, p))
        return True

    for tag, fraction in QUOTAS:
        want = max(1, round(fraction * count))
        got = 0
        for p in pool:
            if got >= want:
                break
            if tag == "pin":
                if not p["final"] or not has_pin(variant, p["fen"]):
                    continue
                p["tags"].add("pin")
            elif tag not in p["tags"]:
                continue
            got += take(p, tag)
    for p in sorted((p for p in pool if p["final"]), key=lambda p: rng.random()):
        take(p, "random")
    return chosen


def _suite_line(job):
    variant, fen, depth, budget = job
    counts = perft_levels(variant, fen, depth, budget)
    return fen + "".join(f" ;D{i} {n}" for i, n in enumerate(counts, 1))


def gen(variant, count, seed, out, depth, budget, jobs):
    rng = random.Random(seed)
    pool = collect_pool(variant, rng, games=3 * count)
    chosen = select_positions(variant, rng, pool, count)
    entries = [("start position", start_fen(variant), None)]
    entries += [(comment, fen, None) for comment, fen in hand_made(variant)]
    for why, p in chosen:
        tags = ",".join(sorted(p["tags"])) or "-"
        entries.append((None, canonical_fen(variant, p["fen"]), f"random ply {p['ply']} [{tags}]"))
    for comment, fen, _ in entries:
        problem = divergent_placement(variant, fen)
        if problem:
            raise SystemExit(f"bad suite position {fen}: {problem}")
    # The start position gets a larger budget so that it reaches depth 4.
    work = [(variant, fen, depth, budget * (3 if i == 0 else 1)) for i, (_, fen, _) in enumerate(entries)]
    with multiprocessing.Pool(jobs) as p:
        lines = p.map(_suite_line, work, chunksize=1)
    with open(out, "w") as f:
        f.write(f"# {variant} perft suite: counts computed with pyffish {version()} using tests/oracle/variants.ini\n")
        f.write(f"# generated by: tests/oracle/ffish_oracle.py gen {variant} --count {count} --seed {seed} "
                f"--depth {depth} --budget {budget}\n")
        for (comment, _, note), line in zip(entries, lines):
            if comment:
                f.write(f"# {comment}\n")
            elif note:
                f.write(f"# {note}\n")
            f.write(line + "\n")
    print(f"wrote {len(lines)} positions to {out}")


# ------------------------------------------------------------ engine compare


class Engine:
    """Minimal UCI driver for `go perft 1` divide output."""

    def __init__(self, path, variant):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()
        self.send("uci")
        self.wait_for(lambda line: line == "uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.sync()

    def _reader(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def wait_for(self, done, timeout=60):
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise RuntimeError(f"engine timed out; last output: {seen[-5:]}")
            if line is None:
                raise RuntimeError(f"engine exited; last output: {seen[-5:]}")
            seen.append(line)
            if done(line):
                return seen

    def sync(self):
        self.send("isready")
        self.wait_for(lambda line: line == "readyok")

    def perft(self, position, depth):
        """(divide dict, node count) for a `position ...` command."""
        self.send(position)
        self.send(f"go perft {depth}")
        lines = self.wait_for(lambda line: line.startswith("Nodes searched"))
        self.sync()
        divide = {}
        for line in lines:
            m = re.fullmatch(r"(\S+):\s*(\d+)", line)
            if m:
                divide[normalise(m.group(1))] = int(m.group(2))
        return divide, int(lines[-1].split(":")[1])

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def normalise(move):
    """Lower-case the move (pawn promotion letters); keeps the dragon `+`."""
    return move.lower()


def read_suite(path):
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fen, *fields = [part.strip() for part in line.split(";")]
        counts = {int(f.split()[0][1:]): int(f.split()[1]) for f in fields}
        yield fen, counts


class Comparison:
    def __init__(self, variant, engine):
        self.variant = variant
        self.engine = engine
        self.checked = 0
        self.failures = 0

    def moves(self, fen, position, label):
        expected = {normalise(m) for m in legal_moves(self.variant, fen)}
        got, nodes = self.engine.perft(position, 1)
        self.checked += 1
        problems = []
        if set(got) != expected:
            missing, extra = sorted(expected - set(got)), sorted(set(got) - expected)
            problems.append(f"missing {' '.join(missing) or '-'}; extra {' '.join(extra) or '-'}")
        if nodes != len(got):
            problems.append(f"Nodes searched {nodes} but {len(got)} divide lines")
        self.report(label, fen, position, problems)

    def count(self, fen, depth, expected):
        _, nodes = self.engine.perft(f"position fen {fen}", depth)
        problems = [] if nodes == expected else [f"perft {depth}: engine {nodes}, suite {expected}"]
        self.report("suite count", fen, f"position fen {fen}", problems)

    def report(self, label, fen, position, problems):
        if problems:
            self.failures += 1
            print(f"DIFF [{label}] {fen}")
            if not position.endswith(fen):
                print(f"     via: {position}")
            for p in problems:
                print(f"     {p}")


def compare(variant, engine_path, suite, games, seed, max_plies, perft_depth):
    engine = Engine(engine_path, variant)
    cmp = Comparison(variant, engine)
    try:
        if suite:
            for fen, counts in read_suite(suite):
                cmp.moves(fen, f"position fen {fen}", "suite")
                if perft_depth and perft_depth in counts:
                    cmp.count(fen, perft_depth, counts[perft_depth])
        rng = random.Random(seed)
        root = start_fen(variant)
        for game in range(games):
            for fen, line, _ in random_game(variant, rng, max_plies, root):
                cmp.moves(fen, f"position fen {fen}", f"game {game} ply {len(line)}")
                if line:
                    cmp.moves(fen, f"position fen {root} moves {' '.join(line)}", f"game {game} ply {len(line)}")
    finally:
        engine.close()
    print(f"{variant}: {cmp.checked} checks, {cmp.failures} with differences")
    return 1 if cmp.failures else 0


# ------------------------------------------------------- rulebook examples

# (label, variant, FEN or "startpos", moves before, from-squares, expected moves)
MOVE_EXAMPLES = [
    ("E1", "nimrod", "startpos", [], [f + "1" for f in "abcdefgh"], "c1b3 c1d3 g1f3 g1h3"),
    ("E2 Hunter", "nimrod", "k7/8/8/8/3H4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a1 d4b2 d4c3 d4d5 d4d6 d4d7 d4d8 d4e3 d4f2 d4g1"),
    ("E2 Hawker", "nimrod", "k7/8/8/8/3A4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e5 d4f6 d4g7 d4h8"),
    ("E2 Huntress", "nimrod", "k7/8/8/8/3U4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a1 d4a4 d4b2 d4b4 d4c3 d4c4 d4d5 d4d6 d4d7 d4d8 d4e3 d4e4 d4f2 d4f4 d4g1 d4g4 d4h4"),
    ("E2 Hawkress", "nimrod", "k7/8/8/8/3W4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a4 d4a7 d4b4 d4b6 d4c4 d4c5 d4d1 d4d2 d4d3 d4e4 d4e5 d4f4 d4f6 d4g4 d4g7 d4h4 d4h8"),
    ("E2 Black Hunter", "nimrod", "k7/8/8/8/3h4/8/8/7K b - - 0 1", [], ["d4"],
     "d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e5 d4f6 d4g7 d4h8"),
    ("E3 Dragonhunter", "dragon-nimrod", "k7/8/8/8/3D4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a1 d4b2 d4c3 d4c4 d4c5 d4d3 d4d5 d4d6 d4d7 d4d8 d4e3 d4e4 d4e5 d4f2 d4g1"),
    ("E3 Acelander", "dragon-nimrod", "k7/8/8/8/3C4/8/8/7K w - - 0 1", [], ["d4"],
     "d4b3 d4b5 d4c2 d4c3 d4c4 d4c5 d4c6 d4d3 d4d5 d4e2 d4e3 d4e4 d4e5 d4e6 d4f3 d4f5"),
    ("E4 Hunter", "nimrod-corner", "k7/8/8/8/3H4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a4 d4b4 d4c4 d4d5 d4d6 d4d7 d4d8 d4e3 d4f2 d4g1"),
    ("E4 Hawker", "nimrod-corner", "k7/8/8/8/3A4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e4 d4f4 d4g4 d4h4"),
    ("E4 Huntsman", "nimrod-corner", "k7/8/8/8/3M4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a1 d4a4 d4b2 d4b4 d4c3 d4c4 d4d5 d4d6 d4d7 d4d8 d4e3 d4e5 d4f2 d4f6 d4g1 d4g7 d4h8"),
    ("E4 Hawksman", "nimrod-corner", "k7/8/8/8/3Y4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a1 d4a7 d4b2 d4b6 d4c3 d4c5 d4d1 d4d2 d4d3 d4e4 d4e5 d4f4 d4f6 d4g4 d4g7 d4h4 d4h8"),
    ("E4 Black Hunter", "nimrod-corner", "k7/8/8/8/3h4/8/8/7K b - - 0 1", [], ["d4"],
     "d4a7 d4b6 d4c5 d4d1 d4d2 d4d3 d4e4 d4f4 d4g4 d4h4"),
    ("E4 White Pawn", "nimrod-corner", "k7/8/8/8/3P4/8/8/7K w - - 0 1", [], ["d4"], "d4c4 d4d5"),
    ("E4 Black Pawn", "nimrod-corner", "k7/8/8/8/3p4/8/8/7K b - - 0 1", [], ["d4"], "d4d3 d4e4"),
    ("E4 White Pawn d5", "nimrod-corner", "k7/8/2p5/3P4/8/8/8/7K w - - 0 1", [], ["d5"], "d5c5 d5c6 d5d6"),
    ("E4 Dragonhuntsman", "dragon-nimrod-corner", "k7/8/8/8/3O4/8/8/7K w - - 0 1", [], ["d4"],
     "d4a1 d4a4 d4b2 d4b4 d4c3 d4c4 d4c5 d4d3 d4d5 d4d6 d4d7 d4d8 d4e3 d4e4 d4e5 d4f2 d4f6 d4g1 d4g7 d4h8"),
    ("E5", "nimrod", "w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1", [], ["e1"],
     "e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1"),
    ("E6", "nimrod", "w3k2u/8/8/8/8/8/5h2/W3K2U w KQkq - 0 1", [], ["e1"], "e1c1 e1d1 e1d2 e1e2 e1f2"),
    ("E7", "nimrod", "startpos", ["e2e4", "a7a6", "e4e5", "d7d5"], ["e5"], "e5d6 e5e6"),
    ("E8", "nimrod", "8/8/8/K2pP2u/8/8/8/4k3 w - d6 0 1", [], ["e5"], "e5e6"),
    ("E9 nimrod", "nimrod", "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1", [], ["b7"],
     "b7a8a b7a8h b7a8n b7a8q b7a8u b7a8w b7b8a b7b8h b7b8n b7b8q b7b8u b7b8w"),
    ("E9 dragon-nimrod", "dragon-nimrod", "w3k2u/1P4P1/8/8/8/8/1p4p1/W3K2U w - - 0 1", [], ["b7"],
     "b7a8c b7a8d b7a8f b7a8g b7a8j b7a8q b7b8c b7b8d b7b8f b7b8g b7b8j b7b8q"),
    ("E10", "dragon-nimrod", "startpos", ["b2b3", "g7g6"], ["a1"], "a1b2 a1c3 a1d4 a1e5 a1f6 a1g7 a1h8+"),
    ("E11 Knight", "dragon-nimrod", "n3k3/8/1N6/8/8/1H1A4/8/U3K2W w - - 0 1", [], ["b6"],
     "b6a4 b6a8+ b6c4 b6c8+ b6d5 b6d7"),
    ("E11 Huntress", "dragon-nimrod", "n3k3/8/1N6/8/8/1H1A4/8/U3K2W w - - 0 1", [], ["a1"],
     "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8+ a1b1 a1c1 a1d1"),
    ("E11 Hawkress", "dragon-nimrod", "n3k3/8/1N6/8/8/1H1A4/8/U3K2W w - - 0 1", [], ["h1"],
     "h1a8+ h1b7 h1c6 h1d5 h1e4 h1f1 h1f3 h1g1 h1g2"),
    ("E12 Knight", "dragon-nimrod", "4k3/8/8/8/8/8/1n4h1/4K3 b - - 0 1", [], ["b2"], "b2a4 b2c4 b2d1+ b2d3"),
    ("E12 Hunter", "dragon-nimrod", "4k3/8/8/8/8/8/1n4h1/4K3 b - - 0 1", [], ["g2"],
     "g2a8 g2b7 g2c6 g2d5 g2e4 g2f3 g2g1+ g2h3"),
    ("E13 Dragonhunter", "dragon-nimrod", "c3k2j/8/8/8/8/8/8/D3K2G w - - 0 1", [], ["a1"],
     "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1b2"),
    ("E13 Dragonhuntress", "dragon-nimrod", "c3k2j/8/8/8/8/8/8/D3K2G w - - 0 1", [], ["h1"],
     "h1f1 h1g1 h1g2 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8"),
    ("E14 nimrod-corner", "nimrod-corner", "8/1P6/2k5/8/8/5K2/6p1/8 w - - 0 1", [], ["b7"],
     "b7a7a b7a7h b7a7m b7a7n b7a7q b7a7y b7b8a b7b8h b7b8m b7b8n b7b8q b7b8y"),
    ("E14 dragon-nimrod-corner", "dragon-nimrod-corner", "8/1P6/2k5/8/8/5K2/6p1/8 w - - 0 1", [], ["b7"],
     "b7a7c b7a7d b7a7f b7a7o b7a7q b7a7z b7b8c b7b8d b7b8f b7b8o b7b8q b7b8z"),
    ("E14 Black", "nimrod-corner", "8/1P6/2k5/8/8/5K2/6p1/8 b - - 0 1", [], ["g2"],
     "g2g1a g2g1h g2g1m g2g1n g2g1q g2g1y g2h2a g2h2h g2h2m g2h2n g2h2q g2h2y"),
    ("E15 Hunter", "nimrod-corner", "k7/8/8/3h4/4H3/8/8/7K w - - 0 1", [], ["e4"],
     "e4a4 e4b4 e4c4 e4d4 e4e5 e4e6 e4e7 e4e8 e4f3 e4g2"),
    ("E15 Huntsman", "nimrod-corner", "k7/8/8/3y4/4M3/8/8/7K w - - 0 1", [], ["e4"], "e4f3 e4g2"),
    ("E15 Hawksman", "nimrod-corner", "k7/8/8/3m4/4Y3/8/8/7K w - - 0 1", [], ["e4"],
     "e4b1 e4c2 e4d3 e4d5 e4e1 e4e2 e4e3 e4f4 e4f5 e4g4 e4g6 e4h4 e4h7"),
    ("E16 Knight", "dragon-nimrod-corner", "1k6/8/8/8/1N2A3/8/5h2/7K w - - 0 1", [], ["b4"],
     "b4a2 b4a6+ b4c2 b4c6 b4d3 b4d5"),
    ("E16 Hawker", "dragon-nimrod-corner", "1k6/8/8/8/1N2A3/8/5h2/7K w - - 0 1", [], ["e4"],
     "e4a8+ e4b7 e4c6 e4d5 e4e1 e4e2 e4e3 e4f4 e4g4 e4h4"),
]

# (label, variant, FEN or "startpos", moves, expected FEN after the moves)
FEN_EXAMPLES = [
    ("E5 O-O", "nimrod", "w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1", ["e1g1"],
     "w3k2u/8/8/8/8/8/8/W4UK1 b kq - 1 1"),
    ("E5 O-O-O", "nimrod", "w3k2u/8/8/8/8/8/8/W3K2U w KQkq - 0 1", ["e1c1"],
     "w3k2u/8/8/8/8/8/8/2KW3U b kq - 1 1"),
    ("E7 e4", "nimrod", "startpos", ["e2e4"], "whnqkanu/pppppppp/8/8/4P3/8/PPPP1PPP/WHNQKANU b KQkq - 0 1"),
    ("E7 d5", "nimrod", "startpos", ["e2e4", "a7a6", "e4e5", "d7d5"],
     "whnqkanu/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/WHNQKANU w KQkq d6 0 3"),
    ("E7 exd6", "nimrod", "startpos", ["e2e4", "a7a6", "e4e5", "d7d5", "e5d6"],
     "whnqkanu/1pp1pppp/p2P4/8/8/8/PPPP1PPP/WHNQKANU b KQkq - 0 3"),
    ("E10 dragon", "dragon-nimrod", "startpos", ["b2b3", "g7g6", "a1h8+"],
     "whnqkanJ/pppppp1p/6p1/8/8/1P6/P1PPPPPP/1HNQKANU b Kq - 0 2"),
    ("E10 nimrod", "nimrod", "startpos", ["b2b3", "g7g6", "a1h8"],
     "whnqkanW/pppppp1p/6p1/8/8/1P6/P1PPPPPP/1HNQKANU b Kq - 0 2"),
]


def examples():
    """Compare the rulebook's worked examples with pyffish; return #failures."""
    failures = 0
    for label, variant, fen, before, squares, expected in MOVE_EXAMPLES:
        fen = start_fen(variant) if fen == "startpos" else fen
        got = sorted(m for m in legal_moves(variant, fen, before) if m[:2] in squares)
        ok = got == sorted(expected.split())
        failures += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {label} ({variant})")
        if not ok:
            print(f"     rulebook: {expected}\n     pyffish:  {' '.join(got)}")
    for label, variant, fen, moves, expected in FEN_EXAMPLES:
        fen = start_fen(variant) if fen == "startpos" else fen
        got = canonical_fen(variant, get_fen(variant, fen, moves))
        ok = got == expected
        failures += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {label} ({variant})")
        if not ok:
            print(f"     rulebook: {expected}\n     pyffish:  {got}")
    print(f"{failures} differences")
    return failures


# ----------------------------------------------------------------------- CLI


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("perft", help="perft with pyffish")
    p.add_argument("variant")
    p.add_argument("fen", help="FEN or 'startpos'")
    p.add_argument("depth", type=int)
    p.add_argument("--divide", action="store_true", help="print per-move counts")

    p = sub.add_parser("gen", help="write a perft suite")
    p.add_argument("variant")
    p.add_argument("--count", type=int, required=True, help="number of random positions")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--depth", type=int, default=5, help="maximum depth (default 5)")
    p.add_argument("--budget", type=int, default=4000,
                   help="pyffish legal_moves calls per position for depths beyond 3 (default 4000)")
    p.add_argument("--jobs", type=int, default=os.cpu_count())

    p = sub.add_parser("compare", help="compare an engine's legal moves with pyffish")
    p.add_argument("variant")
    p.add_argument("--engine", required=True)
    p.add_argument("--suite")
    p.add_argument("--random", type=int, default=0, metavar="N", help="number of random games")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-plies", type=int, default=150)
    p.add_argument("--perft-depth", type=int, default=0,
                   help="with --suite: also compare `go perft K` totals with the suite's ;DK")

    sub.add_parser("examples", help="check the rulebook's worked examples against pyffish")

    args = parser.parse_args()
    load()
    if args.command == "perft":
        variant = ghast_name(args.variant)
        fen = start_fen(variant) if args.fen == "startpos" else args.fen
        if args.divide:
            divide = perft_divide(variant, fen, args.depth)
            for move in sorted(divide):
                print(f"{move}: {divide[move]}")
            print(f"\nNodes searched: {sum(divide.values())}")
        else:
            for depth, n in enumerate(perft_levels(variant, fen, args.depth), 1):
                print(f"D{depth} {n}")
        return 0
    if args.command == "gen":
        gen(ghast_name(args.variant), args.count, args.seed, args.out, args.depth, args.budget, args.jobs)
        return 0
    if args.command == "compare":
        if not args.suite and not args.random:
            parser.error("compare needs --suite FILE and/or --random N")
        return compare(ghast_name(args.variant), args.engine, args.suite, args.random, args.seed,
                       args.max_plies, args.perft_depth)
    return 1 if examples() else 0


if __name__ == "__main__":
    sys.exit(main())
