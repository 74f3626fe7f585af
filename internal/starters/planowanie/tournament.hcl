# A Planowanie (ITPW) tournament: the house bots and the three starters.
#   arbiter run . -out results

bot "random" { house = "planowanie/random" }
bot "greedy" { house = "planowanie/greedy" }
bot "filler1" { house = "planowanie/random" }
bot "filler2" { house = "planowanie/greedy" }
bot "python" {
  dir     = "python"
  command = ["python3", "bot.py"]
}
bot "cpp" {
  dir     = "cpp"
  build   = ["g++", "-O2", "-o", "bot", "bot.cpp"] # run once, before its first match
  command = ["./bot"]
}
bot "java" {
  dir     = "java"
  build   = ["javac", "Bot.java"]
  command = ["java", "-Xmx300m", "-cp", ".", "Bot"] # a heap under its memory limit of 400MiB
}

deck "itpw" {
  ranks = "23456789TJQKA" # ascending
  suits = "CDHS"          # the first suit is trump
}

game "planowanie" "itpw" {
  deck  = deck.itpw
  deals = [for i in range(1, 14) : { cards = i, leader = (i - 1) % 4 }]
  clock { total = "5m" } # per bot, whole game
}

tournament "itpw" {
  game    = game.planowanie.itpw
  bots    = [bot.random, bot.greedy, bot.python, bot.cpp, bot.java]
  fill    = [bot.filler1, bot.filler2] # complete groups of four
  rounds  = 10
  players = 4
  seats   = "rotate"
  deal    = "per-round"
  seed    = 1
}
