board {
  size   = 3
  filled = [[0, 0]]
  map    = "#.." # ERROR: Conflicting board cells
}
