#!/usr/bin/env python3
"""A Bricks starter bot: places the first domino that fits, in reading order.

One message per line: the board ("7_2x3_4x5": size, then filled cells
column x row), answered OK; then START or the opponent's move, answered
with a move "AxB_CxD"; STOP ends the game. See README.md.
"""
import sys

size, filled = 0, set()

def mark(move):
    for cell in move.split("_"):
        x, y = cell.split("x")
        filled.add((int(x), int(y)))

def free(x, y):
    return 0 <= x < size and 0 <= y < size and (x, y) not in filled

def choose():
    for y in range(size):
        for x in range(size):
            if free(x, y):
                for x2, y2 in ((x + 1, y), (x, y + 1)):
                    if free(x2, y2):
                        return "%dx%d_%dx%d" % (x, y, x2, y2)
    return "0x0_0x1"  # no domino fits; the referee never asks then

for line in sys.stdin:
    line = line.strip()
    if line == "STOP":
        break
    if "x" not in line.split("_")[0] and line[0].isdigit():
        parts = line.split("_")  # the board
        size, filled = int(parts[0]), set()
        for cell in parts[1:]:
            x, y = cell.split("x")
            filled.add((int(x), int(y)))
        answer = "OK"
    else:
        if line != "START":
            mark(line)
        answer = choose()
        mark(answer)
    print(answer, flush=True)
