// Package bricks is the driver of Bricks ("Cegiełki", Warsaw University of
// Technology): two players alternately place 2×1 dominoes on an n×n board
// with some cells filled beforehand; whoever makes the last move wins.
//
// The rules and the line protocol follow ../shared/games/bricks.md: the
// board message ("7_2x3_4x5"), "OK" within the start-up limit, "START",
// moves "AxB_CxD", "STOP" at the end, and the original referee's fault
// codes N, M, P, T, K, D and S. The package also writes the original
// referee's files (duels.txt, score.txt, err.txt, duels/<index>.txt), so
// that users of the original keep their tools.
//
// It knows nothing of tournaments or scheduling: a match is one duel.
package bricks
