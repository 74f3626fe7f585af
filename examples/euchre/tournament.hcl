# Euchre as the King-of-the-Hill challenge played it: every bot is started
# afresh for every decision, reads its input on stdin and prints one answer.
# A match is two bots, each playing both seats of its team.
#
#   arbiter validate examples/euchre
#   arbiter plan     examples/euchre
#   arbiter run      examples/euchre -out results/euchre

bot "random" { house = "euchre/random" } # built into arbiter
bot "rules" { house = "euchre/rules" }
bot "py" {
  command = ["python3", "bots/simple.py"] # argv, no shell; bots/simple.py is found in dir
  dir     = "."                           # the bot's folder, relative to this file
}
bot "py-bold" {
  command = ["python3", "bots/simple.py", "--bold"]
}

game "euchre" "koth" {
  target       = 10 # game points that win a game
  first_dealer = 0  # position that deals the first hand
  # One memory file a bot, kept across its matches; the seatings on the
  # same deals (deal below) all start from the memory before the first of
  # them, so none tells a bot its opponents' hands.
  memory       = "per-bot"
  memory_bytes = 1024 # bytes: the most that file may hold
  # Per decision. The challenge had no limit and the spec's default is 1s;
  # the example's Python bots start an interpreter at every decision, which
  # on a loaded machine (or behind pyenv's python3 shim) can take most of a
  # second, so it allows 3s rather than let the load pick their cards.
  clock { move = "3s" }
}

tournament "koth" {
  game    = game.euchre.koth
  bots    = [bot.random, bot.rules, bot.py, bot.py-bold]
  format  = "round-robin" # every pair of bots...
  players = 2             # (a match is two bots: teams of two copies)
  seats   = "swap"        # ...plays both seatings...
  deal    = "per-group"   # ...on the same deals: duplicate Euchre (no memory passes between them)
  rating  = "wins"        # the challenge counted games won
  seed    = 2014
}
