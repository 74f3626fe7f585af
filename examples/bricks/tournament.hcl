# The Bricks contest as the original was played: a 5×5 board with one
# filled cell, the original's clocks, players imported from folders in the
# original's format (players/<name>/info.txt: command, nick).
#
#   go run ./cmd/arbiter run examples/bricks -out results/bricks
#
# Besides arbiter's own results, results/bricks holds the original's
# duels.txt, score.txt, err.txt and duels/<index>.txt.

bots_from "field" {
  dir = "players" # every folder with an info.txt is a player
}

bot "keeper" {
  house = "bricks/keeper"
  nick  = "KEEPER"
}
bot "random" {
  house = "bricks/random"
  nick  = "RANDOM"
}

game "bricks" "contest" {
  board {
    size   = 5
    filled = [[3, 1]] # [column, row], from 0
  }
  # The original's limits (these are the defaults): OK within startup,
  # a move within move, any answer at all within silence.
  clock {
    startup = "1s"
    move    = "500ms"
    silence = "5s"
  }
}

# The original's format: every ordered pair plays once, so every pair
# meets twice and each bot starts once against each other bot, in the
# original's order (order = "by-seat", Bricks's default: each first
# player's opponents in turn); all duels on the same board. Standings by wins, then normal wins, then fewer
# fault losses (the original's score.txt order), with BayesElo beside.
tournament "contest" {
  game    = game.bricks.contest
  bots    = concat(bots_from.field, [bot.keeper, bot.random])
  format  = "round-robin"
  seats   = "swap"
  players = 2
  rating  = "wins"
  seed    = 2018
}
