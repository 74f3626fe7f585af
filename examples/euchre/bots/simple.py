#!/usr/bin/env python3
"""A simple Euchre bot: a readable starting point for your own.

arbiter starts it afresh for every decision, with its own folder as the
working directory; it reads the input lines on stdin (see
shared/games/euchre.md) and prints one answer. It keeps one small file,
memory.txt, between runs: the upcard of the hand, so that in the naming
round it never names the turned-down suit.

It orders or names a suit in which it holds three trumps (two with --bold),
picks up by throwing its lowest plain card, and plays: the highest card
when leading, the lowest card that wins the trick when following (or its
lowest card when it cannot win). With --bold it also goes alone with four
trumps. Standard library only.
"""

import sys

RANKS = "9tjqka"
SISTER = {"c": "s", "s": "c", "h": "d", "d": "h"}
MEMORY = "memory.txt"


def follows(card, trump):
    """The suit a card belongs to: the left bower is a trump."""
    if card[0] == "j" and card[1] == SISTER[trump]:
        return trump
    return card[1]


def power(card, trump, led):
    if card == "p":
        return 0
    if card == "j" + trump:
        return 40
    if card == "j" + SISTER[trump]:
        return 39
    if card[1] == trump:
        return 30 + RANKS.index(card[0])
    if card[1] == led:
        return 10 + RANKS.index(card[0])
    return 0


def trumps(hand, trump):
    return [c for c in hand if follows(c, trump) == trump]


def lowest(cards, trump):
    return min(cards, key=lambda c: power(c, trump, follows(c, trump)) + (100 if follows(c, trump) == trump else 0))


def remember(upcard):
    with open(MEMORY, "w") as f:
        f.write(upcard)


def recall():
    try:
        with open(MEMORY) as f:
            return f.read().strip()
    except OSError:
        return ""


def split(line):
    return line.split(",") if line else []


def main():
    bold = "--bold" in sys.argv[1:]
    need = 2 if bold else 3
    lines = sys.stdin.read().split("\n")
    lines += [""] * (7 - len(lines))
    hand, phase = split(lines[0]), lines[3]

    if phase == "ordering":
        upcard, before = lines[4], split(lines[5])
        remember(upcard)
        mine = hand + [upcard] if len(before) == 3 else hand  # the dealer picks it up
        print("o" if len(trumps(mine, upcard[1])) >= need else "p")
    elif phase == "naming":
        down = recall()[1:]
        best = max("cshd", key=lambda s: (s != down, len(trumps(hand, s))))
        print(best if best != down and len(trumps(hand, best)) >= need else "p")
    elif phase == "discard":
        upcard = lines[4]
        trump = upcard[1]
        plain = [c for c in hand if follows(c, trump) != trump]
        print(lowest(plain or hand + [upcard], trump))
    elif phase == "alone":
        print("y" if bold and len(trumps(hand, lines[4])) >= 4 else "n")
    elif phase == "turn":
        trump, played = lines[4], split(lines[5])
        if not played:
            print(max(hand, key=lambda c: power(c, trump, follows(c, trump))))
            return
        led = follows(played[0], trump)
        legal = [c for c in hand if follows(c, trump) == led] or hand
        best = max(power(c, trump, led) for c in played)
        winners = [c for c in legal if power(c, trump, led) > best]
        if winners:
            print(min(winners, key=lambda c: power(c, trump, led)))
        else:
            print(lowest(legal, trump))
    # trick: nothing to say


if __name__ == "__main__":
    main()
