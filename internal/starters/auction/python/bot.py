#!/usr/bin/env python3
"""An Auction starter strategy: bids its capital shared over the cells left.

Run once per round as: bot.py <game> <letter>, in the folder that holds
<game>/. It reads <game>/state, prints one whole number from 0 to its
capital, and exits. See README.md.
"""
import sys

game, letter = sys.argv[1], sys.argv[2]
with open(game + "/state") as f:
    lines = f.read().split("\n")
players, cols, rows = map(int, lines[0].split())
capital = 0
for line in lines[1 + rows:1 + rows + players]:
    who, money = line.split()
    if who == letter:
        capital = int(money)
cells_left = max(1, lines[1 + rows + players].count(";"))
print(capital // cells_left)
