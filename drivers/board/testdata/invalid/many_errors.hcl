# Every mistake of a block is reported in one go.
board {
  rows   = 3
  cols   = 3
  seed   = "x" # ERROR: Invalid seed
  filled = [
    [3, 0],    # ERROR: Cell off the board
    [1, 1],
    [1, 1],    # ERROR: Duplicate cell
  ]
}
