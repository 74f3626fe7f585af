# A Bricks tournament: the house bots and the three starters.
#   arbiter run . -out results

bot "keeper" { house = "bricks/keeper" }
bot "random" { house = "bricks/random" }
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

game "bricks" "contest" {
  board {
    size   = 7
    filled = [[3, 1]] # [column, row], from 0
  }
  clock {
    startup = "2s"    # OK within (the original: 1s; Java needs a moment to start)
    move    = "500ms" # a move within
    silence = "5s"    # any answer at all within
  }
}

tournament "contest" {
  game    = game.bricks.contest
  bots    = [bot.keeper, bot.random, bot.python, bot.cpp, bot.java]
  format  = "round-robin"
  seats   = "swap"
  players = 2
  rating  = "wins"
  seed    = 1
}
