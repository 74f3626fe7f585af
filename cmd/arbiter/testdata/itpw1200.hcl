# ITPW-style: 13 deals of 1 to 13 cards, groups of four, all four cyclic
# seatings on the same hands; 12 house bots, 100 rounds = 1,200 matches.
deck "itpw" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "random1" { house = "planowanie/random" }
bot "random2" { house = "planowanie/random" }
bot "random3" { house = "planowanie/random" }
bot "random4" { house = "planowanie/random" }
bot "random5" { house = "planowanie/random" }
bot "random6" { house = "planowanie/random" }
bot "greedy1" { house = "planowanie/greedy" }
bot "greedy2" { house = "planowanie/greedy" }
bot "greedy3" { house = "planowanie/greedy" }
bot "greedy4" { house = "planowanie/greedy" }
bot "greedy5" { house = "planowanie/greedy" }
bot "greedy6" { house = "planowanie/greedy" }
game "planowanie" "itpw" {
  deck  = deck.itpw
  deals = [for i in range(1, 14) : { cards = i, leader = (i - 1) % 4 }]
  clock { total = "5m" }
}
tournament "itpw" {
  game    = game.planowanie.itpw
  bots    = [bot.random1, bot.random2, bot.random3, bot.random4, bot.random5, bot.random6, bot.greedy1, bot.greedy2, bot.greedy3, bot.greedy4, bot.greedy5, bot.greedy6]
  rounds  = 100
  players = 4
  seats   = "rotate"
  deal    = "per-round"
  seed    = 2009
}
