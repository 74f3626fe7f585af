# Fibot 4's season as the organisers ran it (../shared/seeds/auction-fibot4.txt,
# section 3): a qualification tournament, then a final tournament, each in
# stages. 24 teams here, played by copies of arbiter's four house bots (the
# contest's sample strategies tym96-tym99); put your own bots in their place.
#
#   arbiter validate examples/fibot
#   arbiter plan     examples/fibot
#   arbiter run      examples/fibot -out results/fibot4
#
# The stages, and the rule of the seed each follows:
#   qualification  "4 základní skupiny po 6 týmech": 4 groups of 6, drawn at random.
#   fifth          "Týmy na 5. místech se utkají v doplňující skupině o zbývající
#                  2 místa": the 5th places play for the last 2 places of the final.
#   qual_final     "Nejlepší z každé skupiny postupuje do finále klasifikace": the
#                  group winners; it only seeds the final tournament's groups.
#   final_groups   "3 základní skupiny po 6 týmech. Rozdělení do skupin bude dle
#                  výsledků kvalifikace": the 4 best of each group and the 2 best
#                  fifths, seeded by the qualification (the qualification final's
#                  order first, then 2nd places, 3rd, 4th, then the fifths) and
#                  dealt snake-wise into 3 groups.
#   final          "Z každé skupiny postupují 2 nejúspěšnější do finále": 6 teams.
#
# Every match seats the whole group (players is left out), and a group ranks
# by mean place over its games ("Všechna pořadí se zprůměrují"). The seed's
# "about 10 games per group" is rounds = 10; 3 here, so the example runs in a
# few minutes.
#
# "Pokud bude mít více strategií stejné průměrné pořadí, proběhne doplňující
# zápas" (a tie on mean place is settled by an extra match): each stage plays
# off the ties of its groups (playoff-<stage>-<group>-<k>-*, up to 3 per
# stage) before the next stage picks from it. With seed 2008 (and the house
# bots' bids as this arbiter seeds them; `grep playoff` the run's
# arbiter.log), qualification group B has two ties: tym06 and tym23 at the
# 2nd place (tym06 wins their playoff), and tym18 and tym22 at the 4th:
# tym18 wins and goes to the final tournament, tym22 to the group of 5th
# places, which it wins, so it reaches the final groups all the same. In
# group D, tym04 and tym20 tie at the 3rd place: their first playoff is a
# draw, tym04 wins the second. tym02 and tym03 play off the qualification
# final's win, each of the 3 final groups plays off ties, and the final's
# tie at the top goes to tym06 by its playoff (by Elo it would have been
# tym16's). Bots no playoff separates (identical bots) go by Elo, then name,
# and the run's log, arbiter rank and standings.txt name each cut of a pick
# decided so ("Cuts no playoff settled"; docs/stages.md).

bot "tym01" { house = "auction/random" }
bot "tym02" { house = "auction/share" }
bot "tym03" { house = "auction/square" }
bot "tym04" { house = "auction/neighbour" }
bot "tym05" { house = "auction/random" }
bot "tym06" { house = "auction/share" }
bot "tym07" { house = "auction/square" }
bot "tym08" { house = "auction/neighbour" }
bot "tym09" { house = "auction/random" }
bot "tym10" { house = "auction/share" }
bot "tym11" { house = "auction/square" }
bot "tym12" { house = "auction/neighbour" }
bot "tym13" { house = "auction/random" }
bot "tym14" { house = "auction/share" }
bot "tym15" { house = "auction/square" }
bot "tym16" { house = "auction/neighbour" }
bot "tym17" { house = "auction/random" }
bot "tym18" { house = "auction/share" }
bot "tym19" { house = "auction/square" }
bot "tym20" { house = "auction/neighbour" }
bot "tym21" { house = "auction/random" }
bot "tym22" { house = "auction/share" }
bot "tym23" { house = "auction/square" }
bot "tym24" { house = "auction/neighbour" }

game "auction" "fibot" {
  # The contest's three public boards, round r playing board (r-1) mod 3.
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
  board "long" {
    cols    = 12
    rows    = 4
    capital = 300
  }
  idle_rounds = 10
  clock { move = "3s" }
}

tournament "fibot4" {
  game   = game.auction.fibot
  bots   = [bot.tym01, bot.tym02, bot.tym03, bot.tym04, bot.tym05, bot.tym06, bot.tym07, bot.tym08, bot.tym09, bot.tym10, bot.tym11, bot.tym12, bot.tym13, bot.tym14, bot.tym15, bot.tym16, bot.tym17, bot.tym18, bot.tym19, bot.tym20, bot.tym21, bot.tym22, bot.tym23, bot.tym24]
  rounds = 3       # games per group in every stage (the seed: about 10)
  seats  = "fixed" # one match per round; letters follow the seating
  rating = "placement"
  seed   = 2008

  stage "qualification" {
    groups = 4 # the tournament's bots, split at random
  }
  stage "fifth" {
    bots = [places(stage.qualification, 5, 5)]
  }
  stage "qual_final" {
    bots = [winners(stage.qualification)]
  }
  stage "final_groups" {
    bots   = [places(stage.qual_final, 1, 4), top(stage.qualification, 4), top(stage.fifth, 2)]
    groups = 3
    split  = "seeded"
  }
  stage "final" {
    bots = [top(stage.final_groups, 2)]
  }
}
