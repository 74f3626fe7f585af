# A misspelt block type is reported once: the references to what it
# would declare are not reported again as unknown.
deck "itpw" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
gmae "planowanie" "itpw" { # ERROR: Unsupported block type
  deck  = deck.itpw
  deals = [{ cards = 3, leader = 0 }]
}
bott "b" { house = "planowanie/random" } # ERROR: Unsupported block type
local { # ERROR: Unsupported block type
  players = 2
}
bot "a" { house = "planowanie/random" }
tournament "t" {
  game    = game.planowanie.itpw
  bots    = [bot.a, bot.b]
  players = local.players
}
tournament "u" {
  game    = game.planowanie.other # ERROR: Unknown game
  bots    = [bot.a, bot.c]        # ERROR: Unknown bot
  players = 2
}
