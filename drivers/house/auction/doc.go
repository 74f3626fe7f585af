// Package auction is the part of Auction its house bots need: the cells,
// the seeded queue, and the bots themselves. The referee and the
// configuration (drivers/auction) build on it; it imports nothing heavy,
// so that a house bot's process, started once a move, starts fast (see
// drivers/house).
package auction
