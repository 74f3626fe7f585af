variable "rounds" { # ERROR: No value for required variable
  type = number
}
# A default of the wrong type is that error alone: the variable has a
# default, and what uses it is not reported again.
variable "seats" {
  type    = number
  default = "abc" # ERROR: Invalid default value
}
locals {
  a = local.b # ERROR: Cycle in local values
  b = local.a # ERROR: Cycle in local values
  c = var.nope # ERROR: Unknown variable
  d = [bot.a] # ERROR: Reference not allowed here
}
# What uses a value in error is not reported again: fixing the errors
# above fixes it.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
game "planowanie" "h" {
  deck  = deck.d
  deals = local.a
  clock { total = var.rounds }
}
tournament "u" {
  game    = game.planowanie.h
  bots    = [bot.a, bot.b]
  players = var.seats
  rounds  = var.rounds
  seed    = local.b + 1
}
