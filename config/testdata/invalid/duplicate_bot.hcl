bot "alice" { house = "planowanie/random" }
bot "bob" { house = "planowanie/random" }
bot "alice" { house = "planowanie/greedy" } # ERROR: Duplicate bot
