# A candidate against the rest of the field, stopped by a sequential
# test: greedy1 is clearly stronger than random1, so the SPRT accepts H1
# long before the 2000 planned matches.
tournament "gauntlet-sprt" {
  game   = game.planowanie.short
  bots   = [bot.greedy1, bot.random1]
  format = "gauntlet"
  gauntlet {
    candidates = [bot.greedy1]
  }
  players = 2
  seats   = "swap"
  deal    = "per-group" # pairs on one deal: the SPRT counts pairs (pentanomial)
  rounds  = 1000
  seed    = 3
  stop {
    sprt {
      elo0  = 0
      elo1  = 50
      alpha = 0.05
      beta  = 0.05
    }
    max_matches = 2000
  }
}

# Two candidates, each against every pair of the other bots, in groups
# of three seated by a Williams design (balanced).
tournament "gauntlet-3" {
  game   = game.planowanie.short
  bots   = [bot.greedy1, bot.greedy2, bot.random1, bot.random2, bot.random3]
  format = "gauntlet"
  gauntlet {
    candidates = [bot.greedy1, bot.greedy2]
  }
  players = 3
  seats   = "balanced"
  deal    = "per-group"
  seed    = 4
}
