# A bot's env cannot set what arbiter sets for it, nor names the
# environment would read differently.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
}
locals {
  bad = { "A=B" = "1" }
}
bot "a" {
  house = "planowanie/random"
  env = {
    LEVEL         = "3"
    ARBITER_SEED  = "7"   # ERROR: Invalid environment variable
    "ARBITER_NEW" = "x"   # ERROR: Invalid environment variable
    "X=Y"         = "1"   # ERROR: Invalid environment variable
    ""            = "1"   # ERROR: Invalid environment variable
    "NUL"         = "a\u0000b" # ERROR: Invalid environment variable
    arbiter_ok    = "lower case is the bot's own"
  }
}
bot "b" {
  house = "planowanie/random"
  env   = local.bad # ERROR: Invalid environment variable
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
}
