package planowanie

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// deadBot writes a bot that exits with status 1 without reading
// anything, as /bin/false does, and returns its command.
func deadBot(t *testing.T) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dead.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{path}
}

// transcript is a Recorder that keeps the lines sent, by seat, and the
// fault events, in the order recorded.
type transcript struct {
	mu     sync.Mutex
	sent   map[int][]string
	faults []gtp.FaultEvent
}

func (r *transcript) Sent(seat int, line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sent == nil {
		r.sent = map[int][]string{}
	}
	r.sent[seat] = append(r.sent[seat], line)
}
func (r *transcript) Received(int, string) {}
func (r *transcript) Event(kind string, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if kind == "fault" {
		r.faults = append(r.faults, data.(gtp.FaultEvent))
	}
}

// playRecorded plays m by g with a transcript as its recorder, and
// returns the outcome, the transcript and the seats of the fault events
// in the order recorded.
func playRecorded(t *testing.T, g *Game, m *drivers.Match) (*drivers.Outcome, *transcript, []int) {
	t.Helper()
	rec := &transcript{}
	m.Record = rec
	out, err := g.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	for _, f := range rec.faults {
		seen = append(seen, f.Seat)
	}
	return out, rec, seen
}

// TestSeveralFaultsAtOnce: bots whose answers to the same command are
// faults each get their own fault, detail and fault event (in seat
// order) and share the last places; every other seat is first, as the
// rules say ("the faulty bot loses; every other bot is a winner"), and
// only they are sent quit. Before, only the first faulty seat in seat
// order was at fault and the others were winners.
func TestSeveralFaultsAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		dead   []bool
		places []float64
	}{
		{"two of four", []bool{true, false, true, false}, []float64{3.5, 1, 3.5, 1}},
		{"all four", []bool{true, true, true, true}, []float64{2.5, 2.5, 2.5, 2.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &Game{settings: Tournament(), clock: drivers.Clock{Total: drivers.Duration(10 * time.Second)}}
			m := processMatch(t, 1, "greedy", "greedy", "greedy", "greedy")
			var faulty []int
			for i, dead := range tc.dead {
				if dead {
					m.Seats[i].Command = deadBot(t)
					faulty = append(faulty, i)
				}
			}
			out, rec, seen := playRecorded(t, g, m)
			if !slices.Equal(seen, faulty) {
				t.Errorf("fault events for seats %v, want %v", seen, faulty)
			}
			for i, s := range out.Seats {
				want := ""
				if tc.dead[i] {
					want = drivers.FaultCrash
					if !strings.HasSuffix(s.Detail, "answering set_deck") {
						t.Errorf("seat %d: detail %q, want its own crash answering set_deck", i, s.Detail)
					}
				}
				if s.Fault != want || s.Place != tc.places[i] {
					t.Errorf("seat %d: fault %q place %v, want fault %q place %v (%s)", i, s.Fault, s.Place, want, tc.places[i], s.Detail)
				}
				quit := slices.Contains(rec.sent[i], "quit")
				if quit == tc.dead[i] {
					t.Errorf("seat %d (faulty %v) sent quit: %v", i, tc.dead[i], quit)
				}
			}
		})
	}
}

// TestSeveralStartFaults: every bot that cannot start has its own start
// fault, and they share the last places.
func TestSeveralStartFaults(t *testing.T) {
	g := &Game{settings: Tournament(), clock: drivers.Clock{Total: drivers.Duration(10 * time.Second)}}
	m := processMatch(t, 1, "greedy", "greedy", "greedy", "greedy")
	for _, i := range []int{1, 2} {
		m.Seats[i].Command = []string{filepath.Join(t.TempDir(), fmt.Sprintf("no-such-bot-%d", i))}
	}
	out, err := g.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		fault string
		place float64
	}{{"", 1}, {drivers.FaultStart, 3.5}, {drivers.FaultStart, 3.5}, {"", 1}} {
		if s := out.Seats[i]; s.Fault != want.fault || s.Place != want.place {
			t.Errorf("seat %d: fault %q place %v, want %q %v (%s)", i, s.Fault, s.Place, want.fault, want.place, s.Detail)
		}
	}
	if !strings.Contains(out.Seats[2].Detail, "no-such-bot-2") {
		t.Errorf("seat 2's detail %q does not name its own command", out.Seats[2].Detail)
	}
}

// overBot writes a bot that answers every command and declares 99 tricks,
// more than any deal has cards, and returns its command.
func overBot(t *testing.T) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "over.sh")
	script := "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n" +
		"    '') ;;\n    gen_declare) printf '= 99\\n\\n' ;;\n    quit) printf '=\\n\\n'; exit 0 ;;\n" +
		"    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{path}
}

// TestDeclarationsTogether: declarations are made together, so every seat
// whose declaration of a deal is illegal has its own fault and they share
// the last places, whatever their seats; before, the first of them in
// seat order ended the match and the others, never asked, were winners.
// A plan written before the rule (DeclarationsTogether false) still ends
// at the first, and so resumes and replays as it was played.
func TestDeclarationsTogether(t *testing.T) {
	for _, tc := range []struct {
		name     string
		together bool
		faulty   []int
		places   []float64
	}{
		{"together", true, []int{1, 3}, []float64{1, 3.5, 1, 3.5}},
		{"plan before the rule", false, []int{1}, []float64{1, 4, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Tournament()
			s.DeclarationsTogether = tc.together
			g := &Game{settings: s, clock: drivers.Clock{Total: drivers.Duration(10 * time.Second)}}
			m := processMatch(t, 1, "greedy", "greedy", "greedy", "greedy")
			m.Seats[1].Command, m.Seats[3].Command = overBot(t), overBot(t)
			out, rec, seen := playRecorded(t, g, m)
			for _, f := range rec.faults {
				if f.Kind != drivers.FaultIllegal || !strings.HasPrefix(f.Detail, "declared 99, ") {
					t.Errorf("seat %d: fault %s %q, want its illegal declaration", f.Seat, f.Kind, f.Detail)
				}
			}
			if !slices.Equal(seen, tc.faulty) {
				t.Errorf("fault events for seats %v, want %v", seen, tc.faulty)
			}
			for i, st := range out.Seats {
				if st.Place != tc.places[i] {
					t.Errorf("seat %d: place %v, want %v (fault %q)", i, st.Place, tc.places[i], st.Fault)
				}
			}
		})
	}
}

// A game block has the rule of declarations made together; a plan written
// before it (no declarations_together) does not, and plays as it did.
func TestLoadPlanDeclarationsTogether(t *testing.T) {
	f, diags := hclparse.NewParser().ParseHCL([]byte(`deck = { ranks = "23456789TJQKA", suits = "CDHS" }
deals = [{ cards = 1, leader = 0 }]
`), "t.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	d, diags := Driver{}.DecodeGame(f.Body, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !d.(*Game).settings.DeclarationsTogether {
		t.Error("a game block: DeclarationsTogether false, want true")
	}
	for _, tc := range []struct {
		extra    string
		together bool
	}{{``, false}, {`,"declarations_together":true`, true}} {
		g, err := Driver{}.LoadGame(json.RawMessage(`{"deck":{"ranks":"23456789TJQKA","suits":"CDHS"},"deals":[{"cards":1,"leader":0}]` + tc.extra + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.(*Game).settings.DeclarationsTogether; got != tc.together {
			t.Errorf("plan settings %q: DeclarationsTogether %v, want %v", tc.extra, got, tc.together)
		}
	}
}

// TestDeclarationFaultEndsItsBot: a bot whose declaration is a fault
// (here a time-out, the bot still at work) is ended before the seats
// after it are asked for theirs, as it would have been had its fault
// ended the match at once: what it still runs takes nothing from their
// clocks. Seat 1 declares an impossible 99 if seat 0's process is still
// there when seat 1 is asked.
func TestDeclarationFaultEndsItsBot(t *testing.T) {
	dir := t.TempDir()
	pid := filepath.Join(dir, "pid0")
	slow := filepath.Join(dir, "slow.sh")
	peek := filepath.Join(dir, "peek.sh")
	answer := "    '') ;;\n    quit) printf '=\\n\\n'; exit 0 ;;\n    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
	loop := "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n"
	for path, script := range map[string]string{
		slow: loop + "    gen_declare) echo $$ >" + pid + "; exec sleep 600 ;;\n" + answer,
		peek: loop + "    gen_declare) if kill -0 \"$(cat " + pid + ")\" 2>/dev/null; then printf '= 99\\n\\n'; else printf '= 0\\n\\n'; fi ;;\n" + answer,
	} {
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := &Game{settings: Tournament(), clock: drivers.Clock{Total: drivers.Duration(5 * time.Second)}}
	m := processMatch(t, 1, "greedy", "greedy", "greedy", "greedy")
	m.Clock = g.clock
	m.Seats[0].Command, m.Seats[1].Command = []string{slow}, []string{peek}
	out, _, seen := playRecorded(t, g, m)
	if !slices.Equal(seen, []int{0}) {
		t.Errorf("fault events for seats %v, want [0] (seat 1: %s %q)", seen, out.Seats[1].Fault, out.Seats[1].Detail)
	}
	if out.Seats[0].Fault != drivers.FaultTime {
		t.Errorf("seat 0: fault %s %q, want a time-out", out.Seats[0].Fault, out.Seats[0].Detail)
	}
}
