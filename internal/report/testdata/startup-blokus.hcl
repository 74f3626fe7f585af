# One Blokus match of a house bot and the example bot made slow to start:
# it sleeps 1.5 s before it reads its first command, which the start-up
# allowance of the course's clock (5 s, shared by the set_* answers)
# covers, and 0.3 s before its 2nd gen_move, which its turn is charged.
# The replay's clock must take the allowance off as arbiter does (see
# README.md). make.sh puts examples/blokus/bots/corners.py beside this
# file.
bot "greedy" { house = "blokus/greedy" }
bot "slow" {
  command = ["python3", "-c", <<-EOT
    import time, corners
    asked, gen_move = [0], corners.Game.gen_move
    def slow(game):
        asked[0] += 1
        if asked[0] == 2:
            time.sleep(0.3)
        return gen_move(game)
    corners.Game.gen_move = slow
    time.sleep(1.5)
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
    turn    = "2s"
    startup = "5s"
  }
}
tournament "startup-blokus" {
  game    = game.blokus.g
  bots    = [bot.slow, bot.greedy]
  players = 2
  seats   = "fixed"
  seed    = 5
}
