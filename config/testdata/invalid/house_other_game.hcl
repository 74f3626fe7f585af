# A house bot plays only its own game: another game's would crash every
# match it is in.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
  clock { total = "1m" }
}
bot "keeper" { house = "bricks/keeper" }
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
bot "c" { house = "bricks/random" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.keeper] # ERROR: House bot of another game
  fill    = [bot.c, bot.b]      # ERROR: House bot of another game
  players = 2
}
tournament "staged" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  stage "gate" {
    gate { against = [bot.keeper] } # ERROR: House bot of another game
  }
  stage "final" { bots = [admitted(stage.gate)] }
}
