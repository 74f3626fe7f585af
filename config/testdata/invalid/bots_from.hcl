bots_from "bad" {
  dir = "players_bad" # ERROR: Invalid player folder, Invalid player folder
}
bots_from "none" {
  dir = "no_such_dir" # ERROR: Cannot read player folders
}
bots_from "twice" { # ERROR: Missing required argument
}
bot "b" { house = "bricks/random" }
game "bricks" "g" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.g
  bots    = concat(bots_from.fild, [bot.b]) # ERROR: Unknown bots_from block
  players = 2
}
