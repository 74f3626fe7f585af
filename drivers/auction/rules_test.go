package auction

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// position builds a position from board rows (letters or '.'), capitals
// and a 1-based queue like "[4,1]; [2,2];".
func position(t testing.TB, rows []string, capital []int, queue string) *Position {
	t.Helper()
	p := &Position{Players: len(capital), Cols: len(rows[0]), Rows: len(rows), Capital: slices.Clone(capital)}
	for _, r := range rows {
		for _, ch := range []byte(r) {
			if ch == '.' {
				p.Owner = append(p.Owner, -1)
			} else {
				p.Owner = append(p.Owner, int(ch-'A'))
			}
		}
	}
	for _, f := range strings.Fields(queue) {
		var c Cell
		if _, err := fmt.Sscanf(f, "[%d,%d];", &c.Col, &c.Row); err != nil {
			t.Fatalf("queue entry %q: %v", f, err)
		}
		p.Queue = append(p.Queue, Cell{Col: c.Col - 1, Row: c.Row - 1})
	}
	return p
}

// exampleState is the state file of auction.md (and of the Czech
// original's Obrázek 1), byte for byte.
const exampleState = `3 4 3
BBA.
...A
BAA.
A 1
B 40
C 100
[4,1]; [2,2]; [1,2]; [3,2]; [4,3];
`

func examplePosition(t testing.TB) *Position {
	return position(t, []string{"BBA.", "...A", "BAA."}, []int{1, 40, 100}, "[4,1]; [2,2]; [1,2]; [3,2]; [4,3];")
}

func TestStateFileOfTheSpecExample(t *testing.T) {
	if got := string(examplePosition(t).State()); got != exampleState {
		t.Errorf("state file:\n%s\nwant:\n%s", got, exampleState)
	}
}

func TestLogAndResultsFormats(t *testing.T) {
	p := examplePosition(t)
	state := p.State()
	sale := p.Settle([]int{0, 7, 5})
	log := AppendLogRound(nil, 1, state, []int{0, 7, 5}, sale)
	state2 := p.State()
	sale2 := p.Settle([]int{1, 3, 3})
	log = AppendLogRound(log, 2, state2, []int{1, 3, 3}, sale2)
	want := "round 1\n" + exampleState + "bids A 0 B 7 C 5\nsold [4,1] B 7\n\n" +
		"round 2\n3 4 3\nBBAB\n...A\nBAA.\nA 1\nB 33\nC 100\n[2,2]; [1,2]; [3,2]; [4,3];\nbids A 1 B 3 C 3\nunsold [2,2]\n\n"
	if string(log) != want {
		t.Errorf("log:\n%s\nwant:\n%s", log, want)
	}
	p = position(t, []string{"AAB.", "....", "..CC"}, []int{5, 6, 7, 8}, "")
	p.Players = 4
	want = "1 A 2 2 5\n2 C 2 2 7\n3 B 1 1 6\n4 D 0 0 8\n"
	if got := string(Results(p.Standings())); got != want {
		t.Errorf("results:\n%s\nwant:\n%s", got, want)
	}
}

func TestSettle(t *testing.T) {
	tests := []struct {
		name      string
		bids      []int
		winner    int
		capital   []int
		queueTail string
	}{
		{"single highest buys and pays", []int{0, 7, 5}, 1, []int{1, 33, 100}, "[4,3]"},
		{"shared highest goes to the end of the queue", []int{1, 9, 9}, -1, []int{1, 40, 100}, "[4,1]"},
		{"everyone bidding 0 is a tie", []int{0, 0, 0}, -1, []int{1, 40, 100}, "[4,1]"},
		{"a lower tie does not matter", []int{1, 1, 2}, 2, []int{1, 40, 98}, "[4,3]"},
		{"the whole capital may be bid", []int{1, 0, 0}, 0, []int{0, 40, 100}, "[4,3]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := examplePosition(t)
			sale := p.Settle(tt.bids)
			if sale.Winner != tt.winner || sale.Cell != (Cell{Col: 3, Row: 0}) {
				t.Fatalf("sale %+v, want winner %d of [4,1]", sale, tt.winner)
			}
			if !slices.Equal(p.Capital, tt.capital) {
				t.Errorf("capital %v, want %v", p.Capital, tt.capital)
			}
			if got := p.Queue[len(p.Queue)-1].String(); got != tt.queueTail {
				t.Errorf("queue ends with %s, want %s", got, tt.queueTail)
			}
			owner := p.At(Cell{Col: 3, Row: 0})
			if owner != tt.winner {
				t.Errorf("owner of [4,1] is %d, want %d", owner, tt.winner)
			}
			if want := 5 - 1; tt.winner >= 0 && len(p.Queue) != want {
				t.Errorf("queue has %d cells after a sale, want %d", len(p.Queue), want)
			}
		})
	}
}

func TestParseBid(t *testing.T) {
	tests := []struct {
		name, line string
		capital    int
		bid        int
		problem    string
	}{
		{"a whole number", "17", 40, 17, ""},
		{"blanks around it", "  17 \r", 40, 17, ""},
		{"leading zeros", "007", 40, 7, ""},
		{"all the capital", "40", 40, 40, ""},
		{"zero", "0", 40, 0, ""},
		{"bankrupt bidding 0", "0", 0, 0, ""},
		{"bankrupt bidding 1", "1", 0, 0, "capital of 0"},
		{"negative", "-5", 40, 0, "negative"},
		{"too large", "41", 40, 0, "capital of 40"},
		{"overflowing", "99999999999999999999999", 40, 0, "capital of 40"},
		{"not a number", "ten", 40, 0, "not a whole number (only the first line printed is the bid: write debug output to stderr)"},
		{"a debug line", "debug: round 3", 40, 0, "only the first line printed is the bid"},
		{"a fraction", "2.5", 40, 0, "not a whole number"},
		{"a plus sign", "+3", 40, 0, "not a whole number"},
		{"two numbers", "3 4", 40, 0, "not a whole number"},
		{"empty", "", 40, 0, "empty"},
		{"blank", "   ", 40, 0, "empty"},
		{"a tab and a carriage return", "\t5\r", 40, 5, ""},
		{"zeros only", "000", 40, 0, ""},
		{"padded with zeros past the capital's width", "0000000000000000000000040", 40, 40, ""},
		{"a decimal point", "2.0", 40, 0, "not a whole number"},
		{"an exponent", "2e1", 40, 0, "not a whole number"},
		{"a thousands separator", "1,000", 40, 0, "not a whole number"},
		{"another script's digits", "٣", 40, 0, "not a whole number"},
		{"minus zero", "-0", 40, 0, `answered "-0": a bid is written without a sign`},
		{"minus zeros", "-00", 40, 0, "without a sign"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bid, problem := ParseBid(tt.line, tt.capital)
			if bid != tt.bid || (tt.problem == "") != (problem == "") || !strings.Contains(problem, tt.problem) {
				t.Errorf("ParseBid(%q, %d) = %d %q, want %d and a problem saying %q", tt.line, tt.capital, bid, problem, tt.bid, tt.problem)
			}
		})
	}
}

func TestStandings(t *testing.T) {
	tests := []struct {
		name   string
		rows   []string
		n      int
		places []float64 // by seat
	}{
		{"largest region first, not most cells", []string{"AAA.", "B.B.", "..B."}, 2, []float64{1, 2}},
		{"regions are edge-connected only", []string{"A.BB", ".A..", "A..."}, 2, []float64{2, 1}},
		{"equal regions: more cells first", []string{"AA.B", "....", "A.BB"}, 2, []float64{1, 2}},
		{"equal region and cells: topmost row first", []string{"....", ".B..", "A..."}, 2, []float64{2, 1}},
		{"same row: leftmost first", []string{"..AB", "....", "...."}, 2, []float64{1, 2}},
		{"owners of nothing share the last places", []string{"A...", "....", "...."}, 4, []float64{1, 3, 3, 3}},
		{"two owners of nothing: 5.5 each of six", []string{"ABCD", "....", "...."}, 6, []float64{1, 2, 3, 4, 5.5, 5.5}},
		{"nobody owns anything", []string{"..", ".."}, 3, []float64{2, 2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := position(t, tt.rows, make([]int, tt.n), "")
			got := make([]float64, tt.n)
			for _, s := range p.Standings() {
				got[s.Seat] = s.Place
			}
			if !slices.Equal(got, tt.places) {
				t.Errorf("places by seat %v, want %v", got, tt.places)
			}
		})
	}
}

func TestStandingsTiedLast(t *testing.T) {
	p := position(t, []string{"AB..", "...."}, make([]int, 6), "")
	var got []string
	for _, s := range p.Standings() {
		got = append(got, fmt.Sprintf("%c:%g", Letter(s.Seat), s.Place))
	}
	// A and B own a cell each; C..F span places 3 to 6.
	if want := "A:1 B:2 C:4.5 D:4.5 E:4.5 F:4.5"; strings.Join(got, " ") != want {
		t.Errorf("standings %s, want %s", strings.Join(got, " "), want)
	}
	p = position(t, []string{"A...", "...."}, make([]int, 6), "")
	p.Owner[1] = 4 // E
	p.Owner[2] = 1 // B
	p.Owner[3] = 2 // C
	p.Owner[4] = 3 // D
	got = got[:0]
	for _, s := range p.Standings() {
		got = append(got, fmt.Sprintf("%c:%g", Letter(s.Seat), s.Place))
	}
	if want := "A:1 E:2 B:3 C:4 D:5 F:6"; strings.Join(got, " ") != want {
		t.Errorf("standings %s, want %s", strings.Join(got, " "), want)
	}
}

func TestQueueIsReproducible(t *testing.T) {
	a, b := Queue(10, 8, 42), Queue(10, 8, 42)
	if !slices.Equal(a, b) {
		t.Fatal("the same seed gave two queues")
	}
	if slices.Equal(a, Queue(10, 8, 43)) {
		t.Error("seeds 42 and 43 gave the same queue")
	}
	seen := map[Cell]bool{}
	for _, c := range a {
		if c.Col < 0 || c.Col >= 10 || c.Row < 0 || c.Row >= 8 || seen[c] {
			t.Fatalf("queue has %v twice or off the board", c)
		}
		seen[c] = true
	}
	if len(seen) != 80 {
		t.Fatalf("queue has %d cells, want 80", len(seen))
	}
	// Pinned: a change here changes every game ever played from a seed.
	p := &Position{Queue: Queue(5, 5, 2008)}
	got := p.State()
	got = got[strings.LastIndexByte(string(got[:len(got)-1]), '\n')+1:]
	const want = "[1,4]; [5,1]; [2,2]; [4,4]; [3,5]; [1,1]; [2,1]; [5,4]; [5,2]; [4,2]; [5,3]; [1,3]; [2,5]; [3,1]; [4,3]; [1,5]; [3,4]; [4,1]; [1,2]; [2,4]; [2,3]; [5,5]; [4,5]; [3,3]; [3,2];\n"
	if string(got) != want {
		t.Errorf("queue of seed 2008 on 5×5:\n%s\nwant:\n%s", got, want)
	}
}
