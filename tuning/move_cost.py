#!/usr/bin/env python3
"""What a reference engine thinks each kind of move costs its opponents.

Reads PGN files written by `ghast match --pgnout` (each move followed by a
`{score/depth time}` comment, the score from the mover's view) from games
of the Nimrod family in which the player named by `--judge` (Fairy-Stockfish,
say) took part. Each move of the other player is charged what it cost in
the judge's eyes: the judge's score at its next move less its score at the
move before (both from the judge's view). The judge's own move in between
is part of that, but a stronger judge seldom loses by its own moves, so
over many moves the mean is the other player's loss.

A move is counted when both scores lie within `--within` pawns and neither
is a mate, and its ply (from the opening position) is in `--plies`. Moves
are grouped by the kind of piece moved (the FEN letter, lower case), with
`x` for a capture and `castle` for a King's two-file step. Positions are
replayed with a ghast binary (its UCI `d` command gives the FEN).

Also printed: both players' scores, each from the other player's side,
averaged over every four plies, which shows where the views part.

Example (README, "Strength", session 32):
    tuning/move_cost.py --ghast target/release/ghast --variant nimrod \\
        --judge fsf --plies 0:60 games.pgn
"""

import argparse
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn2data import Replayer, close_quietly, games, read_inputs  # noqa: E402

SQUARE_MOVE = re.compile(r"^([a-h])([1-8])([a-h])([1-8])")
VIEW_BUCKET = 4
VIEW_BUCKETS = 10


def board_of(fen):
    """{(file, rank): letter} of a FEN's board part (8x8)."""
    board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 7 - r)] = ch
                f += 1
    return board


def kind_of(fen, move):
    """The group of `move` in the position `fen`, or None if unparsable."""
    m = SQUARE_MOVE.match(move)
    if not m:
        return None
    src = (ord(m.group(1)) - 97, int(m.group(2)) - 1)
    dst = (ord(m.group(3)) - 97, int(m.group(4)) - 1)
    board = board_of(fen)
    piece = board.get(src, "?").lower()
    if piece == "k" and abs(dst[0] - src[0]) == 2:
        return "castle"
    return piece + ("x" if dst in board else "")


def charge_game(tags, moves, replayer, args, costs, views):
    judge = args.judge
    white, black = tags.get("White"), tags.get("Black")
    fen0 = tags.get("FEN")
    if judge not in (white, black) or fen0 is None:
        return False
    other = black if white == judge else white
    lo, hi = args.plies
    white_first = fen0.split()[1] == "w"
    judge_first = (white == judge) == white_first
    played = [m for m, _ in moves]
    last_judge, pending = None, None
    for i, (move, score) in enumerate(moves[:hi]):
        judge_moves = (i % 2 == 0) == judge_first
        if i // VIEW_BUCKET < VIEW_BUCKETS and score is not None:
            # Each player's score from the other player's side.
            side = -score if judge_moves else score
            views[other][(i // VIEW_BUCKET, judge_moves)].append(side / 100)
        if judge_moves:
            fine = score is not None and abs(score) <= args.within * 100
            if fine and last_judge is not None and pending is not None:
                costs[other][pending].append((score - last_judge) / 100)
            last_judge = score if fine else None
            pending = None
        elif i >= lo:
            fen, _ = replayer.describe(fen0, played[:i])
            pending = kind_of(fen, move)
    return True


def report(costs, views):
    for player in sorted(costs):
        total = sum(sum(v) for v in costs[player].values())
        count = sum(len(v) for v in costs[player].values())
        print(f"{player}: {count} moves, mean cost {total / max(count, 1):+.3f} pawns")
        rows = sorted(costs[player].items(), key=lambda kv: -len(kv[1]))
        for kind, v in rows:
            # A share says something only where the moves cost in all.
            share = f"{100 * sum(v) / total:5.1f} %" if total > 0 else "  -"
            print(f"  {kind:7} {len(v):6}  mean {sum(v) / len(v):+.3f}  share {share}")
        print(f"  scores from {player}'s side, mean by plies: {player} / judge")
        for b in range(VIEW_BUCKETS):
            own, judge = views[player][(b, False)], views[player][(b, True)]
            if own and judge:
                print(f"  plies {b * VIEW_BUCKET:2}-{b * VIEW_BUCKET + VIEW_BUCKET - 1:2}"
                      f"  {sum(own) / len(own):+.2f} / {sum(judge) / len(judge):+.2f}")


def plies_range(text):
    lo, sep, hi = text.partition(":")
    try:
        lo, hi = int(lo), int(hi)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not LO:HI") from None
    if not sep or lo < 0 or hi <= lo:
        raise argparse.ArgumentTypeError(f"'{text}' is not LO:HI with 0 <= LO < HI")
    return lo, hi


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pgn", nargs="+", help="PGN files of `ghast match`")
    p.add_argument("--ghast", required=True, help="ghast binary (replays the moves)")
    p.add_argument("--variant", default="nimrod", help="a variant of the Nimrod family")
    p.add_argument("--judge", required=True, help="the player whose scores judge")
    p.add_argument("--plies", type=plies_range, default=(0, 60), help="LO:HI, plies counted")
    p.add_argument("--within", type=float, default=4.0, help="pawns; larger scores are left out")
    args = p.parse_args()
    if not args.within > 0:
        sys.exit("error: --within must be a positive number of pawns")
    texts = read_inputs(args.ghast, args.pgn)
    costs = defaultdict(lambda: defaultdict(list))
    views = defaultdict(lambda: defaultdict(list))
    replayer = Replayer(args.ghast, args.variant)
    n = 0
    try:
        for text in texts:
            for tags, moves in games(text):
                n += charge_game(tags, moves, replayer, args, costs, views)
                print(f"\r{n} games", end="", file=sys.stderr)
    except (RuntimeError, OSError) as e:
        sys.exit(f"\nerror: {e}")
    finally:
        close_quietly(replayer)
    print(file=sys.stderr)
    if n == 0:
        sys.exit(f"error: no game with a player named '{args.judge}'")
    report(costs, views)


if __name__ == "__main__":
    main()
