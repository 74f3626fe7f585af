// Package euchre referees Euchre as the code-golf King-of-the-Hill challenge
// played it: four players in two teams, 24 cards, and a bot that is started
// afresh for every decision, reads its input on stdin and prints one line
// (../shared/games/euchre.md is the specification).
//
// A plan's match has two seats, one per team: seat 0 plays positions 0 and
// 2, seat 1 positions 1 and 3, each position running its own copy of the
// seat's bot (or four seats, partnered from the seed). A bot's memory
// folder is its own across its matches, carried by the engine in plan
// order (memory = "per-bot", the challenge's way; matches on the same
// deals all start from the memory before the first of them, so that none
// tells a bot its opponents' hands), or private to each
// position of a match ("per-position"). An invalid, late or missing
// answer gets the phase's default and is counted against the bot; it never
// ends the match.
//
// The package knows the game and its protocol; it knows nothing of
// scheduling (the engine's job) and starts processes only through
// drivers/proc.
package euchre
