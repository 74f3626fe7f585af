# Classic Blokus pieces in the course's two-player game: a 20 × 20 board and
# the 21 pieces of the board game, loaded from a stones file of the course's
# format (one stone per line, x y pairs). Change the board or the set here.
#
#   go run ./cmd/arbiter run examples/blokus/classic -out results/blokus-classic
#
# The board size is a variable: -var size=14 plays the same set on 14 × 14.

variable "size" {
  type        = number
  default     = 20
  description = "rows and columns of the board"
}

bot "random" { house = "blokus/random" }
bot "greedy" { house = "blokus/greedy" }
bot "corners" {
  command = ["python3", "bots/corners.py"]
  dir     = ".."
}
bot "course" {
  command = ["python3", "adapter/blokus_adapter.py", "players/course_player.py"]
  dir     = ".."
}

game "blokus" "classic" {
  board {
    rows = var.size
    cols = var.size
  }
  stones {
    file = "stones/classic.txt" # relative to this file
  }
  clock {
    move  = "2s"
    total = "60s"
  }
}

tournament "classic" {
  game    = game.blokus.classic
  bots    = [bot.random, bot.greedy, bot.corners, bot.course]
  format  = "round-robin" # every ordered pair: each bot starts once against each other
  seats   = "swap"
  players = 2
  rounds  = 1
  rating  = "wins"
  seed    = 21
}
