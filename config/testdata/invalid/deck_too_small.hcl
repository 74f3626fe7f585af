deck "small" {
  ranks = "9TJQKA"
  suits = "CDHS"
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
bot "c" { house = "planowanie/random" }
bot "d" { house = "planowanie/greedy" }
game "planowanie" "g" {
  deck  = deck.small
  deals = [for i in range(1, 8) : { cards = i, leader = (i - 1) % 3 }] # ERROR: Game cannot be played with these seats
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.d]
  players = 4
}
