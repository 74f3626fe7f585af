deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c] # ERROR: Unknown bot
  players = 2
}
