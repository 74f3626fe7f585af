bot "alpha" { house = "auction/random" }
bot "beta" { house = "auction/share" }
game "auction" "a" {
  board "b" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  files {
    prefixes = {
      alpah  = "tym01" # ERROR: Unknown bot
      beta   = "tym02"
      nobody = "abc" # ERROR: Unknown bot
    }
  }
}
game "auction" "b" {
  board "b" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  # A bot of the configuration that plays in no tournament of this game
  # may have a prefix: the game block may serve several tournaments.
  files { prefixes = { alpha = "tym01" } }
}
