# One Blokus match of a house bot and the example bot made slow: it sleeps
# 0.3 s before its 2nd and 3rd gen_move, and 5 s before its 4th, over the
# move limit: a time fault. Each gen_move goes out with time_left (and
# the play before it) in one write, so the replay's clock must charge it
# from the answer before it, and the time-out till the fault, as arbiter
# does (see README.md). make.sh puts examples/blokus/bots/corners.py
# beside this file.
bot "greedy" { house = "blokus/greedy" }
bot "slow" {
  command = ["python3", "-c", <<-EOT
    import time, corners
    asked, gen_move = [0], corners.Game.gen_move
    def slow(game):
        asked[0] += 1
        if asked[0] in (2, 3):
            time.sleep(0.3)
        elif asked[0] >= 4:
            time.sleep(5)
        return gen_move(game)
    corners.Game.gen_move = slow
    corners.main()
    EOT
  ]
  dir = "."
}
game "blokus" "g" {
  board {
    rows = 7
    cols = 7
  }
  stones {
    stone "I1" { cells = [[0, 0]] }
    stone "I2" { cells = [[0, 0], [1, 0]] }
    stone "V3" { cells = [[0, 0], [1, 0], [0, 1]] }
    stone "I3" { cells = [[0, 0], [1, 0], [2, 0]] }
    stone "L4" { cells = [[0, 0], [0, 1], [0, 2], [1, 2]] }
    stone "O4" { cells = [[0, 0], [1, 0], [0, 1], [1, 1]] }
  }
  clock {
    move  = "1s"
    total = "1m"
  }
}
tournament "slow-blokus" {
  game    = game.blokus.g
  bots    = [bot.slow, bot.greedy]
  players = 2
  seats   = "fixed"
  seed    = 5
}
