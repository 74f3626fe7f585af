deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
bot "f" { house = "planowanie/random" }
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  fill    = [bot.f] # ERROR: Not enough fill bots
  players = 4
}
