package euchre

import (
	"fmt"
	"slices"
	"strings"
)

// Settings are a Euchre game's options, as recorded in the plan.
type Settings struct {
	// Target is the game points that win the game.
	Target int `json:"target"`
	// FirstDealer is the position that deals the first hand.
	FirstDealer int `json:"first_dealer"`
	// MaxHands ends a game that has not reached the target after this many
	// hands (thrown-in hands count): bots that always pass would otherwise
	// play forever.
	MaxHands int `json:"max_hands"`
	// Memory is the most bytes a bot may keep in its one file between runs.
	Memory int64 `json:"memory"`
	// MemoryScope is whose the memory file is: PerBot, one file for each
	// bot that persists across its matches (the challenge's), or
	// PerPosition, a fresh file for each position of each match. Empty,
	// in a plan written before the choice existed, is PerPosition.
	MemoryScope string `json:"memory_scope,omitempty"`
	// DealsApart, with PerBot, keeps a bot's memory from passing between
	// its matches on the same deals (the same seed: the seatings of a
	// group under deal = "per-group", a round's matches under
	// "per-round"), where what it wrote in one would be its opponents'
	// hands in the next: each of them starts from the memory the bot had
	// before the first of them, and the last of them in plan order passes
	// its memory on (drivers.DealCarrier). False, in a plan written
	// before the rule, hands memory from every match to the next.
	// Without PerBot it means nothing (no memory passes between matches).
	DealsApart bool `json:"memory_deals_apart,omitempty"`
	// CrashAfterAnswer makes a bot that exits with a failing status, or
	// dies by a signal arbiter did not send, after printing its answer a
	// crash (the spec's): the phase's default is used, not the answer,
	// and a trick message so ended is a fault too. Arbiter's own kill
	// after the grace an answered bot has to exit is not the bot's crash.
	// False, in a plan written before the rule, takes the answer and
	// ignores how the bot ended, so that such a plan resumes and replays
	// as it was played.
	CrashAfterAnswer bool `json:"crash_after_answer,omitempty"`
	// MemoryReadable makes a memory file arbiter cannot open (its bot
	// took its permissions away, chmod 0 m, where arbiter is not root)
	// break the memory rule, its folder emptied: the bot's next match
	// could not start from a copy of it, and the run stopped there at
	// every resume. False, in a plan written before the rule, keeps such
	// a file as it was kept, so that such a plan resumes and replays as
	// it was played.
	MemoryReadable bool `json:"memory_readable,omitempty"`
	// MemoryMetadata makes what a bot keeps in its memory folder's and
	// its file's metadata, read back at its next decision beside the
	// rule's one file of at most Memory bytes, break the memory rule, its
	// folder emptied and made again: extended attributes (user.*, up to
	// about 4 KB an inode on ext4) and ACLs other than those inherited
	// from the folder's parent (named users' ids, about 2 KB). And it
	// sets their modes and access and modification times, which the bot
	// may set to numbers of its own, back after every run: the folder's
	// mode to what arbiter makes it with, the file's to 0644, the times
	// to the Unix epoch. False, in a plan written before the rule, leaves
	// all of them, so that such a plan resumes and replays as it was
	// played.
	MemoryMetadata bool `json:"memory_metadata,omitempty"`
}

// Memory scopes (Settings.MemoryScope).
const (
	PerBot      = "per-bot"
	PerPosition = "per-position"
)

// DefaultSettings are the challenge's rules.
func DefaultSettings() Settings {
	return Settings{Target: 10, FirstDealer: 0, MaxHands: 200, Memory: 1024, MemoryScope: PerBot, DealsApart: true, CrashAfterAnswer: true, MemoryReadable: true, MemoryMetadata: true}
}

// perBot says whether each bot keeps one memory file across its matches.
func (s Settings) perBot() bool { return s.MemoryScope == PerBot }

// The bounds of the settings, in a game block and in a plan alike.
const (
	MaxTarget = 1000
	MaxHands  = 100000
	MaxMemory = 1 << 30
)

// Validate says what is wrong with s, or returns nil: what DecodeGame
// refuses in a game block, for settings read back from a plan.
func (s Settings) Validate() error {
	var errs []string
	if s.Target < 1 || s.Target > MaxTarget {
		errs = append(errs, fmt.Sprintf("target is %d, but a game is played to 1 to %d points", s.Target, MaxTarget))
	}
	if s.FirstDealer < 0 || s.FirstDealer > 3 {
		errs = append(errs, fmt.Sprintf("first_dealer is %d, but positions are 0 to 3", s.FirstDealer))
	}
	if s.MaxHands < 1 || s.MaxHands > MaxHands {
		errs = append(errs, fmt.Sprintf("max_hands is %d, but a game has 1 to %d hands", s.MaxHands, MaxHands))
	}
	if s.Memory < 0 || s.Memory > MaxMemory {
		errs = append(errs, fmt.Sprintf("memory is %d, but a memory file holds 0 to %d bytes", s.Memory, MaxMemory))
	}
	if s.MemoryScope != "" && s.MemoryScope != PerBot && s.MemoryScope != PerPosition {
		errs = append(errs, fmt.Sprintf("memory_scope is %q, but a memory file is %q or %q", s.MemoryScope, PerBot, PerPosition))
	}
	if errs != nil {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// Team is the team of position p: positions 0 and 2 are team 0.
func Team(p int) int { return p % 2 }

// HandScore is what a hand is worth: makers with 3 or 4 tricks get 1, all
// five 2 (4 when one of them played alone); makers with fewer than 3 are
// euchred and the defenders get 2.
func HandScore(makerTricks int, alone bool) (makers, defenders int) {
	switch {
	case makerTricks < 3:
		return 0, 2
	case makerTricks < 5:
		return 1, 0
	case alone:
		return 4, 0
	}
	return 2, 0
}

// Input is the text a bot gets on stdin: its hand, its team's game points
// and tricks in this hand, the phase and the phase's own lines, each line
// ending in a newline.
func Input(hand []Card, points, tricks int, phase Phase, lines ...string) string {
	var b strings.Builder
	b.WriteString(FormatCards(hand))
	fmt.Fprintf(&b, "\n%d\n%d\n%s\n", points, tricks, phase)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// Normalize is how every answer is read: trimmed and lower-cased.
func Normalize(answer string) string { return strings.ToLower(strings.TrimSpace(answer)) }

// checkOrder checks an answer in the ordering round; problem is empty when
// a is valid.
func checkOrder(a string) (problem string) {
	if a == "o" || a == "p" {
		return ""
	}
	return fmt.Sprintf("answered %q, but the ordering round's answer is o or p", a)
}

// checkName checks an answer in the naming round, in which the turned-down
// suit may not be named.
func checkName(a string, down Suit) (problem string) {
	if a == "p" {
		return ""
	}
	s, ok := ParseSuit(a)
	switch {
	case !ok:
		return fmt.Sprintf("answered %q, but the naming round's answer is p or a suit (c, s, h, d)", a)
	case s == down:
		return fmt.Sprintf("named %s, the turned-down suit", a)
	}
	return ""
}

// checkDiscard checks the dealer's discard: a card of its hand or the upcard.
func checkDiscard(a string, hand []Card, up Card) (problem string) {
	c, ok := ParseCard(a)
	switch {
	case !ok:
		return fmt.Sprintf("answered %q, which is not a card (like js)", a)
	case c != up && !slices.Contains(hand, c):
		return fmt.Sprintf("discarded %s, which is neither in its hand (%s) nor the upcard %s", a, FormatCards(hand), up)
	}
	return ""
}

func checkAlone(a string) (problem string) {
	if a == "y" || a == "n" {
		return ""
	}
	return fmt.Sprintf("answered %q, but the answer to going alone is y or n", a)
}

// checkPlay checks a card played to a trick whose first card is first
// (NoCard when the bot leads).
func checkPlay(a string, hand, legal []Card, trump Suit, first Card) (problem string) {
	c, ok := ParseCard(a)
	switch {
	case !ok:
		return fmt.Sprintf("answered %q, which is not a card (like js)", a)
	case !slices.Contains(hand, c):
		return fmt.Sprintf("played %s, which is not in its hand (%s)", a, FormatCards(hand))
	case !slices.Contains(legal, c):
		// Say which suit was led and which cards follow it, bowers
		// included, so that an author sees the rule the bot broke.
		lead, led := first.String(), "a "+suitNames[first.Follows(trump)]
		if first.IsLeft(trump) {
			lead += ", the left bower,"
		}
		if first.Follows(trump) == trump {
			led = "a trump"
		}
		p := fmt.Sprintf("played %s but must follow suit: the lead %s is %s (trump %s), and it holds %s", a, lead, led, trump, FormatCards(legal))
		if c.IsLeft(trump) || slices.ContainsFunc(legal, func(l Card) bool { return l.IsLeft(trump) }) {
			p += fmt.Sprintf("; the left bower, j%s, is a trump, not a %s", trump.Sister(), suitNames[trump.Sister()])
		}
		return p
	}
	return ""
}

// suitNames are the suits' names in a sentence, by suit.
var suitNames = func() map[Suit]string {
	m := map[Suit]string{}
	for _, n := range []string{"club", "spade", "heart", "diamond"} {
		s, _ := ParseSuit(n[:1])
		m[s] = n
	}
	return m
}()
