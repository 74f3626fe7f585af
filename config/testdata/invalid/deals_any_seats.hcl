# A deal no seating can play is reported with the game, whatever the
# tournaments: 99 cards each is more than the deck holds even for the
# fewest players a game has (2), and a leader is at most the largest
# seating the deals allow (52 / 13 = 4 players: seats 0 to 3). The
# tournament's own mistakes do not hide them.
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "a" { house = "planowanie/greedy" }
game "planowanie" "g" {
  deck = deck.d
  deals = [
    { cards = 99, leader = 0 }, # ERROR: Invalid deal
    { cards = 13, leader = 4 }, # ERROR: Invalid deal
    { cards = 1, leader = 3 },
  ]
  clock { total = "1m" }
}
deck "small" {
  ranks = "9TJQKA"
  suits = "CDHS"
}
# The deals a for expression makes are one mistake at it: 13 cards each
# are more than 24 cards hold for 2 players, and with 12 at most 2
# players can play, so leaders 2 and 3 are no seat.
game "planowanie" "itpw" {
  deck  = deck.small
  deals = [for i in range(1, 14) : { cards = i, leader = (i - 1) % 4 }] # ERROR: Invalid deal
  clock { total = "1m" }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.nobody] # ERROR: Unknown bot
  players = "four" # ERROR: Invalid players
  seats   = "shuffle" # ERROR: Invalid seats
}
