# A Blokus tournament (the CTU course rules): the house bots and the three starters.
#   arbiter run . -out results

bot "random" { house = "blokus/random" }
bot "greedy" { house = "blokus/greedy" }
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

game "blokus" "course" {
  board {
    rows = 10
    cols = 10
  }
  stones {
    stone "I1" { cells = [[0, 0]] } # [x, y]: x the column, y the row
    stone "I2" { cells = [[0, 0], [1, 0]] }
    stone "I3" { cells = [[0, 0], [1, 0], [2, 0]] }
    stone "V3" { cells = [[0, 0], [1, 0], [0, 1]] }
    stone "I4" { cells = [[0, 0], [1, 0], [2, 0], [3, 0]] }
    stone "L4" { cells = [[0, 0], [0, 1], [0, 2], [1, 2]] }
    stone "T4" { cells = [[0, 0], [1, 0], [2, 0], [1, 1]] }
    stone "O4" { cells = [[0, 0], [1, 0], [0, 1], [1, 1]] }
    stone "Z4" { cells = [[1, 0], [2, 0], [0, 1], [1, 1]] }
  }
  clock { move = "2s" }
}

tournament "course" {
  game    = game.blokus.course
  bots    = [bot.random, bot.greedy, bot.python, bot.cpp, bot.java]
  format  = "round-robin"
  seats   = "swap"
  players = 2
  rating  = "wins"
  seed    = 1
}
