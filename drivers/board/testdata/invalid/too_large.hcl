board {
  size = 1001 # ERROR: Board too large
}
