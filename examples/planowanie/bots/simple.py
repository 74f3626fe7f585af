#!/usr/bin/env python3
"""A simple Planowanie bot: a readable starting point for your own.

It speaks the arbiter's GTP-like protocol on stdin/stdout (see
shared/games/planowanie.md), keeps track of its hand and of the trick on the
table, declares the tricks its high cards should take, and plays:

- when it still needs tricks: the lowest card that wins the trick as it
  stands (or, leading, its strongest card); otherwise its lowest card;
- when it has what it declared: the highest card that loses (or, leading,
  its lowest card), so as not to take a trick it does not want.

Standard library only. Randomness (used only to break ties) is seeded from
ARBITER_SEED so that a match replays exactly.
"""

import os
import random
import sys


class Game:
    def __init__(self):
        self.ranks, self.suits = "23456789TJQKA", "CDHS"
        self.players, self.me = 4, 0
        self.deals = []           # [(cards, leader)]
        self.deal = -1            # index of the current deal
        self.hand = []
        self.declared = {}
        self.tricks = {}
        self.leader = 0
        self.trick = []           # cards on the table, in order of play

    @property
    def trump(self):
        return self.suits[0]

    def rank(self, card):
        return self.ranks.index(card[0])

    def beats(self, card, best):
        """Whether card takes a trick that best is winning so far."""
        if card[1] == best[1]:
            return self.rank(card) > self.rank(best)
        return card[1] == self.trump

    def winner(self, trick):
        best = 0
        for i in range(1, len(trick)):
            if self.beats(trick[i], trick[best]):
                best = i
        return best

    def legal(self):
        if self.trick:
            follow = [c for c in self.hand if c[1] == self.trick[0][1]]
            if follow:
                return follow
        return list(self.hand)

    # --- commands -----------------------------------------------------

    def set_deck(self, ranks, suits):
        self.ranks, self.suits = ranks, suits

    def set_players(self, n, i):
        self.players, self.me = int(n), int(i)

    def set_game(self, d, *rest):
        nums = [int(x) for x in rest]
        if len(nums) != 2 * int(d):
            raise ValueError("set_game needs a card count and a leader per deal")
        self.deals = list(zip(nums[0::2], nums[1::2]))
        self.deal = -1

    def set_cards(self, c, *cards):
        if int(c) != len(cards):
            raise ValueError("card count does not match")
        self.deal += 1
        self.hand = list(cards)
        self.declared, self.tricks = {}, {p: 0 for p in range(self.players)}
        self.leader = self.deals[self.deal][1] if self.deal < len(self.deals) else 0
        self.trick = []

    def time_left(self, ms):
        pass  # this bot is quick; a real one would budget its thinking

    def gen_declare(self):
        # A trump in the top third, or an ace, usually takes a trick.
        sure = 0
        for card in self.hand:
            r = self.rank(card)
            if card[1] == self.trump and r >= len(self.ranks) * 2 // 3:
                sure += 1
            elif r == len(self.ranks) - 1:
                sure += 1
        return str(min(sure, len(self.hand)))

    def declare(self, i, l):
        self.declared[int(i)] = int(l)

    def gen_move(self):
        legal = self.legal()
        # Low cards first; trumps count as higher than any side card.
        order = lambda c: (c[1] == self.trump, self.rank(c), rng.random())
        legal.sort(key=order)
        wants = self.tricks[self.me] != self.declared.get(self.me, 0)
        if not self.trick:
            return legal[-1] if wants else legal[0]
        best = self.trick[self.winner(self.trick)]
        winners = [c for c in legal if self.beats(c, best)]
        losers = [c for c in legal if not self.beats(c, best)]
        if wants:
            return winners[0] if winners else legal[0]
        return losers[-1] if losers else legal[0]

    def play(self, i, card):
        if int(i) == self.me:
            self.hand.remove(card)
        self.trick.append(card)
        if len(self.trick) == self.players:
            w = (self.leader + self.winner(self.trick)) % self.players
            self.tricks[w] += 1
            self.leader = w
            self.trick = []

    def quit(self):
        pass


COMMANDS = {
    "set_deck", "set_players", "set_game", "set_cards", "time_left",
    "gen_declare", "declare", "gen_move", "play", "quit",
}


def main():
    game = Game()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue  # the protocol says to ignore empty lines
        cmd, args = words[0], words[1:]
        if cmd not in COMMANDS:
            sys.stdout.write("? unknown command %s\n\n" % cmd)
        else:
            try:
                answer = getattr(game, cmd)(*args)
                sys.stdout.write("= %s\n\n" % answer if answer else "=\n\n")
            except Exception as e:  # a bad command must not kill the bot
                sys.stdout.write("? %s\n\n" % e)
        sys.stdout.flush()  # the referee waits for every answer
        if cmd == "quit":
            break


# Seeded from the match, so that a re-run plays the same game; the seat
# keeps two copies of this bot in one match from mirroring each other.
rng = random.Random("%s/%s" % (os.environ.get("ARBITER_SEED", ""),
                               os.environ.get("ARBITER_SEAT", "")))

if __name__ == "__main__":
    main()
