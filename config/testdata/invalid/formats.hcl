deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
bot "c" { house = "planowanie/greedy" }
bot "f" { house = "planowanie/random" }
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
}
tournament "swap4" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.f]
  players = 4
  seats   = "swap" # ERROR: Swap needs two players
}
tournament "permute7" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.f] # ERROR: Not enough bots
  players = 7
  seats   = "permute" # ERROR: Too many seatings
  format  = "round-robin"
}
tournament "nocand" { # ERROR: Gauntlet without candidates
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c]
  players = 2
  format  = "gauntlet"
  stop {
    sprt { # ERROR: SPRT needs one candidate
      elo0 = 0
      elo1 = 10
    }
  }
}
tournament "badcand" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  format  = "gauntlet"
  gauntlet {
    candidates = [bot.c] # ERROR: Candidate not in the field
  }
  groups { # ERROR: Options of another format
    random_rounds = 2
  }
}
tournament "rr" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b] # ERROR: Not enough bots
  fill    = [bot.f]        # ERROR: Fill bots in a round robin
  players = 3
  format  = "round-robin"
  order   = "sideways" # ERROR: Invalid order
}
tournament "stops" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  rounds  = 3
  groups {
    random_rounds = 4 # ERROR: Invalid random_rounds
  }
  stop {
    max_matches = 0 # ERROR: Invalid max_matches
    sprt {
      elo0  = 10
      elo1  = 5 # ERROR: Invalid SPRT bounds
      alpha = 0.7 # ERROR: Invalid alpha
      model = "normal" # ERROR: Invalid model
    }
  }
}
tournament "empty" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  stop {} # ERROR: Empty stop block
}
tournament "bayes" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  seats   = "swap"
  deal    = "per-group"
  stop {
    sprt { # ERROR: Bayesian SPRT on paired matches
      elo0  = 0
      elo1  = 10
      model = "bayesian"
    }
  }
}
tournament "noplayers" { # ERROR: Missing required argument
  game  = game.planowanie.g
  bots  = [bot.a, bot.b]
  seats = "swap"
}
tournament "far" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  stop {
    sprt {
      elo0 = -1e30 # ERROR: Invalid elo0
      elo1 = 1001 # ERROR: Invalid elo1
    }
  }
}
