// Package blokus is the part of Blokus its house bots need: the board,
// the stones, the rules, and the bots themselves. The referee and the
// configuration (drivers/blokus) build on it; it imports nothing heavy,
// so that a house bot's process starts fast (see drivers/house).
package blokus
