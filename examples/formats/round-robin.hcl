# Every ordered pair of four bots plays once per round, both orders on the
# same deal (duplicate play: card luck cancels within a pair).
tournament "round-robin" {
  game    = game.planowanie.short
  bots    = [bot.random1, bot.random2, bot.greedy1, bot.greedy2]
  format  = "round-robin"
  players = 2
  seats   = "swap"      # both orders of each pair
  deal    = "per-group" # both orders play the same deal
  rounds  = 3
  seed    = 1
}

# Every combination of three of four bots, each in all 3! = 6 orders.
tournament "round-robin-3" {
  game    = game.planowanie.short
  bots    = [bot.random1, bot.random2, bot.greedy1, bot.greedy2]
  format  = "round-robin"
  players = 3
  seats   = "permute"   # every order of the group
  deal    = "per-match" # every match its own deal
  seed    = 2
}
