# Blokus' own limit on the board points at the side that is over it.
game "blokus" "g" {
  board {
    rows = 20
    cols = 65 # ERROR: Board too large for Blokus
  }
  stones {
    stone "I1" { cells = [[0, 0]] }
  }
  clock { move = "2s" }
}
