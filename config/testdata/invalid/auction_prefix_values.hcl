# A prefix files { prefixes } gives starts the bot's file names in the
# game folder beside the referee's own state and log: any name but those
# serves (my-bot's dash, a dot), a path does not.
bot "my-bot" { house = "auction/share" }
bot "other" { house = "auction/random" }
bot "fine" { house = "auction/random" }
game "auction" "a" {
  board "b" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  files {
    prefixes = {
      my-bot = "log" # ERROR: Invalid file prefix
      other  = "a/b" # ERROR: Invalid file prefix
      fine   = "x-1.y"
    }
  }
}
