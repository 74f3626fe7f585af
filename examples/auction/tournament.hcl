# The Fibot 4 land auction: the contest's three public boards in turn, all
# bots in one group every round, ranked by mean placement.
#
#   arbiter validate examples/auction
#   arbiter plan     examples/auction
#   arbiter run      examples/auction -out results/fibot

bot "random" { house = "auction/random" } # built into arbiter
bot "share" { house = "auction/share" }
bot "square" { house = "auction/square" }
bot "neighbour" { house = "auction/neighbour" }
bot "py" {
  command = ["python3", "bots/bid.py"] # run once per round as: python3 bots/bid.py <game> <letter>
  dir     = "."                        # bots/bid.py is found here; the bot runs in its game folder's parent
}

game "auction" "fibot" {
  # The variants: round r plays board (r-1) mod 3.
  board "small" {
    cols    = 5
    rows    = 5
    capital = 40
  }
  board "wide" {
    cols    = 10
    rows    = 8
    capital = 1000
  }
  board "long" {
    cols    = 12
    rows    = 4
    capital = 300
  }
  idle_rounds = 10      # rounds in a row without a sale that end a game
  clock { move = "3s" } # the contest allowed 1s; more here, so that a busy machine does not decide games
  files {
    count    = 10     # files a bot may keep, named with its prefix
    bytes    = "10MB" # their size together
    prefixes = { py = "tym42" }
  }
}

tournament "fibot" {
  game    = game.auction.fibot
  bots    = [bot.random, bot.share, bot.square, bot.neighbour, bot.py]
  rounds  = 6       # each board twice
  players = 5       # everybody in one group
  seats   = "fixed" # one match per round; letters follow the round's draw
  rating  = "placement"
  seed    = 2008
}
