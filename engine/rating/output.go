package rating

import (
	"fmt"
	"io"
	"strings"
)

// roundHalfAway is bayeselo's RoundDouble.
func roundHalfAway(x float64) int {
	if x > 0 {
		return int(x + 0.5)
	}
	return int(x - 0.5)
}

// padRight pads to width bytes, not runes, as C++ setw does.
func padRight(s string, width int) string {
	if n := width - len(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

func padLeft(s string, width int) string {
	if n := width - len(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

func (r *Ratings) maxNameLength() int {
	n := 0
	for _, s := range r.Names {
		n = max(n, len(s))
	}
	return n
}

// WriteTable writes bayeselo's `ratings` table: players with games, from
// the best down, with the given intervals (from ExactDist or
// CovarianceIntervals; nil prints zeros like bayeselo before any interval
// command).
func (r *Ratings) WriteTable(w io.Writer, plus, minus []float64) error {
	for _, iv := range [][]float64{plus, minus} {
		if iv != nil && len(iv) != len(r.Names) {
			return fmt.Errorf("rating: %d intervals for %d players", len(iv), len(r.Names))
		}
	}
	width := max(r.maxNameLength(), 4)
	var b strings.Builder
	fmt.Fprintf(&b, "Rank %s %5s %4s %4s %5s %5s %5s %5s \n",
		padRight("Name", width), "Elo", "+", "-", "games", "score", "oppo.", "draws")

	for _, row := range r.Rows(plus, minus) {
		// bayeselo keeps game counts in a float and prints it with
		// ostream's default %g. The score is worked out from the wins and
		// draws as bayeselo does, not from Row.Score, whose rounding
		// could differ from it at a half.
		games := fmt.Sprintf("%.6g", float32(row.Games))
		points := float64(row.Wins) + float64(row.Draws)/2
		fmt.Fprintf(&b, "%4d %s %5d %4d %4d %5s %4d%% %5d %4d%% \n",
			row.Rank, padRight(row.Player, width),
			roundHalfAway(row.Elo),
			roundHalfAway(row.Plus), roundHalfAway(row.Minus),
			games,
			roundHalfAway(100*points/float64(row.Games)),
			roundHalfAway(row.Opponent),
			roundHalfAway(100*float64(row.Draws)/float64(row.Games)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteLOS writes bayeselo's `los` matrix (default arguments): players
// with games from the best down, LOS in percent truncated to an integer,
// columns headed by the first two bytes of the names.
func (r *Ratings) WriteLOS(w io.Writer) error {
	const width = 3
	los := r.LOS()
	order := r.order()
	nameLen := r.maxNameLength()

	var b strings.Builder
	// bayeselo pads a single space to the name length, so at least one.
	b.WriteString(padLeft(" ", nameLen))
	b.WriteByte(' ')
	for _, k := range order {
		name := r.Names[r.orig[k]]
		b.WriteString(padLeft(name[:min(len(name), width-1)], width))
	}
	b.WriteByte('\n')
	for p, k := range order {
		i := r.orig[k]
		b.WriteString(padRight(r.Names[i], nameLen))
		b.WriteByte(' ')
		for q, l := range order {
			if p == q {
				b.WriteString(strings.Repeat(" ", width))
				continue
			}
			fmt.Fprintf(&b, "%*d", width, int(los[i][r.orig[l]]*100))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Row is a player's line of bayeselo's `ratings` table (WriteTable),
// unrounded: Score and Draws are fractions (0..1), Opponent the mean Elo
// of the player's opponents, per game.
type Row struct {
	Rank     int     `json:"rank"`
	Player   string  `json:"player"`
	Elo      float64 `json:"elo"`
	Plus     float64 `json:"plus"`
	Minus    float64 `json:"minus"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Score    float64 `json:"score"`
	Opponent float64 `json:"opponent"`
	DrawRate float64 `json:"draw_rate"`
}

// Rows are the lines of WriteTable, in its order (players with games,
// the best first), with the given intervals (nil: zeros).
func (r *Ratings) Rows(plus, minus []float64) []Row {
	stats := r.Stats()
	rows := make([]Row, 0, len(r.orig))
	for rank, k := range r.order() {
		i := r.orig[k]
		s := stats[i]
		row := Row{Rank: rank + 1, Player: r.Names[i], Elo: r.Scale * r.raw[k],
			Games: s.Games, Wins: s.Wins, Draws: s.Draws, Losses: s.Losses,
			Score: s.Score, Opponent: s.Opponent, DrawRate: s.DrawRate}
		if plus != nil {
			row.Plus = plus[i]
		}
		if minus != nil {
			row.Minus = minus[i]
		}
		rows = append(rows, row)
	}
	return rows
}
