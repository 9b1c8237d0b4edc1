#!/usr/bin/env python3
"""Label `ghast datagen` positions with a reference engine's search score.

Reads a data file ('<fen> | <result> | <eval>' lines, README "Tuning"),
asks a UCI engine (Fairy-Stockfish, say) for its score of every position at
a fixed depth, and writes the same lines with a soft target

    target = lambda * sigmoid(k * score) + (1 - lambda) * result

where score is the engine's score in centipawns from White's view (mates
count as +-MATE_CP). The engine's score and the game's result follow as a
fourth field, which `ghast tune` ignores, so another blend needs no new
search (`--reblend`). Comment lines are copied. A progress line goes to
stderr, a summary at the end.

Example (README, "Tuning"):
    tuning/label.py --engine target/fsf/fairy-stockfish \
        --option VariantPath=tests/oracle/variants.ini --variant nimrod \
        --depth 9 --jobs 2 --data nimrod.data --out nimrod.fsf.data
"""

import argparse
import math
import multiprocessing
import shutil
import subprocess
import sys
import time

MATE_CP = 2000  # a mate is "certainly won": sigmoid(k * 2000) is about 1
PROGRESS_EVERY = 2000


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


class Engine:
    """A UCI engine process, one position at a time."""

    def __init__(self, cmd, options, variant):
        self.proc = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        if variant:
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait_for(self, token):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.split()[:1] == [token]:
                return line

    def score(self, fen, depth):
        """Side-to-move score in centipawns, or None when none was given."""
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        score = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            words = line.split()
            if words[:1] == ["bestmove"]:
                return score
            if "score" in words and "upperbound" not in words \
                    and "lowerbound" not in words:
                i = words.index("score")
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "cp":
                    score = value
                else:
                    score = MATE_CP if value > 0 else -MATE_CP

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def white_to_move(fen):
    fields = fen.split()
    return len(fields) < 2 or fields[1] in ("w", "a")


def blend(score_white, result, k, weight):
    return weight * sigmoid(k * score_white) + (1.0 - weight) * result


def labelled_line(fen, ev, score_white, result, args):
    target = blend(score_white, result, args.k, args.weight)
    return f"{fen} | {target:.4f} | {ev} | ref={score_white} result={result}"


def parse(line):
    fields = [f.strip() for f in line.split("|")]
    return fields[0], float(fields[1]), fields[2] if len(fields) > 2 else "0"


_ENGINE = None
_ARGS = None


def worker_init(args):
    global _ENGINE, _ARGS
    _ARGS = args
    _ENGINE = Engine(args.engine, args.options, args.variant)


def label(line):
    fen, result, ev = parse(line)
    score = _ENGINE.score(fen, _ARGS.depth)
    if score is None:
        return None
    score_white = score if white_to_move(fen) else -score
    return labelled_line(fen, ev, score_white, result, _ARGS)


def reblend(line, args):
    fen, _, ev = parse(line)
    extra = dict(kv.split("=") for kv in line.split("|")[3].split())
    score_white, result = int(extra["ref"]), float(extra["result"])
    return labelled_line(fen, ev, score_white, result, args)


def check_lines(lines, args):
    """Exits with the first malformed line's number rather than a trace."""
    for n, ln in enumerate(lines, 1):
        if ln.startswith("#") or not ln.strip():
            continue
        try:
            reblend(ln, args) if args.reblend else parse(ln)
        except (IndexError, KeyError, ValueError):
            sys.exit(f"error: {args.data}: line {n}: '{ln[:80]}' is not a "
                     + ("labelled" if args.reblend else "datagen") + " line")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engine", help="UCI engine binary")
    p.add_argument("--option", action="append", default=[],
                   help="NAME=VALUE, sent with setoption (repeatable)")
    p.add_argument("--variant", help="UCI_Variant to set")
    p.add_argument("--depth", type=int, default=9)
    p.add_argument("--jobs", type=int, default=2, help="engine processes")
    p.add_argument("--data", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--lambda", dest="weight", type=float, default=0.75,
                   help="weight of the engine's score in the target")
    p.add_argument("--k", type=float, default=0.004246,
                   help="sigmoid scale of the engine's score (per cp)")
    p.add_argument("--reblend", action="store_true",
                   help="DATA is a labelled file: recompute the targets only")
    args = p.parse_args()
    if not 0.0 <= args.weight <= 1.0:
        sys.exit("error: --lambda must be in [0, 1]")
    args.options = []
    for opt in args.option:
        name, sep, value = opt.partition("=")
        if not sep:
            sys.exit(f"error: --option '{opt}' is not NAME=VALUE")
        args.options.append((name, value))
    if not args.reblend and not args.engine:
        sys.exit("error: --engine is required (or --reblend)")
    try:
        with open(args.data) as f:
            lines = [line.rstrip("\n") for line in f]
    except OSError as e:
        sys.exit(f"error: {e}")
    check_lines(lines, args)
    if not args.reblend and shutil.which(args.engine) is None:
        sys.exit(f"error: --engine '{args.engine}' is not an executable")
    positions = [ln for ln in lines if ln.strip() and not ln.startswith("#")]
    if args.reblend:
        with open(args.out, "w") as out:
            for ln in lines:
                out.write((ln if ln.startswith("#") or not ln.strip()
                           else reblend(ln, args)) + "\n")
        print(f"reblended {len(positions)} positions into {args.out}")
        return
    start = time.time()
    done = skipped = 0
    with multiprocessing.Pool(args.jobs, worker_init, (args,)) as pool, \
            open(args.out, "w") as out:
        results = pool.imap(label, positions, chunksize=64)
        for ln in lines:
            if ln.startswith("#") or not ln.strip():
                out.write(ln + "\n")
                continue
            labelled = next(results)
            done += 1
            if labelled is None:
                skipped += 1
            else:
                out.write(labelled + "\n")
            if done % PROGRESS_EVERY == 0:
                rate = done / (time.time() - start)
                eta = (len(positions) - done) / rate
                print(f"labelled {done}/{len(positions)} {rate:.0f}/s "
                      f"eta {eta:.0f}s", file=sys.stderr, flush=True)
    print(f"labelled {done - skipped} positions ({skipped} without a score)"
          f" at depth {args.depth} in {time.time() - start:.0f}s "
          f"into {args.out}")


if __name__ == "__main__":
    main()
