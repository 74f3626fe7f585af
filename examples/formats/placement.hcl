# Fibot-style ranking by mean place. greedy1 and greedy2 are the same
# deterministic bot, so they tie: after the rounds they play playoff
# matches (playoff-*) between themselves; identical bots stay tied after
# the last of the 3 playoff stages.
tournament "placement" {
  game    = game.planowanie.short
  bots    = [bot.random1, bot.greedy1, bot.greedy2]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  deal    = "per-round"
  rounds  = 2
  rating  = "placement"
  seed    = 8
}
