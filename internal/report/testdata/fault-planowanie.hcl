# One Planowanie match that a fault ends in the middle of a trick: in the
# second deal, led by seat 0, qmark (seat 1) answers ? to its second
# gen_move, after seat 0 has played. slowquit takes 0.3 s to answer quit,
# which no clock charges. make.sh puts
# examples/planowanie/bots/simple.py beside this file.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "random" { house = "planowanie/random" }
bot "greedy" { house = "planowanie/greedy" }
bot "qmark" {
  command = ["python3", "-c", <<-EOT
    import simple
    asked, gen_move = [0], simple.Game.gen_move
    def qmark(game):
        asked[0] += 1
        if asked[0] >= 2:
            raise ValueError("no card for you")
        return gen_move(game)
    simple.Game.gen_move = qmark
    simple.main()
    EOT
  ]
  dir = "."
}
bot "slowquit" {
  command = ["python3", "-c", <<-EOT
    import time, simple
    simple.Game.quit = lambda game: time.sleep(0.3)
    simple.main()
    EOT
  ]
  dir = "."
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 1, leader = 0 }, { cards = 2, leader = 0 }]
  clock { total = "1m" }
}
tournament "fault-planowanie" {
  game    = game.planowanie.g
  bots    = [bot.random, bot.greedy, bot.qmark, bot.slowquit]
  players = 4
  seats   = "fixed"
  seed    = 7
}
