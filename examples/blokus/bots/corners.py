#!/usr/bin/env python3
"""A Blokus bot that speaks arbiter's protocol (blokus.md) directly.

It keeps the board from the play commands, lists its legal placements from
the corners of its stones, and places the biggest stone where it leaves the
most corners of its own; ties are broken by a generator seeded from
ARBITER_SEED and ARBITER_SEAT, so a match replays exactly.
"""

import os
import random
import sys


def normalise(cells):
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def rotations(cells):
    out, cur = [], normalise(cells)
    for _ in range(4):
        if cur not in out:
            out.append(cur)
        cur = normalise([(-y, x) for x, y in cur])
    return out


class Game:
    def __init__(self):
        self.rows = self.cols = 0
        self.me = 1
        self.stones = []
        self.used = []
        self.board = []  # 0 free, 1 or 2 a player's, 3 filled
        self.rng = random.Random(os.environ.get("ARBITER_SEED", "0") + "/" + os.environ.get("ARBITER_SEAT", "0"))

    def reset(self):
        self.board = [[0] * self.cols for _ in range(self.rows)]
        self.used = [False] * len(self.stones)

    def on(self, r, c):
        return 0 <= r < self.rows and 0 <= c < self.cols

    def owned(self, r, c, p):
        return self.on(r, c) and self.board[r][c] == p

    def edge_ok(self, r, c, p):
        return not any(self.owned(r + dr, c + dc, p) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    def corners(self, p):
        if not any(p in row for row in self.board):
            r, c = (self.rows - 1, 0) if p == 1 else (0, self.cols - 1)
            return [(r, c)] if self.board[r][c] == 0 else []
        return [(r, c) for r in range(self.rows) for c in range(self.cols)
                if self.board[r][c] == 0 and self.edge_ok(r, c, p)
                and any(self.owned(r + dr, c + dc, p) for dr in (-1, 1) for dc in (-1, 1))]

    def moves(self, p):
        out, seen = [], set()
        corners = self.corners(p)
        for i, rots in enumerate(self.rotations):
            if self.used[i]:
                continue
            for rot in rots:
                for cr, cc in corners:
                    for ax, ay in rot:
                        cells = tuple(sorted((cr - ay + y, cc - ax + x) for x, y in rot))
                        if (i, cells) in seen:
                            continue
                        seen.add((i, cells))
                        if all(self.on(r, c) and self.board[r][c] == 0 and self.edge_ok(r, c, p) for r, c in cells):
                            out.append((i, cells))
        return out

    def place(self, p, cells):
        for r, c in cells:
            self.board[r][c] = p
        if p == self.me:
            shape = normalise([(c, r) for r, c in cells])
            for i, rots in enumerate(self.rotations):
                if not self.used[i] and shape in rots:
                    self.used[i] = True
                    break

    def new_corners(self, cells):
        """The corners a placement opens for its owner: free cells diagonal
        to it and along no edge of it or of the owner's other stones."""
        placed = set(cells)
        out = set()
        for r, c in cells:
            for dr in (-1, 1):
                for dc in (-1, 1):
                    q = (r + dr, c + dc)
                    if q in placed or not self.on(*q) or self.board[q[0]][q[1]] != 0:
                        continue
                    if any((q[0] + er, q[1] + ec) in placed for er, ec in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                        continue
                    if self.edge_ok(q[0], q[1], self.me):
                        out.add(q)
        return len(out)

    def gen_move(self):
        moves = self.moves(self.me)
        if not moves:
            return "pass"
        best, best_value = [], None
        for i, cells in moves:
            v = (len(cells), self.new_corners(cells))
            if best_value is None or v > best_value:
                best, best_value = [cells], v
            elif v == best_value:
                best.append(cells)
        cells = self.rng.choice(best)
        return " ".join("%d,%d" % rc for rc in cells)


def main():
    g = Game()
    out = sys.stdout
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        cmd, args, answer, ok = f[0], f[1:], "", True
        if cmd == "set_board":
            g.rows, g.cols = int(args[0]), int(args[1])
            g.reset()
        elif cmd == "set_player":
            g.me = int(args[0])
        elif cmd == "set_stones":
            g.stones = [[tuple(int(v) for v in xy.split(",")) for xy in s.split(";")] for s in args[1:]]
            g.rotations = [rotations(s) for s in g.stones]
            g.reset()
        elif cmd == "set_blocked":
            for rc in args[1:]:
                r, c = map(int, rc.split(","))
                g.board[r][c] = 3
        elif cmd == "play":
            if args[1] != "pass":
                g.place(int(args[0]), [tuple(map(int, rc.split(","))) for rc in args[1:]])
        elif cmd == "gen_move":
            answer = g.gen_move()
        elif cmd not in ("time_left", "quit"):
            ok, answer = False, "unknown command " + cmd
        out.write(("= " if ok else "? ") + answer + "\n\n" if answer else ("=" if ok else "?") + "\n\n")
        out.flush()
        if cmd == "quit":
            break


if __name__ == "__main__":
    main()
