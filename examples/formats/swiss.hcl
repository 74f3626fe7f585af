# Swiss: round 1 drawn at random, later rounds pair bots of close score
# that have met least; for fields too large for a round robin.
tournament "swiss" {
  game    = game.planowanie.short
  bots    = [bot.random1, bot.random2, bot.random3, bot.greedy1, bot.greedy2, bot.greedy3]
  format  = "swiss"
  players = 2
  seats   = "swap"
  deal    = "per-group"
  rounds  = 4
  seed    = 7
}
