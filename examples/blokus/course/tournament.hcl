# Blokus as the CTU course B3B33ALP played it: a 10 × 10 board and a small
# stone set, 2 s per move. The stones are defined right here, as [x, y]
# cells or as ASCII art: change the set or the board size by editing this
# file, no code.
#
#   go run ./cmd/arbiter run examples/blokus/course -out results/blokus-course

bot "random" { house = "blokus/random" } # built into arbiter
bot "greedy" { house = "blokus/greedy" }
bot "corners" {
  command = ["python3", "bots/corners.py"] # speaks the protocol itself
  dir     = ".."                           # examples/blokus
}
bot "course" {
  # A course-style player.py, unchanged, run by the adapter.
  command = ["python3", "adapter/blokus_adapter.py", "players/course_player.py"]
  dir     = ".."
}

game "blokus" "course" {
  board { # player 1 starts at row 9, col 0; player 2 at row 0, col 9
    rows = 10
    cols = 10
  }
  stones {
    stone "I1" { cells = [[0, 0]] } # [x, y]: x the column, y the row
    stone "I2" { cells = [[0, 0], [1, 0]] }
    stone "I3" { cells = [[0, 0], [1, 0], [2, 0]] }
    stone "V3" { cells = [[0, 0], [1, 0], [0, 1]] }
    stone "I4" { cells = [[0, 0], [1, 0], [2, 0], [3, 0]] }
    stone "L4" {
      art = <<-EOT
        #.
        #.
        ##
      EOT
    }
    stone "T4" {
      art = <<-EOT
        ###
        .#.
      EOT
    }
    stone "O4" {
      art = <<-EOT
        ##
        ##
      EOT
    }
    stone "Z4" {
      art = <<-EOT
        .##
        ##.
      EOT
    }
  }
  clock {
    turn    = "2s" # the course's limit for a turn: the opponent's play and gen_move together
    startup = "5s" # the interpreter's and the player's start, shared by the set_* answers
  }
}

tournament "course" {
  game    = game.blokus.course
  bots    = [bot.random, bot.greedy, bot.corners, bot.course]
  format  = "round-robin" # every ordered pair: each bot starts once against each other
  seats   = "swap"
  players = 2
  rounds  = 2
  rating  = "wins"
  seed    = 2018
}
