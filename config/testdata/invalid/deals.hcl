# Each deal's problem points at the deal, counted from 1 as the rules'
# own messages count them (see TestDealsCountFromOne).
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck = deck.d
  deals = [
    { cards = 3, leader = 0 },
    { cards = 2 },             # ERROR: Invalid deal
    { cards = 0, leader = 1 }, # ERROR: Invalid deal
    { cards = 1, leadr = 1 },  # ERROR: Invalid deal
    { cards = 1, leader = 1, extra = 3 }, # ERROR: Invalid deal
  ]
  clock { total = "1m" }
}
game "planowanie" "h" {
  deck  = deck.d
  deals = 5 # ERROR: Invalid deals
  clock { total = "1m" }
}
