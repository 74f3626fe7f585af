package drivers

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
)

// botSeedDomain keeps BotSeed's hashes apart from any other use of
// SHA-256 over a seed; changing it changes every bot's seed.
const botSeedDomain = "arbiter bot seed v1\x00"

// BotSeed is the seed a bot in seat of a match whose deal seed is match
// gets (ARBITER_SEED): the first 8 bytes of SHA-256 over a fixed domain,
// the match seed and the seat, with the top bit cleared, so that it is
// 0 to 2^63−1 and fits a signed 64-bit integer (Java's Long.parseLong,
// C's strtoll refuse more). The match seed is what the referee deals
// from, with public algorithms, so a bot that had it could compute every
// player's hand; from BotSeed's value it cannot be found again (the hash
// is one-way) unless the tournament seed it follows from can be guessed
// and tried (docs/configuration.md, "Keeping the seed secret"), and the
// seats of a match get different values. It depends
// on nothing but its arguments, so it is the same on every machine and
// with every -j, and a bot seeded by it replays its match exactly.
func BotSeed(match uint64, seat int) uint64 {
	var b [len(botSeedDomain) + 16]byte
	n := copy(b[:], botSeedDomain)
	binary.BigEndian.PutUint64(b[n:], match)
	binary.BigEndian.PutUint64(b[n+8:], uint64(seat))
	sum := sha256.Sum256(b[:])
	return binary.BigEndian.Uint64(sum[:8]) &^ (1 << 63)
}

// BotEnv is what arbiter adds to the environment of the bot in seat of
// match id with deal seed seed, in every place a bot plays a match or its
// part of one (a run, a worker's, console): ARBITER_MATCH, ARBITER_SEAT
// and ARBITER_SEED, which is BotSeed's, never the deal seed itself.
func BotEnv(id string, seat int, seed uint64) []string {
	return []string{
		"ARBITER_MATCH=" + id,
		"ARBITER_SEAT=" + strconv.Itoa(seat),
		"ARBITER_SEED=" + strconv.FormatUint(BotSeed(seed, seat), 10),
	}
}
