# A Euchre tournament: the house bots and the three starters.
#   arbiter run . -out results

bot "random" { house = "euchre/random" }
bot "rules" { house = "euchre/rules" }
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

game "euchre" "koth" {
  target       = 3         # game points that win: a short first run (the challenge played to 10)
  memory       = "per-bot" # one memory file a bot, kept across its matches ("per-position": fresh each match)
  memory_bytes = 1024      # bytes: the most that one file may hold
  clock { move = "3s" }    # per decision; Java needs a moment to start
}

tournament "koth" {
  game    = game.euchre.koth
  bots    = [bot.random, bot.rules, bot.python, bot.cpp, bot.java]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  deal    = "per-group"
  rating  = "wins"
  seed    = 1
}
