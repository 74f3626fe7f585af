game "auction" "a" {
  board "b" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  clock {
    move     = "1s"
    overrun  = "-500ms" # ERROR: Invalid overrun
    overruns = 1.5      # ERROR: Invalid overruns
  }
  files { breach = "forgive" }      # ERROR: Invalid breach
  submission { breach = "default" } # ERROR: Invalid breach
}
game "auction" "b" {
  board "b" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  clock {
    overrun  = 5      # ERROR: Invalid overrun
    overruns = "lots" # ERROR: Invalid overruns
    turn     = "2s"   # ERROR: Unsupported argument
  }
}
game "auction" "c" {
  board "b" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  clock {
    overrun  = "0s"
    overruns = -1 # ERROR: Invalid overruns
  }
  files { breach = "default" }
  submission { breach = "refuse" }
}
game "auction" "d" {
  board "b" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  clock { overruns = "unlimited" }
}
