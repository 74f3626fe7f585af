# An Auction (Fibot) tournament: the house strategies and the three starters.
#   arbiter run . -out results

bot "random" { house = "auction/random" }
bot "share" { house = "auction/share" }
bot "neighbour" { house = "auction/neighbour" }
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
  dir   = "java"
  build = ["javac", "Bot.java"]
  # The contest allows 16 tasks (processes and threads) a bot: a JVM with
  # its default collector and compilers has more, these keep it at 13;
  # -Xmx75m keeps its heap under its memory limit of 100MiB.
  command = ["java", "-Xmx75m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-cp", ".", "Bot"]
}

game "auction" "fibot" {
  board "small" {
    cols    = 5
    rows    = 5
    capital = 40
  }
  board "wide" {
    cols    = 10
    rows    = 8
    capital = 1000
  }
  idle_rounds = 10
  clock { move = "3s" } # the contest allowed 1s; Java needs a moment to start
}

tournament "fibot" {
  game    = game.auction.fibot
  bots    = [bot.random, bot.share, bot.neighbour, bot.python, bot.cpp, bot.java]
  rounds  = 4
  players = 6
  seats   = "fixed"
  rating  = "placement"
  seed    = 1
}
