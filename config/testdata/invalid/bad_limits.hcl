deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
}
bot "a" {
  house = "planowanie/random"
  limits {
    memory    = "400 megs"    # ERROR: Invalid memory limit
    processes = 0             # ERROR: Invalid processes limit
    networks  = false         # ERROR: Unsupported argument
  }
  limits {                    # ERROR: Duplicate limits block
  }
}
bot "b" {
  house = "planowanie/random"
  limits {
    memory = "1kib" # ERROR: Invalid memory limit
  }
}
bot "c" {
  house = "planowanie/random"
  limits {
    memory = 400 # ERROR: Invalid memory limit
  }
}
bot "d" {
  house = "planowanie/random"
  limits {
    memory = "1MiB"
  }
}
bot "e" {
  house = "planowanie/random"
  limits {
    output = "1B"   # ERROR: Invalid output limit
    files  = "1B"   # a warning only: a bot that writes no file runs
  }
}
bot "f" {
  house = "planowanie/random"
  limits {
    output = "16B"  # a warning only: a Bricks move fits
    files  = "4KiB"
  }
}
bot "h" {
  house = "planowanie/random"
  limits {
    cpu = "100us"   # ERROR: Invalid cpu limit
  }
}
bot "i" {
  house = "planowanie/random"
  limits {
    cpu = "1s"      # the smallest: the kernel counts CPU time in whole seconds
  }
}
bot "g" {
  house = "planowanie/random"
  limits {
    sandbox  = false
    required = ["sandbox"] # ERROR: Invalid required limit
  }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f, bot.g, bot.h, bot.i]
  players = 2
  limits {
    files    = "10XB"             # ERROR: Invalid files limit
    cpu      = "forever"          # ERROR: Invalid cpu limit
    network  = "no"               # ERROR: Invalid network limit
    required = ["memroy", "cpu"]  # ERROR: Invalid required limit
  }
}
