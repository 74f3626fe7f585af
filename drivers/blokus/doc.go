// Package blokus referees the two-player Blokus of the CTU Prague course
// B3B33ALP (rules and protocol in shared/games/blokus.md).
//
// The package holds the game itself: stones and their rotations, the board
// as bit masks, the rules of a placement and the fast search for legal
// placements that proves a pass honest, the Referee that runs one match over
// any two Players, the house bots, and the decoding of the game block
// (board, stones as cells, ASCII art or a course stones file, clock).
//
// Only the driver wiring (driver.go) starts processes, through drivers/proc;
// the Referee sees bots through the small Player interface, so tests play
// many games in process with the same referee that runs the contest.
package blokus
