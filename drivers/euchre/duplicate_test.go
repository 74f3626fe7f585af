package euchre

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// handsFile is the hand-spy's memory file.
const handsFile = "hands"

// The hand-spy writes every hand it is dealt (one line a hand, its cards
// sorted) into its one memory file and keeps what it brought in: with
// duplicate deals and its memory passed from one seating to the next,
// the hands it held in the first seating are its opponents' in the
// second, read before its first decision.
func init() {
	testbot.Register("hand-spy", func([]string) int {
		in, _ := io.ReadAll(os.Stdin)
		s, err := ParseInput(string(in))
		if err != nil {
			return 1
		}
		old, _ := os.ReadFile(handsFile)
		lines := strings.Fields(string(old))
		if s.Phase == Ordering && len(s.Hand) == 5 {
			if h := handKey(FormatCards(s.Hand)); !slices.Contains(lines, h) {
				lines = append(lines, h)
			}
		}
		if err := os.WriteFile(handsFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			return 1
		}
		return counterAnswer(string(in), 2)
	})
}

// handKey is a hand as the hand-spy keeps it: its cards sorted, so that
// the same hand is the same line whatever the order it was dealt in.
func handKey(cards string) string {
	cs := strings.Split(cards, ",")
	slices.Sort(cs)
	return strings.Join(cs, ",")
}

const duplicateConfig = `
bot "a" { command = %[1]s }
bot "b" { command = %[1]s }
bot "c" { command = %[1]s }
game "euchre" "g" {
  max_hands = 2
  memory    = "per-bot"
  clock { move = "20s" }
}
tournament "t" {
  game    = game.euchre.g
  bots    = [bot.a, bot.b, bot.c]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  deal    = %[2]q
  rounds  = 2
  seed    = 7
}
`

// dealtHands is, by position, every hand dealt in a match's transcript.
func dealtHands(t *testing.T, out, id string) map[int][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(out, engine.MatchesDir, id, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hands := map[int][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct {
			Kind string    `json:"event"`
			Data DealEvent `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Kind != "deal" {
			continue
		}
		for p, h := range ev.Data.Hands {
			hands[p] = append(hands[p], handKey(strings.Join(h, ",")))
		}
	}
	if len(hands) != 4 {
		t.Fatalf("match %s: no deal events in its transcript", id)
	}
	return hands
}

// spied checks every match of p played into out: no bot brought into it
// a hand that its opponents are dealt in it, and every bot left its own
// hands in its memory (so the spy did keep what it saw). It returns how
// many of the bots' matches started with a memory of earlier matches.
func spied(t *testing.T, p *plan.Plan, out string) int {
	t.Helper()
	carried := 0
	for _, m := range p.Matches {
		dealt := dealtHands(t, out, m.ID)
		for seat, bot := range m.Seats {
			state := filepath.Join(out, engine.MatchesDir, m.ID, engine.StateDir, bot)
			in, _ := os.ReadFile(filepath.Join(state+".in", handsFile))
			left, _ := os.ReadFile(filepath.Join(state, handsFile))
			if len(in) > 0 {
				carried++
			}
			for pos, hands := range dealt {
				for _, h := range hands {
					known := slices.Contains(strings.Fields(string(in)), h)
					if Team(pos) != seat && known {
						t.Errorf("match %s: %s brought into it the hand %s, which position %d of its opponents holds in it: its memory came from the same deals",
							m.ID, bot, h, pos)
					}
					if Team(pos) == seat && !slices.Contains(strings.Fields(string(left)), h) {
						t.Errorf("match %s: %s did not keep its hand %s in its memory", m.ID, bot, h)
					}
				}
			}
		}
	}
	return carried
}

// With memory = "per-bot" and duplicate deals (deal = "per-group" or
// "per-round", seats = "swap"), a bot that writes its hands in its memory
// does not know its opponents' hands in the other seating: every match on
// the same deals starts from the memory the bot had before the first of
// them. Its memory still goes on to its matches on other deals, at -j 1
// and at -j 3 alike, where the seatings of a group run at once.
func TestPerBotMemoryKeepsDuplicateDealsApart(t *testing.T) {
	for _, deal := range []string{"per-group", "per-round"} {
		t.Run(deal, func(t *testing.T) {
			dir := t.TempDir()
			var want map[string]string
			for _, jobs := range []int{1, 3} {
				out := filepath.Join(dir, fmt.Sprint(jobs))
				r := configRunner(t, fmt.Sprintf(duplicateConfig, botArgv(t, "hand-spy"), deal), out, jobs)
				if _, err := r.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				if len(r.Plan.Matches) != 12 {
					t.Fatalf("%d matches, want 12", len(r.Plan.Matches))
				}
				if n := spied(t, r.Plan, out); n == 0 {
					t.Errorf("-j %d: no bot brought memory into any match", jobs)
				}
				got := carried(t, out)
				if want == nil {
					want = got
				} else {
					compareCarried(t, fmt.Sprintf("-j %d", jobs), want, got)
				}
			}
			// A second seating replays from the memory it brought in.
			id := "r002-g02-s2"
			replay := configRunner(t, fmt.Sprintf(duplicateConfig, botArgv(t, "hand-spy"), deal), filepath.Join(dir, "replay"), 1)
			replay.Only = []string{id}
			replayed, err := replay.Replay(context.Background(), filepath.Join(dir, "1"))
			if err != nil || len(replayed) != 1 || replayed[0].Diff != "" {
				t.Errorf("replay of %s: %+v, %v", id, replayed, err)
			}
		})
	}
}
