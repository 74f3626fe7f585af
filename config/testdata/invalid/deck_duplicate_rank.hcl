# A deck in error is reported once, at the deck: the game that uses it
# has nothing to add.
deck "d" {
  ranks = "2234" # ERROR: Invalid deck
  suits = "CDHS"
}
# Symbols are printable ASCII, without spaces, quotes or backslashes.
deck "f" {
  ranks = "23456789TJQKÄ" # ERROR: Invalid deck
  suits = "CDHS"
}
deck "g" {
  ranks = "23456789TJQKA"
  suits = "CD S" # ERROR: Invalid deck
}
deck "e" { # ERROR: Missing required argument
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 1, leader = 0 }]
  clock { total = "1m" }
}
game "planowanie" "h" {
  deck  = deck.e
  deals = [{ cards = 1, leader = 0 }]
  clock { total = "1m" }
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
}
