package planowanie

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/drivertest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// Faulty bot modes: each speaks the protocol correctly, playing a legal
// card and declaring 0, until the misbehaviour its mode names.
const (
	modeSlow      = "slow"      // sleeps past its clock at its first gen_move of deal 2
	modeMute      = "mute"      // never answers gen_declare
	modeWrongSuit = "wrongsuit" // discards off-suit while holding the led suit
	modeGarbage   = "garbage"   // answers gen_declare with a line that is no response
	modeCrash     = "crash"     // exits with status 3 at its 3rd gen_move
	// Not faults of the suite's: their tests are process_test.go's.
	modeTwice     = "twice"     // answers gen_declare of deal 2 twice, the second in a write of its own
	modeTwiceSlow = "twiceslow" // twice, thinking outOfStepThink over each gen_move from deal 2 on
	modeTwiceMove = "twicemove" // answers its first gen_move of deal 2 with "= ZZ", then its card, in one write
	modeNoQuit    = "noquit"    // answers quit with "? not now"
	modeSlowQuit  = "slowquit"  // answers quit after slowQuitSleep
)

// outOfStepThink is how long the twiceslow bot thinks over a card: more
// than the 100 ms arbiter once waited for the answer after a faulted
// one, well within a second.
const outOfStepThink = 300 * time.Millisecond

// slowQuitSleep is how long the slowquit bot takes to answer quit: more
// than the 100 ms arbiter once waited for it, well within the half
// second a bot has to end.
const slowQuitSleep = 150 * time.Millisecond

// slowSleep is how long the slow bot thinks: well over the 1s move cap.
const slowSleep = 3 * time.Second

func init() {
	for _, mode := range []string{modeSlow, modeMute, modeWrongSuit, modeGarbage, modeCrash, modeTwice, modeTwiceSlow, modeTwiceMove, modeNoQuit, modeSlowQuit} {
		testbot.Register(mode, func([]string) int { return runFaultyBot(mode) })
	}
}

// shortGame is three deals of 1 to 3 cards: time-outs come cheap.
func shortGame() Settings {
	s := Settings{Deck: TournamentDeck()}
	for i := range 3 {
		s.Deals = append(s.Deals, DealSpec{Cards: i + 1, Leader: i})
	}
	return s
}

// longGame has long hands, so that the wrongsuit bot's chance to discard
// off-suit while holding the led suit comes in every seat (with 1 to 3
// cards it may never come).
func longGame() Settings {
	s := Settings{Deck: TournamentDeck()}
	for i := range 3 {
		s.Deals = append(s.Deals, DealSpec{Cards: 11 + i, Leader: i})
	}
	return s
}

// TestConformance runs the driver conformance suite on Planowanie.
func TestConformance(t *testing.T) {
	bot := func(name string) []string { return testbot.Argv(t, name) }
	drivertest.Run(t, drivertest.Suite{
		Driver:   Driver{},
		Settings: shortGame(),
		Seats:    4,
		Clock:    drivers.Clock{Total: drivers.Duration(2 * time.Second), Move: drivers.Duration(time.Second)},
		// The limit cases' spinning bot must be killed by its CPU limit
		// before its clock runs out.
		LimitClock: drivers.Clock{Move: drivers.Duration(time.Minute)},
		House:      [][]string{bot(testbot.HouseName("greedy")), bot(testbot.HouseName("random"))},
		Timings:    regexp.MustCompile(`^time_left \d+$`),
		Faults: []drivertest.Fault{
			{Name: "slow", Bot: bot(modeSlow), Kind: drivers.FaultTime, Detail: regexp.MustCompile(`gen_move in deal 2\b`)},
			{Name: "mute", Bot: bot(modeMute), Kind: drivers.FaultTime, Detail: regexp.MustCompile(`gen_declare in deal 1\b`)},
			{Name: "wrongsuit", Bot: bot(modeWrongSuit), Kind: drivers.FaultIllegal, Settings: longGame(),
				Detail: regexp.MustCompile(`must follow suit`)},
			{Name: "garbage", Bot: bot(modeGarbage), Kind: drivers.FaultProtocol,
				Detail: regexp.MustCompile(`must start with .*gen_declare`)},
			{Name: "crash", Bot: bot(modeCrash), Kind: drivers.FaultCrash, Detail: regexp.MustCompile(`status 3.*gen_move in deal 2\b`)},
			{Name: "missing", Bot: []string{"/nonexistent/planowanie-bot"}, Kind: drivers.FaultStart},
		},
	})
}

// runFaultyBot speaks the Planowanie protocol correctly, playing a legal
// card and declaring 0, until the misbehaviour its mode names.
func runFaultyBot(mode string) int {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	reply := func(s string) {
		fmt.Fprintf(out, "= %s\n\n", s)
		out.Flush()
	}
	// readForever reads and answers nothing until the referee closes our
	// input, then waits to be killed.
	readForever := func() int {
		for in.Scan() {
		}
		time.Sleep(time.Hour)
		return 0
	}
	var (
		n     = 4
		hand  []string
		trick []string // cards laid in the current trick, in order of play
		deal  int      // 1-based number of the current deal
		moves int      // gen_move commands received
		// movedTwice says the twicemove bot has answered a gen_move twice.
		movedTwice bool
	)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue // the protocol says to ignore empty lines
		}
		switch f[0] {
		case "set_players":
			if len(f) > 1 {
				if v, err := strconv.Atoi(f[1]); err == nil && v > 0 {
					n = v
				}
			}
		case "set_cards":
			hand = append([]string(nil), f[2:]...)
			trick = nil
			deal++
		case "play":
			if len(f) == 3 {
				card := f[2]
				trick = append(trick, card)
				if len(trick) == n {
					trick = nil
				}
				for i, c := range hand {
					if c == card {
						hand = append(hand[:i], hand[i+1:]...)
						break
					}
				}
			}
		case "gen_declare":
			switch mode {
			case modeMute:
				return readForever()
			case modeGarbage:
				fmt.Fprint(out, "I declare nothing today\n\n")
				out.Flush()
				return readForever()
			}
			reply("0")
			if (mode == modeTwice || mode == modeTwiceSlow) && deal == 2 {
				reply("0")
			}
			continue
		case "gen_move":
			moves++
			if mode == modeCrash && moves == 3 {
				os.Exit(3)
			}
			if mode == modeSlow && deal == 2 {
				time.Sleep(slowSleep)
			}
			if mode == modeTwiceSlow && deal >= 2 {
				time.Sleep(outOfStepThink)
			}
			if mode == modeTwiceMove && deal == 2 && !movedTwice {
				movedTwice = true
				fmt.Fprint(out, "= ZZ\n\n")
			}
			reply(chooseCard(hand, trick, mode == modeWrongSuit))
			continue
		case "quit":
			if mode == modeSlowQuit {
				time.Sleep(slowQuitSleep)
			}
			if mode == modeNoQuit {
				fmt.Fprint(out, "? not now\n\n")
				out.Flush()
				return 0
			}
			reply("")
			return 0
		}
		reply("")
	}
	return 0
}

// chooseCard plays the first card that follows the led suit, or any card
// when the bot cannot follow. With wrongSuit it plays off-suit instead
// whenever it both holds the led suit and has another card.
func chooseCard(hand, trick []string, wrongSuit bool) string {
	if len(hand) == 0 {
		return "??"
	}
	if len(trick) == 0 {
		return hand[0]
	}
	led := trick[0][1]
	follow, other := "", ""
	for _, c := range hand {
		if c[1] == led {
			if follow == "" {
				follow = c
			}
		} else if other == "" {
			other = c
		}
	}
	switch {
	case wrongSuit && follow != "" && other != "":
		return other
	case follow != "":
		return follow
	}
	return hand[0]
}
