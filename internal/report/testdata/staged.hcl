# A tournament in stages, with grades: two groups of three, then a final
# of the two best of each group (see README.md).
bot "a" { house = "auction/random" }
bot "b" { house = "auction/share" }
bot "c" { house = "auction/square" }
bot "d" { house = "auction/neighbour" }
bot "e" { house = "auction/random" }
bot "f" { house = "auction/share" }
game "auction" "g" {
  board "small" {
    cols    = 4
    rows    = 3
    capital = 30
  }
  idle_rounds = 4
  clock { move = "20s" }
}
tournament "staged" {
  game   = game.auction.g
  bots   = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f]
  rounds = 2
  seats  = "fixed"
  rating = "placement"
  seed   = 21
  stage "groups" {
    groups = 2
  }
  stage "final" {
    bots = [top(stage.groups, 2)]
  }
  grades {
    grade "gold" { top = "20%" }
    grade "silver" { top = "50%" }
  }
}
