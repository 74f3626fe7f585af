# Too many matches in all, a round being within the limit: the error is
# at rounds, which is what to lower.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
  clock { total = "1m" }
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  rounds  = 2147483647 # ERROR: Too many matches
}
