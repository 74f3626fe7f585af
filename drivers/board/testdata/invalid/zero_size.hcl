board {
  rows = 0 # ERROR: Invalid rows
  cols = 4
}
