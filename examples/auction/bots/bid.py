#!/usr/bin/env python3
"""An Auction strategy in the style of the Fibot 4 samples: a starting point.

Run once per round as `bid.py <game> <letter>` in the folder that holds
<game>/ (see shared/games/auction.md). It reads <game>/state and <game>/log,
prints one bid and exits.

The idea: a region grows from its cells' neighbours, so a cell next to one
we own is worth a lot, a cell next to nobody's is worth a little, and a cell
an opponent has surrounded is worth nothing. The price that wins lately is
read from the log (the "sold" lines), and the bid is pitched against it.

Standard library only. Randomness is seeded from ARBITER_SEED, the letter
and the round, so that a match replays exactly.
"""

import os
import random
import sys


def read_state(path):
    with open(path) as f:
        lines = f.read().split("\n")
    players, cols, rows = map(int, lines[0].split())
    board = lines[1:1 + rows]
    capital = {}
    for line in lines[1 + rows:1 + rows + players]:
        letter, money = line.split()
        capital[letter] = int(money)
    queue = []
    for item in lines[1 + rows + players].split():
        c, r = item.strip("[];").split(",")
        queue.append((int(c) - 1, int(r) - 1))  # 0-based
    return players, cols, rows, board, capital, queue


def recent_prices(path, last=5):
    """The prices of the last few sales, from lines 'sold [c,r] X price'."""
    prices = []
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("sold "):
                    prices.append(int(line.split()[3]))
    except FileNotFoundError:
        pass
    return prices[-last:]


def main():
    game, me = sys.argv[1], sys.argv[2]
    players, cols, rows, board, capital, queue = read_state(os.path.join(game, "state"))
    prices = recent_prices(os.path.join(game, "log"))
    rnd = random.Random(f"{os.environ.get('ARBITER_SEED', '')} {me} {len(queue)} {len(prices)}")

    col, row = queue[0]
    mine = theirs = 0
    for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        c, r = col + dc, row + dr
        if 0 <= c < cols and 0 <= r < rows:
            if board[r][c] == me:
                mine += 1
            elif board[r][c] != ".":
                theirs += 1

    money = capital[me]
    fair = money * players / max(len(queue), 1)  # spend evenly over our share of cells
    if prices:
        fair = max(fair, sum(prices) / len(prices))
    if mine:
        bid = fair * (1.5 + 0.5 * mine)
    elif theirs >= 2:
        bid = 0
    else:
        bid = fair * rnd.uniform(0.6, 1.0)
    print(max(0, min(int(bid), money)))


if __name__ == "__main__":
    main()
