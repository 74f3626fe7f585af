# The original's own tournament test (BricksGameSystem's
# test/management/TournamentTest.java): its five test players, a 3×3
# board without filled cells, a wake-up delay of 1.5 s. Run it from the
# repository's root:
#
#   go run ./cmd/arbiter run drivers/bricks/testdata/original -out results/tourTest -j 1
#   diff -r drivers/bricks/testdata/original/expected results/tourTest/duels  # and the three .txt
#
# and results/tourTest holds the original's score.txt, duels.txt, err.txt
# and duels/<n>.txt as the original writes them (expected/, see README.md).

# The original's limits (its Watch and DeadlockProtector). The files the
# tournament writes hold no time, so TestOriginalTourTest gives them more
# (-var startup=... and so on): a loaded machine cannot then make a
# JVM miss one and write a fault the original's run did not.
variable "startup" {
  type        = string
  default     = "1s"
  description = "time for OK after the wake-up delay"
}

variable "move" {
  type        = string
  default     = "500ms"
  description = "time a move"
}

variable "silence" {
  type        = string
  default     = "5s"
  description = "time for a late answer before the player is called silent"
}

bots_from "tourTest" {
  dir = "players" # Get_Finish1, Get_Finish2, horizontalRealPlayer, noProgram, verticalRealPlayer
}

game "bricks" "tourTest" {
  board {
    size = 3 # tournament.start( 3, new ArrayList<Point>() )
  }
  clock {
    delay = "1.5s" # tournament.setWatchConstants( 1.5 , 0 )
    startup = var.startup
    move    = var.move
    silence = var.silence
  }
}

# Every ordered pair once, in the original's order (the default order of
# Bricks, "by-seat": each first player's opponents in turn).
tournament "tourTest" {
  game    = game.bricks.tourTest
  bots    = bots_from.tourTest
  format  = "round-robin"
  seats   = "swap"
  players = 2
  rating  = "wins"
}

# The original's sample replay (test/testFiles/logFiles/logSample.txt): the
# two predefined players on a 3×3 board with its centre filled; its duel 0
# is that replay.
game "bricks" "logSample" {
  board {
    size   = 3
    filled = [[1, 1]]
  }
  clock {
    delay = "1.5s"
  }
}

tournament "logSample" {
  game    = game.bricks.logSample
  bots    = [bot.Get_Finish1, bot.Get_Finish2]
  format  = "round-robin"
  seats   = "swap"
  players = 2
  rating  = "wins"
}
