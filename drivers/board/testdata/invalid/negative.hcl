board {
  size   = -3 # ERROR: Negative size
  random = -1 # ERROR: Negative random
  seed   = -7 # ERROR: Negative seed
}
