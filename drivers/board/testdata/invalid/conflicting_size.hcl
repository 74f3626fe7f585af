board {
  size = 5
  rows = 5 # ERROR: Conflicting board size
}
