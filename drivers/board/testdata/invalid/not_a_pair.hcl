board {
  size   = 5
  filled = [[1, 2, 3], [1, 1]] # ERROR: Invalid cell
}
