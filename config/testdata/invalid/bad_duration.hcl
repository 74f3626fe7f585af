deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
  clock {
    total = "5 minutes" # ERROR: Invalid duration
    move  = "-1s"       # ERROR: Invalid duration
    turn  = "1us"       # ERROR: Invalid duration
    startup = "2562048h" # ERROR: Invalid duration
  }
}
