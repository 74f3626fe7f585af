# Names are at most 200 bytes (tournament.MaxNameBytes): files are named
# after them, and a file name holds at most 255 bytes.
bot "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" { # ERROR: Name too long
  house = "planowanie/random"
}
bot "oooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo" {
  house = "planowanie/random"
}
bot "r2" { house = "planowanie/random" }

deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}

game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 1, leader = 0 }]
  clock { total = "1m" }
}

tournament "ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt" { # ERROR: Name too long
  game    = game.planowanie.g
  bots    = [bot.oooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo, bot.r2]
  players = 2
}
