#!/usr/bin/env python3
"""Turn `ghast match` games into tuning data labelled by one player's scores.

Reads PGN files written by `ghast match --pgnout` (each move followed by a
`{score/depth time}` comment, the score from the mover's view) and writes a
data file in `ghast datagen`'s format (README "Tuning"): one line per
position where the player named by `--label` was to move, with the soft
target

    target = lambda * sigmoid(k * score) + (1 - lambda) * result

where score is that player's search score in centipawns from White's view.
The score and the game's result follow as a fourth field, as
`tuning/label.py` writes them, so `label.py --reblend` can make another
blend. Positions are replayed with a ghast binary (its UCI `d` command
gives the FEN and the checkers).

A position is kept when its side to move is not in check, the move played
from it and the move before it captured nothing (the static evaluation of a
position in the middle of an exchange says little), its score is no mate,
and at least `--min-ply` plies of the game came before it. Each game ends
with a `# game` line, so `ghast tune --validation` holds out whole games.

The default lambda is 1: in games between two engines the result says more
about the players than about a position (the stronger side wins from
either colour), so the reference's score alone is the target.

Example (README, "Tuning"): positions from games against
Fairy-Stockfish, labelled by Fairy-Stockfish's own scores:
    tuning/pgn2data.py --ghast target/release/ghast --variant nimrod \\
        --label fsf --out fsf-games.data games1.pgn games2.pgn
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from label import Engine, sigmoid, white_to_move  # noqa: E402  (the same UCI client)

MATE_TOKEN = re.compile(r"[#M]")
COMMENT = re.compile(r"([+-]?[\d.]+|[+-]?[#M]-?\d+)/(\d+)")
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


class Replayer(Engine):
    """A ghast UCI process that reports the FEN and checkers of a position."""

    def __init__(self, exe, variant):
        super().__init__(exe, [], variant)

    def wait_for(self, token):
        """The first line starting with `token`; ghast's error replies
        (an unplayable move, say) end the run with their message."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("ghast exited")
            if line.startswith("info string error"):
                raise RuntimeError(line.strip())
            if line.split()[:1] == [token]:
                return line

    def describe(self, fen, moves):
        """(FEN, in check?) after `moves` from `fen`."""
        self.send(f"position fen {fen} moves {' '.join(moves)}".rstrip())
        self.send("d")
        line = self.wait_for("Fen:")
        checkers = self.wait_for("Checkers:")
        return line.split(":", 1)[1].strip(), bool(checkers.split(":", 1)[1].strip())


def read_inputs(ghast, paths):
    """The texts of the PGN files at `paths`; a `ghast` that is no
    executable or a file that cannot be read ends the run with a message."""
    if shutil.which(ghast) is None:
        sys.exit(f"error: --ghast '{ghast}' is not an executable")
    texts = []
    for path in paths:
        try:
            with open(path) as f:
                texts.append(f.read())
        except OSError as e:
            sys.exit(f"error: {e}")
    return texts


def close_quietly(replayer):
    try:
        replayer.close()
    except (OSError, subprocess.TimeoutExpired):
        pass  # ghast already gone: the caller's error says why


def piece_count(fen):
    return sum(c.isalpha() for c in fen.split()[0])


def games(text):
    """(tags, [(move, score_cp or None for mates/missing)]) per game."""
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        moves = []
        for move, comment in re.findall(r"(\S+) \{([^}]*)\}", body):
            m = COMMENT.match(comment)
            score = None
            if m and not MATE_TOKEN.search(m.group(1)):
                score = round(float(m.group(1)) * 100)
            moves.append((move, score))
        yield tags, moves


def positions_of(tags, moves, replayer, args):
    """The kept lines of one game: the labelled player's positions, and the
    other player's with the game's result as the target."""
    result = RESULTS.get(tags.get("Result"))
    fen0 = tags.get("FEN")
    if result is None or fen0 is None:
        return [], []
    played = [m for m, _ in moves]
    states = [replayer.describe(fen0, played[:i]) for i in range(len(played) + 1)]
    counts = [piece_count(f) for f, _ in states]
    white0 = white_to_move(fen0)
    lines, others = [], []
    for i, (_, score) in enumerate(moves):
        fen, in_check = states[i]
        white = white0 == (i % 2 == 0)
        mover = tags.get("White") if white else tags.get("Black")
        quiet = counts[i + 1] == counts[i] and (i == 0 or counts[i - 1] == counts[i])
        if in_check or not quiet or i < args.min_ply:
            continue
        if mover != args.label:
            others.append(f"{fen} | {result:.1f} | 0")
            continue
        if score is None:
            continue
        score_white = score if white else -score
        target = args.weight * sigmoid(args.k * score_white) + (1 - args.weight) * result
        lines.append(f"{fen} | {target:.4f} | 0 | ref={score_white} result={result}")
    return lines, others


def write_game(out, lines, n, result, plies):
    for ln in lines:
        out.write(ln + "\n")
    out.write(f"# game {n} {result} {plies} pgn\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pgn", nargs="+", help="PGN files of `ghast match`")
    p.add_argument("--ghast", required=True, help="ghast binary (replays the moves)")
    p.add_argument("--variant", required=True)
    p.add_argument("--label", required=True, help="player whose scores label the positions")
    p.add_argument("--out", required=True)
    p.add_argument("--others", help="also write the other player's positions here, "
                   "with the game's result as the target, for tuning/label.py")
    p.add_argument("--min-ply", type=int, default=4)
    p.add_argument("--lambda", dest="weight", type=float, default=1.0,
                   help="weight of the score in the target (the rest: the result)")
    p.add_argument("--k", type=float, default=0.004246,
                   help="sigmoid scale of the score (per cp), as tuning/label.py")
    args = p.parse_args()
    if not 0.0 <= args.weight <= 1.0:
        sys.exit("error: --lambda must be in [0, 1]")
    texts = read_inputs(args.ghast, args.pgn)
    replayer = Replayer(args.ghast, args.variant)
    n_games = n_pos = n_other = 0
    try:
        with open(args.out, "w") as out, open(args.others or "/dev/null", "w") as other:
            for text in texts:
                for tags, moves in games(text):
                    lines, others = positions_of(tags, moves, replayer, args)
                    result = RESULTS.get(tags.get("Result"), 0.5)
                    write_game(out, lines, n_games, result, len(moves))
                    write_game(other, others, n_games, result, len(moves))
                    n_games += 1
                    n_pos += len(lines)
                    n_other += len(others)
                    print(f"\r{n_games} games, {n_pos} positions", end="", file=sys.stderr)
    except (RuntimeError, OSError) as e:
        sys.exit(f"\nerror: {e}")
    finally:
        close_quietly(replayer)
    print(file=sys.stderr)
    print(f"wrote {n_pos} positions of {n_games} games to {args.out}")
    if args.others:
        print(f"wrote {n_other} positions of the other player to {args.others}")


if __name__ == "__main__":
    main()
