# A board on which the game cannot start: player 1's corner walled in by
# fixed cells, so no domino fits there (the random cells drawn per match
# cannot free it).
game "blokus" "g" {
  board {
    size   = 3
    filled = [[1, 1], [0, 1], [1, 2]] # ERROR: No legal first move on this board
    random = 1
  }
  stones {
    stone "a" { cells = [[0, 0], [1, 0]] }
  }
  clock { move = "2s" }
}
