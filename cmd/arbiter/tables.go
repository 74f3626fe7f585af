package main

import (
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// The text tables of rank and run: standings, crosstable, LOS matrix and
// head-to-head, as the engine computes them (package stats).

// writeStandings prints standings as a table.
func writeStandings(w io.Writer, st []stats.Standing) error {
	width := len("Bot")
	names := make([]string, len(st))
	for i, s := range st {
		names[i] = s.Bot
		if s.Fill {
			names[i] += " (fill)"
		}
		if s.Disqualified != nil {
			names[i] += " (DQ)"
		}
		width = max(width, len(names[i]))
	}
	// A Stage column only when some bot has a stage, a Grade column only
	// when some bot has a grade, so the table of a tournament without
	// stages or grades stays as it was.
	var stageW, gradeW int
	for _, s := range st {
		if s.Stage != "" {
			stageW = max(stageW, len("Stage"), len(s.Stage))
		}
		if s.Grade != "" {
			gradeW = max(gradeW, len("Grade"), len(s.Grade))
		}
	}
	extra := func(stage, grade string) string {
		var b strings.Builder
		if stageW > 0 {
			fmt.Fprintf(&b, "  %-*s", stageW, stage)
		}
		if gradeW > 0 {
			fmt.Fprintf(&b, "  %-*s", gradeW, grade)
		}
		return strings.TrimRight(b.String(), " ")
	}
	if _, err := fmt.Fprintf(w, "Rank  %-*s   Elo    +    -  Games   Score  Matches  Points  Place     ±  Wins  Normal  Faults%s\n", width, "Bot", extra("Stage", "Grade")); err != nil {
		return err
	}
	for i, s := range st {
		place, ci := "    -", "    -"
		if s.Matches > 0 {
			place = fmt.Sprintf("%5.2f", s.Place)
		}
		if !math.IsInf(s.PlaceCI, 0) && s.Matches > 0 {
			ci = fmt.Sprintf("%5.2f", s.PlaceCI)
		}
		score, points := "     -", "     -"
		if !math.IsNaN(s.Score) {
			score = fmt.Sprintf("%5.1f%%", 100*s.Score)
		}
		if !math.IsNaN(s.Points) {
			points = fmt.Sprintf("%6.2f", s.Points)
		}
		if _, err := fmt.Fprintf(w, "%4d  %-*s  %4s %4s %4s  %5d  %s  %7d  %s  %s %s  %4d  %6d  %6d%s\n",
			s.Rank, width, names[i], roundOrDash(s.Elo), roundOrDash(s.Plus), roundOrDash(s.Minus), s.Games, score, s.Matches, points,
			place, ci, s.Wins, s.NormalWins, s.Faults, extra(s.Stage, s.Grade)); err != nil {
			return err
		}
	}
	return nil
}

// writeStats prints the standings under a line that says how they are
// ordered, then the groups still tied in placement.
func writeStats(w io.Writer, s *stats.Stats) error {
	fmt.Fprintf(w, "%s: %s; ranked %s\n\n", s.Tournament, s.Finished(), s.RankedBy())
	if err := writeStandings(w, s.Standings); err != nil {
		return err
	}
	for _, g := range s.Ties {
		if s.PlayoffsOver {
			fmt.Fprintf(w, "\nStill tied in placement after %d playoffs, the most played: %s\n", plan.MaxPlayoffs, strings.Join(g, ", "))
		} else {
			fmt.Fprintf(w, "\nTied in placement, needs a playoff: %s\n", strings.Join(g, ", "))
		}
	}
	for _, g := range s.Unseated {
		fmt.Fprintf(w, "\nTied in placement, not played off: %s\n", unseatedText(g))
	}
	for _, g := range s.Stopped {
		fmt.Fprintf(w, "\nTied in placement, not played off: %s: the stopping rule ended the tournament, so the tie stands\n", strings.Join(g, ", "))
	}
	for _, g := range s.NotPlayedOff {
		fmt.Fprintf(w, "\nTied in placement, not played off: %s\n", notPlayedOffText(g))
	}
	writePlayoffsToCome(w, s.PlayoffsToCome)
	writeDisqualified(w, s.Standings)
	writeDefaults(w, s.Standings)
	writeFaults(w, s.Standings)
	writeGateFaults(w, s.GateFaults)
	return writeStageTables(w, s)
}

// writePlayoffsToCome says, under the standings of a tournament in
// stages, which ties a stage's playoff is still to settle: until it is
// played, the order of the tied bots (and what a pick or the final
// ranking takes of them) is not final.
func writePlayoffsToCome(w io.Writer, coming []stats.PlayoffToCome) {
	for _, pt := range coming {
		for _, t := range pt.Ties {
			where := "stage " + pt.Stage
			if t.Group != "" {
				where += " (group " + t.Group + ")"
			}
			fmt.Fprintf(w, "\nTied in placement in %s, playoff %d to come: %s\n", where, pt.Playoff, strings.Join(t.Bots, ", "))
		}
	}
}

// writeStageTables prints, under the standings of a tournament in stages,
// the tables that placed the bots within their stage: each pool's own
// matches alone, the columns above counting every stage.
func writeStageTables(w io.Writer, s *stats.Stats) error {
	for _, t := range s.StageTables {
		name := "stage " + t.Stage
		if t.Group != "" {
			name += ", group " + t.Group
		}
		if _, err := fmt.Fprintf(w, "\nHow %s placed its bots: its own matches alone, ranked %s; bots still tied by Elo, then name\n\n", name, t.RankedBy); err != nil {
			return err
		}
		if err := writeStandings(w, t.Standings); err != nil {
			return err
		}
	}
	if len(s.TiedCuts) > 0 {
		if _, err := fmt.Fprintf(w, "\nCuts no playoff settled: tied bots that a pick, or the final ranking, took by Elo, then name\n"); err != nil {
			return err
		}
	}
	for _, c := range s.TiedCuts {
		if _, err := fmt.Fprintf(w, "  %s\n", c); err != nil {
			return err
		}
	}
	return nil
}

// writeDefaults says, under the standings, which bots had answers
// replaced by the game's defaults (Auction, Euchre): such a match goes on
// and the Faults column does not count it, so without this line a bot's
// author would see only a weak score.
func writeDefaults(w io.Writer, st []stats.Standing) {
	first := true
	for _, s := range st {
		if s.Defaults == 0 {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		fmt.Fprintf(w, "Defaults: %s: %s replaced by the game's defaults in %s", s.Bot,
			plural(s.Defaults, "answer"), plural(s.DefaultMatches, "match"))
		if f := s.FirstDefault; f != nil {
			fmt.Fprintf(w, "; the first in match %s", f.Match)
			if f.Detail != "" {
				fmt.Fprintf(w, ", %s", f.Detail)
			}
		}
		fmt.Fprintln(w, "; see results.jsonl and the matches' default events.")
	}
}

// writeFaults says, under the standings, where each bot that lost
// matches by its own faults first did and why, and where that match's
// stderr of it is: the Faults column gives only a count. A bot that
// never ran there (a start or build fault) has no stderr to read. The
// file named is the engine's (engine.StderrFile); the only game that
// names its own, Euchre (a file per position), has no fault but those.
// What the bot wrote there is not quoted, nor whether it wrote anything:
// the standings are the results' alone (a merged tournament's too), and
// the run's log quotes a crash's last stderr line when there is one.
func writeFaults(w io.Writer, st []stats.Standing) {
	first := true
	for _, s := range st {
		f := s.FirstFault
		if s.Faults == 0 || f == nil {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		fmt.Fprintf(w, "Faults: %s: lost %s by its own faults; the first in match %s, %s", s.Bot,
			plural(s.Faults, "match"), f.Match, f.Fault)
		if f.Detail != "" {
			fmt.Fprintf(w, ": %s", f.Detail)
		}
		if f.Fault != drivers.FaultStart && f.Fault != engine.FaultBuild {
			fmt.Fprintf(w, "; its stderr is %s", path.Join("matches", f.Match, engine.StderrFile(f.Seat, s.Bot)))
			if f.Fault == drivers.FaultCrash {
				fmt.Fprint(w, " (the run's log quotes its last line, if it wrote one)")
			}
		}
		fmt.Fprintln(w, "; see results.jsonl.")
	}
}

// plural is n and noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeGateFaults says, under the standings, in which gate matches the
// gate's own bot failed, so that they admitted no one.
func writeGateFaults(w io.Writer, faults []stats.GateFault) {
	if len(faults) > 0 {
		fmt.Fprintln(w)
	}
	for _, f := range faults {
		fmt.Fprintf(w, "Gate %s: its own bot %s failed in match %s (%s); the match admits no one.\n", f.Stage, f.Bot, f.Match, f.Failure)
	}
}

// writeDisqualified says, under the standings, why and where each
// disqualified bot (ranked last) was disqualified.
func writeDisqualified(w io.Writer, st []stats.Standing) {
	first := true
	for _, s := range st {
		d := s.Disqualified
		if d == nil {
			continue
		}
		if first {
			fmt.Fprintln(w)
			first = false
		}
		where := "before the first match"
		if d.Match != "" {
			where = "in match " + d.Match
		}
		fmt.Fprintf(w, "Disqualified: %s %s (%s): %s\n", s.Bot, where, d.Reason, d.Detail)
	}
}

// writeCrosstable prints every bot's pairwise wins-draws-losses against
// every other, rows and columns in standings order.
func writeCrosstable(w io.Writer, s *stats.Stats) error {
	cells := make([][]string, len(s.Standings))
	width := 3
	for i, row := range s.Crosstable {
		cells[i] = make([]string, len(row))
		for j, c := range row {
			if i == j {
				continue
			}
			cells[i][j] = fmt.Sprintf("%d-%d-%d", c.W, c.D, c.L)
			width = max(width, len(cells[i][j]))
		}
	}
	return writeMatrix(w, s, "Crosstable (pairwise games: wins-draws-losses of the row's bot)", width, cells)
}

// writeLOS prints the likelihood of superiority in percent, truncated like
// bayeselo's: the row's bot is stronger than the column's with that
// probability.
func writeLOS(w io.Writer, s *stats.Stats) error {
	cells := make([][]string, len(s.Standings))
	for i, row := range s.LOS {
		cells[i] = make([]string, len(row))
		for j, l := range row {
			switch {
			case i == j:
			case math.IsNaN(l):
				cells[i][j] = "-" // a bot without pairwise games
			default:
				cells[i][j] = fmt.Sprint(int(l * 100))
			}
		}
	}
	return writeMatrix(w, s, "Likelihood of superiority (%, row over column)", 3, cells)
}

func writeMatrix(w io.Writer, s *stats.Stats, title string, width int, cells [][]string) error {
	nameWidth := 0
	for _, st := range s.Standings {
		nameWidth = max(nameWidth, len(st.Bot))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%*s", title, nameWidth+5, "")
	for j := range s.Standings {
		fmt.Fprintf(&b, " %*d", width, j+1)
	}
	b.WriteByte('\n')
	for i, st := range s.Standings {
		line := fmt.Sprintf("%3d  %-*s", i+1, nameWidth, st.Bot)
		for j := range s.Standings {
			line += fmt.Sprintf(" %*s", width, cells[i][j])
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// roundOrDash is x rounded, or "-" when it is not a number (the interval
// of a bot without games), as the JSON's null.
func roundOrDash(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return "-"
	}
	return strconv.Itoa(round(x))
}

func round(x float64) int {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	return int(math.Round(x))
}

// writeHeadToHead prints a head-to-head in the manner of fastchess.
func writeHeadToHead(w io.Writer, h *stats.HeadToHead) error {
	var b strings.Builder
	e := h.Estimate
	fmt.Fprintf(&b, "%s vs %s: %s, %s, %s, %s for %s\n", h.A, h.B, counted(h.WDL.Games(), "game", "games"),
		counted(h.WDL.W, "win", "wins"), counted(h.WDL.D, "draw", "draws"), counted(h.WDL.L, "loss", "losses"), h.A)
	if h.Penta != nil {
		p := h.Penta
		fmt.Fprintf(&b, "Model:  pentanomial, %s [LL %d, LD %d, WL %d, DD %d, WD %d, WW %d]\n",
			counted(p.Pairs(), "duplicate-deal pair", "duplicate-deal pairs"), p.LL, p.LD, p.WL, p.DD, p.WD, p.WW)
	} else {
		why := "no games"
		if h.WDL.Games() > 0 {
			verb := "have"
			if h.Unpaired == 1 {
				verb = "has"
			}
			why = fmt.Sprintf("%d of %s %s no duplicate-deal partner", h.Unpaired, counted(h.WDL.Games(), "game", "games"), verb)
		}
		fmt.Fprintf(&b, "Model:  trinomial (%s)\n", why)
	}
	fmt.Fprintf(&b, "Score:  %s\n", pct(e.Score))
	fmt.Fprintf(&b, "Elo:    %s +/- %s (95%%)\n", num(e.Elo), num(e.EloError))
	fmt.Fprintf(&b, "nElo:   %s +/- %s (95%%)\n", num(e.NElo), num(e.NEloError))
	fmt.Fprintf(&b, "LOS:    %s\n", pct(e.LOS))
	model := h.SPRT.Model
	if model == "" {
		model = "normalized"
	}
	decision := map[rating.Decision]string{rating.Continue: "continue", rating.AcceptH0: "H0 accepted", rating.AcceptH1: "H1 accepted"}[h.Test.Decision]
	if math.IsNaN(h.Test.LLR) {
		decision = "no decision: the LLR is not a number"
	}
	fmt.Fprintf(&b, "SPRT:   %s Elo [%g, %g], alpha %g, beta %g: LLR %s (%s, %s), %s\n",
		model, h.SPRT.Elo0, h.SPRT.Elo1, h.SPRT.Alpha, h.SPRT.Beta, fixed(h.Test.LLR), fixed(h.Test.Lower), fixed(h.Test.Upper), decision)
	_, err := io.WriteString(w, b.String())
	return err
}

func num(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fixed(x)
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fixed(100*x) + "%"
}

// fixed is x with two decimals, without the sign of a figure that rounds
// to zero: "0.00", never "-0.00".
func fixed(x float64) string {
	s := strconv.FormatFloat(x, 'f', 2, 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}

// counted is n and noun, the noun in the singular for 1 (many is its
// plural).
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// unseatedText says why group g of stats.Stats.Unseated, bots tied in
// placement, was not played off (the results page says it in the same
// words).
func unseatedText(g []string) string {
	return fmt.Sprintf("%s: the game cannot seat %d bots in one match, so the tie stands", strings.Join(g, ", "), len(g))
}

// notPlayedOffText says why group g of stats.Stats.NotPlayedOff, bots
// tied in placement, was not played off, for one bot as for several (the
// results page says it in the same words).
func notPlayedOffText(g []string) string {
	const why = "(in every match a start or build fault, or every answer replaced by the game's default)"
	if len(g) == 1 {
		return g[0] + " could not play " + why + ", so it ranks behind the bots of its mean place that played, without a playoff; see its faults and defaults"
	}
	return strings.Join(g, ", ") + " could not play " + why + ", so a playoff would only repeat the tie; see their faults and defaults"
}
