# One Planowanie match of four house bots, four deals: every card's
# protocol lines (broadcast to all seats, the next player's gen_move with
# them) are the replay's to attribute to the card (see README.md).
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "random" { house = "planowanie/random" }
bot "greedy" { house = "planowanie/greedy" }
bot "random2" { house = "planowanie/random" }
bot "greedy2" { house = "planowanie/greedy" }
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 5) : { cards = i, leader = (i - 1) % 4 }]
  clock { total = "1m" }
}
tournament "planowanie" {
  game    = game.planowanie.g
  bots    = [bot.random, bot.greedy, bot.random2, bot.greedy2]
  players = 4
  seats   = "fixed"
  seed    = 7
}
