# A stones file with mistakes names each line; random cells leave the start cells free.
game "blokus" "g" {
  board {
    size   = 3
    random = 8 # ERROR: Too many random cells
  }
  stones {
    file = "bad.txt" # ERROR: Invalid stones file, Invalid stones file, Invalid stone
  }
  clock { move = "2s" }
}
game "blokus" "empty" {
  board { size = 3 }
  stones {
    file = "empty.txt" # ERROR: Empty stones file
  }
  clock { move = "2s" }
}
