#!/usr/bin/env python3
"""A Planowanie starter bot: declares 0 and plays the first card it may.

The referee sends one command per line; every command gets an answer
"= text" (or "? error") followed by an empty line. See README.md.
"""
import sys

players, me = 4, 0
hand = []    # the cards this bot holds, like "TD"
in_trick = 0 # cards laid in the current trick
led = None   # the suit led in the current trick

for line in sys.stdin:
    f = line.split()
    if not f:
        continue  # empty lines must be ignored
    cmd, args = f[0], f[1:]
    answer, ok = "", True
    if cmd == "set_players":
        players, me = int(args[0]), int(args[1])
    elif cmd == "set_cards":
        hand, in_trick, led = args[1:], 0, None
    elif cmd == "play":
        seat, card = int(args[0]), args[1]
        if seat == me and card in hand:
            hand.remove(card)
        if in_trick == 0:
            led = card[1]
        in_trick = (in_trick + 1) % players
    elif cmd == "gen_declare":
        answer = "0"
    elif cmd == "gen_move":
        follow = [c for c in hand if in_trick > 0 and c[1] == led]
        answer = (follow or hand)[0]
    elif cmd not in ("set_deck", "set_game", "declare", "time_left", "quit"):
        answer, ok = "unknown command " + cmd, False
    sys.stdout.write(("= " if ok else "? ") + answer + "\n\n" if answer else "=\n\n")
    sys.stdout.flush()
    if cmd == "quit":
        break
