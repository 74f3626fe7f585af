# With board.seed set, the random cells are the same in every match: here
# seed 7 draws [1, 0], [2, 1] and [1, 2], which wall in player 1's corner
# though the fixed cells (none) do not.
game "blokus" "g" {
  board {
    size   = 3
    random = 3 # ERROR: No legal first move on this board
    seed   = 7
  }
  stones {
    stone "a" { cells = [[0, 0], [1, 0]] }
  }
  clock { move = "2s" }
}
