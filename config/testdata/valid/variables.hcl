variable "rounds" {
  type    = number
  default = 3
}
variable "ranks" {
  default = "23456789TJQKA"
}
variable "seed" {
  type = number
}
locals {
  players = 2
  cards   = local.players + 1
  deals   = [for i in range(1, local.cards + 1) : { cards = i, leader = (i - 1) % local.players }]
}
deck "d" {
  ranks = var.ranks
  suits = upper("cdhs")
}
bot "a" { house = "planowanie/random" }
bot "b" {
  command = ["python3", "bot.py"]
  dir     = "bots"
  env     = { LEVEL = "3" }
}
game "planowanie" "g" {
  deck  = deck.d
  deals = local.deals
  clock {
    total = "1m"
    move  = "2s"
  }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  rounds  = var.rounds
  players = local.players
  seats   = "fixed"
  deal    = "per-group"
  seed    = var.seed
}
