bot "a/b" { house = "planowanie/random" } # ERROR: Invalid name
