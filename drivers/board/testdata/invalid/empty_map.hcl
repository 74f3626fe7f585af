board {
  map = "\n  \n" # ERROR: Empty map
}
