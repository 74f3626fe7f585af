#!/usr/bin/env python3
"""A Blokus starter bot: places the first stone that fits, or passes.

The referee sends one command per line; every command gets an answer
"= text" (or "? error") followed by an empty line. Cells are "row,col";
a stone in set_stones is "x,y;x,y;..." (x the column). See README.md.
"""
import sys

rows, cols, me = 0, 0, 1
board = {}      # (row, col) -> 1 or 2 (a player), -1 (blocked)
stones, used = [], []

def rotations(cells):
    out = []
    for _ in range(4):
        cells = [(-y, x) for x, y in cells]  # a quarter turn
        mx, my = min(x for x, _ in cells), min(y for _, y in cells)
        out.append([(x - mx, y - my) for x, y in cells])
    return out

def legal(cells, first):
    start = (rows - 1, 0) if me == 1 else (0, cols - 1)
    corner = False
    for r, c in cells:
        if not (0 <= r < rows and 0 <= c < cols) or (r, c) in board:
            return False
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if board.get((r + dr, c + dc)) == me:
                return False
        for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            corner = corner or board.get((r + dr, c + dc)) == me
    return start in cells if first else corner

def gen_move():
    first = me not in board.values()
    for i, stone in enumerate(stones):
        if used[i]:
            continue
        for rot in rotations(stone):
            for r0 in range(rows):
                for c0 in range(cols):
                    cells = [(r0 + y, c0 + x) for x, y in rot]
                    if legal(cells, first):
                        used[i] = True
                        return " ".join("%d,%d" % rc for rc in cells)
    return "pass"

for line in sys.stdin:
    f = line.split()
    if not f:
        continue
    cmd, args = f[0], f[1:]
    answer, ok = "", True
    if cmd == "set_board":
        rows, cols, board = int(args[0]), int(args[1]), {}
    elif cmd == "set_player":
        me = int(args[0])
    elif cmd == "set_stones":
        stones = [[tuple(map(int, p.split(","))) for p in s.split(";")] for s in args[1:]]
        used = [False] * len(stones)
    elif cmd == "set_blocked":
        for cell in args[1:]:
            r, c = map(int, cell.split(","))
            board[(r, c)] = -1
    elif cmd == "play":
        for cell in args[1:]:
            if cell != "pass":
                r, c = map(int, cell.split(","))
                board[(r, c)] = int(args[0])
    elif cmd == "gen_move":
        answer = gen_move()
    elif cmd not in ("time_left", "quit"):
        answer, ok = "unknown command " + cmd, False
    sys.stdout.write(("= " if ok else "? ") + answer + "\n\n" if answer else "=\n\n")
    sys.stdout.flush()
    if cmd == "quit":
        break
