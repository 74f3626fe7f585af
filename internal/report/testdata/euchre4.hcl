# One Euchre match of four bots, partners drawn from the seed: which seat
# sits at which position (the partners event) is the replay's to follow.
bot "r1" { house = "euchre/rules" }
bot "r2" { house = "euchre/random" }
bot "r3" { house = "euchre/rules" }
bot "r4" { house = "euchre/random" }
game "euchre" "g" {
  target = 2
}
tournament "euchre4" {
  game    = game.euchre.g
  bots    = [bot.r1, bot.r2, bot.r3, bot.r4]
  players = 4
  seats   = "fixed"
  seed    = 5
}
