# One Auction match with an overrun and a bot that is out before it
# starts (see README.md).
bot "random" { house = "auction/random" }
bot "share" { house = "auction/share" }
# Answers after its 200 ms but within the tolerated overrun: an overrun
# event every round.
bot "late" { command = ["python3", "-c", "import time; time.sleep(0.3); print(1)"] }
# Names this file as part of itself, which is over the submission
# limit's 10 bytes: disqualified before the first match, an out event.
bot "fat" { command = ["sh", "-c", "echo 0", "auction.hcl"] }
game "auction" "g" {
  board "small" {
    cols    = 3
    rows    = 2
    capital = 30
  }
  idle_rounds = 3
  clock {
    move     = "200ms"
    overrun  = "2s"
    overruns = "unlimited"
  }
  submission { bytes = "10B" }
}
tournament "auction" {
  game    = game.auction.g
  bots    = [bot.random, bot.share, bot.late, bot.fat]
  players = 4
  seats   = "fixed"
  rating  = "placement"
  seed    = 13
}
