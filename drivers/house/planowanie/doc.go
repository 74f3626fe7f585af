// Package planowanie is the part of Planowanie its house bots need: the
// cards and rules, the deals, and the bots themselves. The referee and the
// configuration (drivers/planowanie) build on it; it imports nothing
// heavy, so that a house bot's process starts fast (see drivers/house).
package planowanie
