#!/usr/bin/env python3
"""A Euchre starter bot: orders up or names a suit when it holds three
trumps (and, as dealer, orders when the three others passed, so that a hand
is played rather than thrown in), never goes alone, discards a card that is
not trump, and plays its first legal card.

Run once per decision, with the decision on standard input: hand, points,
tricks, phase, then the phase's lines. It prints one answer line and
exits. See README.md.
"""
import sys

SISTER = {"c": "s", "s": "c", "h": "d", "d": "h"}

def suit(card, trump):
    """The suit a card follows: the left bower (the other jack of trump's
    colour) is a trump."""
    if card[0] == "j" and card[1] == SISTER[trump]:
        return trump
    return card[1]

def trumps(hand, trump):
    return sum(1 for c in hand if suit(c, trump) == trump)

lines = sys.stdin.read().split("\n") + [""] * 8
hand = [c for c in lines[0].split(",") if c]
phase = lines[3].strip()
if phase == "ordering":
    upcard = lines[4].strip()
    before = [d for d in lines[5].strip().split(",") if d]
    # The dealer speaks last: with three passes before it, it orders.
    print("o" if trumps(hand, upcard[1]) >= 3 or len(before) == 3 else "p")
elif phase == "naming":
    # A suit it holds three of cannot be the turned-down one: it would
    # have ordered that up.
    best = max("cshd", key=lambda s: trumps(hand, s))
    print(best if trumps(hand, best) >= 3 else "p")
elif phase == "discard":
    trump = lines[4].strip()[1]
    print(next((c for c in hand if suit(c, trump) != trump), hand[0]))
elif phase == "alone":
    print("n")
elif phase == "turn":
    trump = lines[4].strip()
    played = [c for c in lines[5].strip().split(",") if c and c != "p"]
    legal = hand
    if played:
        led = suit(played[0], trump)
        legal = [c for c in hand if suit(c, trump) == led] or hand
    print(legal[0])
# phase "trick": nothing to answer
