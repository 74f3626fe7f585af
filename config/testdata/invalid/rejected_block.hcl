# A block left out for an error of its own (an unknown driver, a missing
# or extra label, an invalid name) is reported once: the references to
# what it declares are not reported again as undeclared.
deck "itpw" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanei" "itpw" { # ERROR: Unknown game driver
  deck  = deck.itpw
  deals = [{ cards = 3, leader = 0 }]
}
game "other" { # ERROR: Missing name for game
  deck  = deck.itpw
  deals = [{ cards = 3, leader = 0 }]
}
bot "b" "x" { house = "planowanie/random" } # ERROR: Extraneous label for bot
bot "gé" { house = "planowanie/random" } # ERROR: Invalid name
bot "a" { house = "planowanie/random" }
tournament "t" {
  game    = game.planowanie.itpw
  bots    = [bot.a, bot.b]
  players = 2
}
tournament "u" {
  game    = game.planowanie.other
  bots    = [bot.a, bot.gé, bot.gé]
  players = 2
}
tournament "v" {
  game    = game.planowanie.nothing # ERROR: Unknown game driver
  bots    = [bot.a, bot.c]          # ERROR: Unknown bot
  players = 2
}
# A block missing its name does not hide a typo of a declared one.
game "bricks" { # ERROR: Missing name for game
  board { size = 5 }
}
game "bricks" "main" {
  board { size = 5 }
}
bot "k" { house = "bricks/keeper" }
bot "r" { house = "bricks/random" }
tournament "w" {
  game    = game.bricks.mian # ERROR: Unknown game
  bots    = [bot.k, bot.r]
  players = 2
}
