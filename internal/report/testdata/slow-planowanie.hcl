# One Planowanie match of three house bots and the example bot made slow:
# it sleeps 0.7 s before each gen_move from its 4th. Its gen_move goes out
# with the play before it, in one write, so the replay's clock must charge
# it from the play's answer, as arbiter does (see README.md). make.sh puts
# examples/planowanie/bots/simple.py beside this file.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "random" { house = "planowanie/random" }
bot "greedy" { house = "planowanie/greedy" }
bot "random2" { house = "planowanie/random" }
bot "slow" {
  command = ["python3", "-c", <<-EOT
    import time, simple
    asked, gen_move = [0], simple.Game.gen_move
    def slow(game):
        asked[0] += 1
        if asked[0] >= 4:
            time.sleep(0.7)
        return gen_move(game)
    simple.Game.gen_move = slow
    simple.main()
    EOT
  ]
  dir = "."
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 4) : { cards = i, leader = (i - 1) % 4 }]
  clock { total = "1m" }
}
tournament "slow-planowanie" {
  game    = game.planowanie.g
  bots    = [bot.random, bot.greedy, bot.random2, bot.slow]
  players = 4
  seats   = "fixed"
  seed    = 7
}
