// Package bricks is the part of Bricks its house bots need: the board and
// its moves, and the bots themselves. The referee and the configuration
// (drivers/bricks) build on it; it imports nothing heavy, so that a house
// bot's process starts fast (see drivers/house).
package bricks
