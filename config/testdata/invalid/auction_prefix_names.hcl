# A bot without a prefix in files { prefixes } names its files in the
# game folder with its name, held to the rule of a prefix given there
# (auction_prefix_values.hcl): not the referee's own state or log.
bot "log" { house = "auction/random" } # ERROR: Invalid file prefix
bot "state" { house = "auction/share" }
bot "my-bot" { house = "auction/share" }
game "auction" "a" {
  board "b" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  # state has a prefix of its own; my-bot's name serves.
  files { prefixes = { state = "tym02" } }
}
tournament "t" {
  game    = game.auction.a
  bots    = [bot.log, bot.state, bot.my-bot]
  players = 3
}
