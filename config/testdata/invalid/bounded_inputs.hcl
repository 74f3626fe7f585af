# Files a configuration reads stop at 16 MiB (userfile.Limit) with a
# diagnostic naming the file, here after 16 MiB of /dev/zero.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/random" }
locals {
  big = file("/dev/zero") # ERROR: Invalid function argument
}
bots_from "zero" {
  dir = "players_zero" # ERROR: Invalid player folder
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  seed    = length(file("/dev/zero")) # ERROR: Invalid function argument
}
