# A larger board: 9×9 drawn as a map, plus 6 cells drawn at random.
# Changing the board is an edit here, nothing else:
#   go run ./cmd/arbiter run examples/bricks/large -out results/bricks-large

bots_from "field" {
  dir = "../players"
}

bot "keeper" {
  house = "bricks/keeper"
  nick  = "KEEPER"
}
bot "random" {
  house = "bricks/random"
  nick  = "RANDOM"
}

game "bricks" "large" {
  board {
    # '#' filled, '.' empty; one line per row, top row first.
    map    = <<-EOT
      .........
      .#.....#.
      .........
      ...#.#...
      ....#....
      ...#.#...
      .........
      .#.....#.
      .........
      EOT
    random = 6  # more filled cells, drawn among the free ones
    seed   = 42 # the draw's seed: the same board in every duel and every run
  }
}

tournament "large" {
  game    = game.bricks.large
  bots    = concat(bots_from.field, [bot.keeper, bot.random])
  format  = "round-robin"
  seats   = "swap"
  players = 2
  rounds  = 2 # the whole round robin twice
  rating  = "wins"
  seed    = 9
}
