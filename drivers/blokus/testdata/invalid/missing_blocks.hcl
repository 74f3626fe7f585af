# A game needs a board and stones; a tournament of Blokus has two seats.
bot "a" { house = "blokus/random" }
bot "b" { house = "blokus/greedy" }
bot "c" { house = "blokus/greedy" }
game "blokus" "g" { # ERROR: Missing board block, Missing stones block
  clock { move = "2s" }
}
game "blokus" "h" {
  board { size = 7 }
  stones { # ERROR: No stones
  }
  stones { # ERROR: Duplicate stones block
    stone "I1" { cells = [[0, 0]] }
  }
  clock { move = "2s" }
}
game "blokus" "ok" {
  board { size = 7 }
  stones {
    stone "I1" { cells = [[0, 0]] }
  }
  clock { move = "2s" }
}
tournament "t" {
  game    = game.blokus.ok
  bots    = [bot.a, bot.b, bot.c]
  players = 3 # ERROR: Blokus is for two players
}
