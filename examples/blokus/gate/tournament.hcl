# The CTU course B3B33ALP's season (../shared/seeds/blokus-b3b33alp.txt): a
# submission first plays "a few dozen games" against the course's own
# player on BRUTE; a player that makes no error in them ("neudělá váš hráč
# chybu, tj. bude korektně vracet tahy") is admitted to the tournament,
# where every player meets every other. The final ranking is graded by
# bands: top 10 %, 20 %, 40 %.
#
#   arbiter plan examples/blokus/gate
#   arbiter run  examples/blokus/gate -out results/blokus-gate
#
# "quitter" stands for a submission that does not return its moves: it
# leaves at once, faults in the gate and is not admitted.

bot "random" { house = "blokus/random" } # built into arbiter
bot "greedy" { house = "blokus/greedy" }
bot "corners" {
  command = ["python3", "bots/corners.py"] # speaks the protocol itself
  dir     = ".."                           # examples/blokus
}
bot "quitter" {
  command = ["true"] # exits before its first move
}
bot "course" {
  # The course's own player.py, unchanged, run by the adapter.
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
  # The course's limit is 2 s per move, but its runner started the players
  # before the clock; here a Python interpreter's start counts against its
  # first answer, so the gate would turn away slow starters. 5 s instead.
  clock { move = "5s" }
}


tournament "course" {
  game   = game.blokus.course
  bots   = [bot.random, bot.greedy, bot.corners, bot.quitter]
  seats  = "swap" # each bot starts once against each other
  rating = "wins"
  seed   = 2018

  stage "brute" {
    gate {
      against = [bot.course] # the course's player
      games   = 2            # rounds of both seatings: 4 games each (the course: a few dozen)
    }
  }
  stage "tournament" {
    bots    = [admitted(stage.brute)]
    players = 2
    rounds  = 2
  }

  grades {
    grade "+3 points" { top = "10%" }
    grade "+2 points" { top = "20%" }
    grade "+1 point" { top = "40%" }
  }
}
