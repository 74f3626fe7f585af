board {
  rows   = 3
  cols   = 4
  filled = [[3, 2], [0, 0],
    [3, 2]] # ERROR: Duplicate cell
}
