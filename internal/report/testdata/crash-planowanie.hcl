# One Planowanie match whose seat 0 writes 3,003 bytes of two-byte
# characters to stderr, waits 0.4 s and exits, without answering set_deck:
# the other seats, whose set-up commands are left unanswered, are charged
# nothing, and the page's 2 KiB of its stderr begin at a character.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "random" { house = "planowanie/random" }
bot "greedy" { house = "planowanie/greedy" }
bot "random2" { house = "planowanie/random" }
bot "crash" {
  command = ["python3", "-c", <<-EOT
    import os, sys, time
    sys.stderr.write("é" * 1500 + "\na\n")
    sys.stderr.flush()
    time.sleep(0.4)
    os._exit(2)
    EOT
  ]
  dir = "."
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 1, leader = 0 }]
  clock { total = "1m" }
}
tournament "crash-planowanie" {
  game    = game.planowanie.g
  bots    = [bot.crash, bot.random, bot.greedy, bot.random2]
  players = 4
  seats   = "fixed"
  seed    = 7
}
