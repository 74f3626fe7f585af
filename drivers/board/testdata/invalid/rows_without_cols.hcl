board { # ERROR: Missing board size
  rows = 4
}
