board {
  size   = "five" # ERROR: Invalid size
  filled = "1x2"  # ERROR: Invalid filled
}
