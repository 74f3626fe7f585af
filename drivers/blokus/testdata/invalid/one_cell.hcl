# On a 1 × 1 board both players start on the same cell.
game "blokus" "g" {
  board {
    size = 1 # ERROR: Start cells coincide
  }
  stones {
    stone "a" { cells = [[0, 0]] }
  }
  clock { move = "2s" }
}
