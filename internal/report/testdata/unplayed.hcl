bot "five"  { command = ["sh", "-c", "echo 5"] }
bot "two"   { command = ["sh", "-c", "echo 2"] }
bot "crash" { command = ["sh", "-c", "exit 1"] }
game "auction" "t" {
  board "b" {
    cols    = 2
    rows    = 2
    capital = 20
  }
  idle_rounds = 2
}
tournament "t" {
  game    = game.auction.t
  bots    = [bot.five, bot.two, bot.crash]
  rounds  = 1
  players = 3
  seats   = "fixed"
  rating  = "placement"
  seed    = 1
}
