package rating

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// roundHalfAway is bayeselo's RoundDouble.
func roundHalfAway(x float64) int {
	if x > 0 {
		return int(x + 0.5)
	}
	return int(x - 0.5)
}

// padRight pads to width runes, where C++ setw, and so bayeselo, pads to
// bytes: a name like "Béta" keeps the columns in line (names of
// ASCII, bayeselo's, come out the same).
func padRight(s string, width int) string {
	if n := width - utf8.RuneCountInString(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

func padLeft(s string, width int) string {
	if n := width - utf8.RuneCountInString(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

func (r *Ratings) maxNameLength() int {
	n := 0
	for _, s := range r.Names {
		n = max(n, utf8.RuneCountInString(s))
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
		fmt.Fprintf(&b, "%4d %s %5s %4s %4s %5s %4d%% %5s %4d%% \n",
			row.Rank, padRight(row.Player, width),
			eloText(row.Elo),
			eloText(row.Plus), eloText(row.Minus),
			games,
			roundHalfAway(100*points/float64(row.Games)),
			eloText(row.Opponent),
			roundHalfAway(100*float64(row.Draws)/float64(row.Games)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// eloText is an Elo figure as WriteTable prints it: rounded, or "-" for
// one that is not finite (an interval ExactDist could not bound, the
// rating of a player who lost every game without a prior), where
// bayeselo would print the integer conversion of a NaN or an infinity.
func eloText(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return strconv.Itoa(roundHalfAway(x))
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
		b.WriteString(padLeft(firstRunes(name, width-1), width))
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

// MarshalJSON writes the row with null for a figure that is not finite
// (eloText).
func (row Row) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Rank     int      `json:"rank"`
		Player   string   `json:"player"`
		Elo      *float64 `json:"elo"`
		Plus     *float64 `json:"plus"`
		Minus    *float64 `json:"minus"`
		Games    int      `json:"games"`
		Wins     int      `json:"wins"`
		Draws    int      `json:"draws"`
		Losses   int      `json:"losses"`
		Score    float64  `json:"score"`
		Opponent *float64 `json:"opponent"`
		DrawRate float64  `json:"draw_rate"`
	}{row.Rank, row.Player, Finite(row.Elo), Finite(row.Plus), Finite(row.Minus), row.Games, row.Wins, row.Draws, row.Losses,
		row.Score, Finite(row.Opponent), row.DrawRate})
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

// firstRunes is the first n runes of s.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
