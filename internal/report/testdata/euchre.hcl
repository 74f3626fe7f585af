# One Euchre match of a bot that answers nonsense and writes to stderr at
# every decision: its answers replaced by defaults (see README.md).
bot "rules" { house = "euchre/rules" }
bot "bad" { command = ["sh", "-c", "echo \"bad at $ARBITER_POSITION\" >&2; echo zz"] }
game "euchre" "g" {
  target = 2
  clock { move = "20s" }
}
tournament "euchre" {
  game    = game.euchre.g
  bots    = [bot.rules, bot.bad]
  format  = "round-robin"
  players = 2
  seats   = "fixed"
  seed    = 3
}
