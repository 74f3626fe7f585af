bot "a/b" { house = "planowanie/random" } # ERROR: Invalid name
bot "_x" { house = "planowanie/random" } # ERROR: Invalid name
bot "1x" { house = "planowanie/random" } # ERROR: Invalid name
bot "x_1-b" { house = "planowanie/random" }
