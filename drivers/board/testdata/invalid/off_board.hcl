board {
  size = 5
  filled = [
    [4, 4],
    [5, 0], # ERROR: Cell off the board
    [0, 5], # ERROR: Cell off the board
    [-1, 2], # ERROR: Negative cell
  ]
}
