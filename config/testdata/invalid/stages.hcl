bot "a" { house = "auction/random" }
bot "b" { house = "auction/share" }
bot "c" { house = "auction/square" }
bot "d" { house = "auction/neighbour" }
bot "e" { house = "auction/random" }
bot "f" { house = "auction/share" }
bot "g" { house = "auction/square" }
bot "h" { house = "auction/neighbour" }

game "auction" "g" {
  board "small" {
    cols    = 5
    rows    = 5
    capital = 40
  }
}

tournament "later" {
  game = game.auction.g
  bots = [bot.a, bot.b, bot.c, bot.d]
  stage "first" {
    groups = 2
  }
  stage "second" {
    bots = [top(stage.first, 1), winners(stage.third)] # ERROR: Stage refers to a later stage
  }
  stage "third" {
    bots = [top(stage.third, 1)] # ERROR: Stage refers to itself
  }
  stage "fourth" {
    bots = [top(stage.nowhere, 1)] # ERROR: Unknown stage
  }
}

tournament "too_many" {
  game = game.auction.g
  bots = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f, bot.g, bot.h]
  stage "groups" {
    groups = 2
  }
  stage "final" {
    bots = [top(stage.groups, 5)] # ERROR: Advancing more bots than the stage has
  }
  stage "tiny" {
    bots   = [winners(stage.final)]
    groups = 3 # ERROR: More groups than bots
  }
  stage "last" {
    bots = [places(stage.tiny, 2, 2), admitted(stage.tiny)] # ERROR: Advancing more bots than the stage has, Not a gate
  }
}

tournament "gates" {
  game = game.auction.g
  bots = [bot.a, bot.b, bot.c]
  stage "brute" {
    gate { # ERROR: Gate with no bot to play against
      games = 3
    }
  }
  stage "empty" {
    bots = [admitted(stage.brute)]
    gate {
      against = [] # ERROR: Gate with no bot to play against
    }
  }
  stage "ranked" {
    bots = [top(stage.brute, 2)] # ERROR: Places of a gate
  }
  stage "selfish" {
    bots = [bot.a, bot.d] # ERROR: Gate bot in the field
    gate {
      against = [bot.d]
    }
  }
}

tournament "misc" {
  game   = game.auction.g
  bots   = [bot.a, bot.b]
  format = "swiss" # ERROR: Not with stages
  order  = "by-seat" # ERROR: Not with stages
  stage "Bad-Name" { # ERROR: Invalid stage name
  }
  stage "next" { # ERROR: Stage without bots
  }
}

game "blokus" "b" {
  board {
    rows = 5
    cols = 5
  }
  stones {
    stone "I1" { cells = [[0, 0]] }
  }
}

bot "w" { house = "blokus/random" }
bot "x" { house = "blokus/greedy" }
bot "y" { house = "blokus/random" }
bot "z" { house = "blokus/greedy" }

tournament "whole_group" {
  game = game.blokus.b
  bots = [bot.w, bot.x, bot.y, bot.z]
  stage "all" { # ERROR: Group too large for a match
  }
}

tournament "gate_typo" {
  game = game.auction.g
  bots = [bot.a, bot.b]
  stage "brute" {
    gate {
      against = [bot.e, bot.nobot] # ERROR: Unknown bot
    }
  }
  stage "zero" {
    bots = [top(stage.brute, 0)] # ERROR: Invalid function argument
  }
}

# A stage's seats are checked as a tournament's: by its players, or, when it
# seats whole groups, by the largest group it can have.
tournament "stage_seats" {
  game = game.auction.g
  bots = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f, bot.g, bot.h]
  stage "swap3" {
    seats   = "swap" # ERROR: Swap needs two players
    players = 3
  }
  stage "permute7" {
    bots    = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f, bot.g, bot.h]
    seats   = "permute" # ERROR: Too many seatings
    players = 7
  }
  stage "whole_swap" {
    bots  = [bot.a, bot.b, bot.c, bot.d]
    seats = "swap" # ERROR: Swap needs two players
  }
  stage "whole_pairs" { # groups of two: swap seats them
    bots   = [bot.a, bot.b, bot.c, bot.d]
    seats  = "swap"
    groups = 2
  }
  stage "whole_permute" {
    bots  = [top(stage.swap3, 4), top(stage.permute7, 4)]
    seats = "permute" # ERROR: Too many seatings
  }
}

tournament "inherited_seats" {
  game    = game.auction.g
  bots    = [bot.a, bot.b, bot.c]
  seats   = "swap" # ERROR: Swap needs two players
  players = 3
  stage "all" {
  }
}

tournament "gate_twice" {
  game = game.auction.g
  bots = [bot.a, bot.b]
  stage "gate" {
    gate {
      against = [bot.c, bot.c] # ERROR: Bot listed twice
    }
  }
}

tournament "no_match" {
  game  = game.auction.g
  bots  = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f, bot.g, bot.h]
  seats = "fixed"
  stage "a" {
    groups  = 2
    players = 6 # ERROR: Stage plays no match
  }
  stage "b" {
    bots    = [top(stage.a, 2)]
    players = 5 # ERROR: Stage plays no match
  }
  stage "c" {
    bots = [] # ERROR: Stage without bots
  }
}
