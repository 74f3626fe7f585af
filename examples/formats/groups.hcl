# The ITPW format: groups of four, the first rounds drawn at random, later
# rounds grouped by rating (close ratings, few meetings), every seating
# of a round on the same deal.
tournament "groups-rating" {
  game    = game.planowanie.short
  bots    = [bot.random1, bot.random2, bot.random3, bot.greedy1, bot.greedy2, bot.greedy3]
  fill    = [bot.filler] # 6 bots make 2 groups of 3 + 1 filler
  players = 4
  seats   = "balanced" # Williams square: every seat once, every bot before every other once
  deal    = "per-round"
  rounds  = 6
  groups {
    random_rounds = 2
  }
  seed = 5
}

# Groups drawn at random every round, fixed seats, stopped when every
# rating interval is narrower than 200 Elo (or after 200 matches).
tournament "groups-stop" {
  game    = game.planowanie.short
  bots    = [bot.random1, bot.greedy1, bot.random2, bot.greedy2]
  players = 2
  seats   = "fixed"
  rounds  = 100
  seed    = 6
  stop {
    interval_width = 200
    max_matches    = 200
  }
}
