# Every mistake of a blokus game is reported in one go.
game "blokus" "big" {
  board {
    rows = 65 # ERROR: Board too large for Blokus
    cols = 20
  }
  stones {
    file = "missing.txt"                   # ERROR: Cannot read stones file
    stone "A" { cells = [[0, 0], [2, 0]] } # ERROR: Invalid stone
    stone "A" { cells = [[0, 0]] }         # ERROR: Duplicate stone
    stone "B" {                            # ERROR: Stone without cells
    }
    stone "C" {
      art = "#x" # ERROR: Invalid stone art
    }
    stone "D" {
      cells = [[0, 0]]
      art   = "#" # ERROR: Stone given twice
    }
    stone "E" { cells = [[0, 0], [0, 0]] } # ERROR: Invalid stone
    stone "F" { cells = [[0, 0, 1]] }      # ERROR: Invalid stone cells
  }
  clock { move = "2x" } # ERROR: Invalid duration
}
