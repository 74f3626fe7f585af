# The start corners must stay free; every stone must fit the board.
game "blokus" "g" {
  board {
    rows   = 5
    cols   = 5
    filled = [[0, 4], [4, 0], [2, 2]] # ERROR: Start cell filled, Start cell filled
  }
  stones {
    stone "I6" { cells = [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]] } # ERROR: Stone does not fit the board
    stone "I1" { cells = [[0, 0]] }
  }
  clock { move = "2s" }
}
