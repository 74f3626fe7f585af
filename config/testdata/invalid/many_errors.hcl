# Every mistake of a file is reported in one go.
deck "d" {
  ranks = "22345" # ERROR: Invalid deck
  suits = "CDHS"
}
bot "a" { house = "planowanie/nonesuch" } # ERROR: Unknown house bot
bot "b" { house = "planowanie/greedy" }
game "chess" "g" {} # ERROR: Unknown game driver
game "planowanie" "p" {
  deck  = deck.e # ERROR: Unknown deck
  deals = []
}
tournament "t" {
  game    = game.planowanie.q # ERROR: Unknown game
  bots    = [bot.a, bot.b]
  players = 2
  seats   = "shuffle" # ERROR: Invalid seats
  rounds  = 0         # ERROR: Invalid rounds
}
