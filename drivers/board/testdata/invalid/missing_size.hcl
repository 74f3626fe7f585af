board { # ERROR: Missing board size
  filled = [[1, 1]]
}
