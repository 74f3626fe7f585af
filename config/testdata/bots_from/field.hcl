bots_from "field" {
  dir = "players"
}
bot "keeper" { house = "bricks/keeper" }
bot "filler" { house = "bricks/random" }
game "bricks" "b" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.b
  bots    = concat(bots_from.field, [bot.keeper])
  fill    = [bot.filler]
  players = 2
}
