board {
  size   = 3
  filled = [[0, 0], [1, 1]]
  random = 8 # ERROR: Too many random cells
}
