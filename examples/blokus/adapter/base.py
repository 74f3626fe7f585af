"""The BasePlayer of the CTU Prague course B3B33ALP Blokus, for arbiter.

A course player is a class Player(BasePlayer) in player.py. arbiter runs it
through blokus_adapter.py, which constructs it and calls its methods; the
player never sees the protocol. Do not change this class in a player: the
adapter relies on it.

The API (as in the course):

    Player(name, rows, cols, which, stones)
        name    str, the player's name (the bot's name in the tournament)
        rows    number of rows of the board
        cols    number of columns
        which   1 for player 1 (starts in the bottom-left corner,
                cell [rows-1, 0]), -1 for player 2 (top-right, [0, cols-1])
        stones  list of stones; a stone is a list of [x, y] cells, x the
                column offset and y the row offset. Normalise them yourself
                (e.g. shift so that the least x and y are 0) and rotate
                them as you need: mirroring is not allowed.

    self.board  rows x cols list of lists: board[r][c] is 0 when the cell is
                free, self.which on your cells, -self.which on the
                opponent's, and 2 on cells the tournament filled beforehand
                (no one may cover them; the course's boards had none).
    self.which, self.stones, self.name, self.rows, self.cols as given.
    self.text   a string you fill with your program's name and version.
    print()     prints the board with coordinates (to stderr under arbiter:
                stdout carries the protocol).
    getScore(which)  the number of cells of the stones player `which` has
                not placed yet (lower is better).
    update(other)    writes the opponent's cells (a list of [row, col],
                empty when it passed) into self.board.
    move()      yours to write: return the cells of the stone you place as
                a list of [row, col], and write them into self.board with
                self.which; return [] only when no stone can be placed.

loadStones(filename) reads a stones file: one stone per line, whitespace
separated integers x1 y1 x2 y2 ..., '#' starting a comment.
"""

import sys

FILLED = 2


class BasePlayer:
    def __init__(self, name, rows, cols, which, stones):
        self.name = name
        self.rows = rows
        self.cols = cols
        self.which = which
        self.stones = stones
        self.text = ""
        self.board = [[0] * cols for _ in range(rows)]

    def print(self):
        out = sys.stdout
        out.write("    " + "".join("{:3d}".format(c) for c in range(self.cols)) + "\n")
        for r in range(self.rows):
            row = "".join("{:>3}".format({0: ".", 1: "X", -1: "O", FILLED: "#"}.get(v, "?"))
                          for v in self.board[r])
            out.write("{:3d} ".format(r) + row + "\n")

    def getScore(self, which):
        total = sum(len(s) for s in self.stones)
        placed = sum(row.count(which) for row in self.board)
        return total - placed

    def update(self, other):
        for cell in other:
            r, c = cell[0], cell[1]
            self.board[r][c] = -self.which


def loadStones(filename):
    stones = []
    # utf-8-sig: a file saved by Notepad starts with a byte order mark,
    # which int() would refuse as part of the first number.
    with open(filename, encoding="utf-8-sig") as f:
        for line in f:
            nums = [int(v) for v in line.split("#", 1)[0].split()]
            if nums:
                stones.append([[nums[i], nums[i + 1]] for i in range(0, len(nums) - 1, 2)])
    return stones
