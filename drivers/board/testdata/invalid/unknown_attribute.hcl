board {
  size  = 3
  holes = 2 # ERROR: Unsupported argument
}
