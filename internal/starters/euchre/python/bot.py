#!/usr/bin/env python3
"""A Euchre starter bot: passes, never goes alone, plays its first legal card.

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

lines = sys.stdin.read().split("\n") + [""] * 8
hand = [c for c in lines[0].split(",") if c]
phase = lines[3].strip()
if phase in ("ordering", "naming"):
    print("p")
elif phase == "discard":
    print(hand[0])
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
