# The ITPW Planowanie contest: 13 deals of 1 to 13 cards, groups of four,
# every group playing all four cyclic seatings on the same hands.
#
#   arbiter validate examples/planowanie
#   arbiter plan     examples/planowanie
#   arbiter run      examples/planowanie -out results/itpw

deck "itpw" {
  ranks = "23456789TJQKA" # ascending
  suits = "CDHS"          # the first suit is trump
}

bot "random" { house = "planowanie/random" } # built into arbiter
bot "greedy" { house = "planowanie/greedy" }
bot "filler" { house = "planowanie/random" }
bot "py" {
  command = ["python3", "bots/simple.py"] # argv, no shell
  dir     = "."                           # working dir, relative to this file
}

game "planowanie" "itpw" {
  deck  = deck.itpw
  deals = [for i in range(1, 14) : { cards = i, leader = (i - 1) % 4 }]
  clock { total = "5m" } # per bot, whole game
}

tournament "itpw" {
  game    = game.planowanie.itpw
  bots    = [bot.random, bot.greedy, bot.py]
  fill    = [bot.filler] # complete groups when the field does not divide by `players`
  rounds  = 20
  players = 4           # seats per match
  seats   = "rotate"    # every cyclic shift of each group: each bot plays each seat
  deal    = "per-round" # same seed for all matches of a round => identical hands
  seed    = 2009
}
