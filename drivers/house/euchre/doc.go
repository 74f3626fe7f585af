// Package euchre is the part of Euchre its house bots need: the cards, a
// bot's reading of its input, the deals, and the bots themselves. The
// referee and the configuration (drivers/euchre) build on it; it imports
// nothing heavy, so that a house bot's process, started once a decision,
// starts fast (see drivers/house).
package euchre
