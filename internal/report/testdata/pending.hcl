# A tournament in one stage whose two bots, copies of one house bot,
# tie on mean place; make.sh removes the results of its playoffs, so
# that the first is to come (see README.md).
bot "s1" { house = "auction/share" }
bot "s2" { house = "auction/share" }
game "auction" "g" {
  board "small" {
    cols    = 4
    rows    = 3
    capital = 30
  }
  idle_rounds = 4
  clock { move = "20s" }
}
tournament "pending" {
  game   = game.auction.g
  bots   = [bot.s1, bot.s2]
  rounds = 2
  seats  = "rotate"
  rating = "placement"
  seed   = 21
  stage "only" {}
}
