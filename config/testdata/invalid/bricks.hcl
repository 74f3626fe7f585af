# Bricks' own board rules, on top of the board block's.
game "bricks" "rect" {
  board {
    rows = 5 # ERROR: Board not square
    cols = 7
  }
}
game "bricks" "even" {
  board { size = 6 } # ERROR: Invalid board size
}
game "bricks" "eight" {
  board {
    seed = 1
    size = 8 # ERROR: Invalid board size
  }
}
game "bricks" "huge" {
  board { size = 1001 } # ERROR: Board too large for Bricks
}
game "bricks" "tiny" {
  board { size = 1 } # ERROR: Invalid board size
}
game "bricks" "full" {
  board {
    size   = 3
    random = 10 # ERROR: Too many random cells
  }
}
game "bricks" "off" {
  board {
    size   = 3
    filled = [[3, 1]] # ERROR: Cell off the board
  }
}
game "bricks" "noboard" { # ERROR: Missing board
}
game "bricks" "clock" {
  board { size = 3 }
  clock {
    move    = "2s"
    silence = "1s" # ERROR: Silence shorter than a limit
  }
}
game "bricks" "clock2" {
  board { size = 3 }
  clock { startup = "soon" } # ERROR: Invalid duration
}
bot "a" { house = "bricks/random" }
bot "b" { house = "bricks/keeper" }
game "bricks" "ok" {
  board { size = 3 }
}
tournament "three" {
  game    = game.bricks.ok
  bots    = [bot.a, bot.b]
  players = 3 # ERROR: Bricks is a two-player game
}
