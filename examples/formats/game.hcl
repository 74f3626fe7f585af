# Shared by every tournament of this directory: one Planowanie game and
# house bots. Pick a tournament with -tournament NAME:
#
#   arbiter plan examples/formats -tournament swiss
#   arbiter run  examples/formats -tournament gauntlet-sprt -out results/sprt
#
# See docs/formats.md for what each format, seat design and deal mode does.

deck "itpw" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}

# Short games (1 to 5 cards) so that every example runs in seconds; leader
# 0 keeps the deals valid for any number of players.
game "planowanie" "short" {
  deck  = deck.itpw
  deals = [for i in range(1, 6) : { cards = i, leader = 0 }]
  clock { total = "1m" }
}

# The same house bot under several names makes a field: each name is a
# separate player for the ratings.
bot "random1" { house = "planowanie/random" }
bot "random2" { house = "planowanie/random" }
bot "random3" { house = "planowanie/random" }
bot "greedy1" { house = "planowanie/greedy" }
bot "greedy2" { house = "planowanie/greedy" }
bot "greedy3" { house = "planowanie/greedy" }
bot "filler" { house = "planowanie/random" }
