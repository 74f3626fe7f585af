# Tournaments of TestSlurm (slurm_test.go): Planowanie between house bots,
# with games of 1 and 2 cards so that a match takes a fraction of a second.

deck "itpw" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}

game "planowanie" "tiny" {
  deck  = deck.itpw
  deals = [{ cards = 1, leader = 0 }, { cards = 2, leader = 1 }]
  clock { total = "1m" }
}

bot "random1" { house = "planowanie/random" }
bot "random2" { house = "planowanie/random" }
bot "random3" { house = "planowanie/random" }
bot "random4" { house = "planowanie/random" }
bot "greedy1" { house = "planowanie/greedy" }
bot "greedy2" { house = "planowanie/greedy" }
bot "greedy3" { house = "planowanie/greedy" }
bot "greedy4" { house = "planowanie/greedy" }
bot "filler" { house = "planowanie/random" }

# 25 rounds of two groups of four drawn at random, four seatings each:
# 200 matches.
tournament "many" {
  game    = game.planowanie.tiny
  bots    = [bot.random1, bot.random2, bot.random3, bot.random4, bot.greedy1, bot.greedy2, bot.greedy3, bot.greedy4]
  players = 4
  seats   = "rotate"
  deal    = "per-round"
  rounds  = 25
  seed    = 12
}

# Groups by rating in three stages: round 1 drawn at random, rounds 2 and
# 3 grouped by the ratings of the rounds before.
tournament "rating" {
  game    = game.planowanie.tiny
  bots    = [bot.random1, bot.random2, bot.random3, bot.greedy1, bot.greedy2, bot.greedy3]
  fill    = [bot.filler]
  players = 4
  seats   = "balanced"
  deal    = "per-round"
  rounds  = 3
  groups {
    random_rounds = 1
  }
  seed = 5
}

# Placement with its ties played off: up to 3 playoff stages, which
# arbiter slurm writes jobs for; those not needed play nothing and their
# merges say the tournament is complete.
tournament "placement" {
  game    = game.planowanie.tiny
  bots    = [bot.random1, bot.random2, bot.greedy1, bot.greedy2]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  rating  = "placement"
  seed    = 3
}
