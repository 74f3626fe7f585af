package main

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

func cmdPlan(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plan", stderr)
	var cf configFlags
	asJSON := fs.Bool("json", false, "print the plan as JSON")
	path, err := cf.parse(fs, args)
	if err != nil {
		return err
	}
	// The matches are made as they are written, not held: a plan of a
	// million matches is printed in the memory of one.
	l, err := cf.loadStream(path, stderr)
	if err != nil {
		return err
	}
	p := l.plan
	// A saved plan is shown as it was, with the fingerprints of when it
	// was compiled; a configuration's bots as they are now.
	if l.cfg != nil {
		o := cf.fingerprintOptions(l, path)
		if *asJSON {
			// arbiter plan -json CONF > CONF/plan.json: the file being
			// written is a saved plan, not part of the bot in CONF.
			o.Output = regularFile(stdout)
		}
		if err := fingerprint.Plan(p, o); err != nil {
			return err
		}
	}
	if *asJSON {
		return p.EncodeSeq(stdout, true, l.matches)
	}
	if len(p.Stages) > 0 {
		fmt.Fprintf(stdout, "Tournament %s: game %s %s, %d stage(s), deal %s, seed %d\n",
			p.Tournament, p.Game.Driver, p.Game.Name, len(p.Stages), p.Deal, p.Seed)
	} else {
		fmt.Fprintf(stdout, "Tournament %s: game %s %s, %d round(s), %d players per match, seats %s, deal %s, seed %d\n",
			p.Tournament, p.Game.Driver, p.Game.Name, p.Rounds, p.Players, p.Seats, p.Deal, p.Seed)
	}
	writeGameSettings(stdout, p)
	fmt.Fprintf(stdout, "Clock per bot: %s%s. %d match(es). Plan hash %s\n", describeClock(p, l.matches), clockMeaning(p), l.count, p.Hash)
	for _, line := range describe(p) {
		fmt.Fprintln(stdout, line)
	}
	if g, ok := planGame(p).(drivers.Earlier); ok {
		for _, line := range g.EarlierRules() {
			fmt.Fprintln(stdout, line)
		}
	}
	fmt.Fprintf(stdout, "\nArbiter: %s\n", p.Arbiter.ID())
	fmt.Fprint(stdout, "Bots and their fingerprints:\n")
	for _, b := range p.Bots {
		writeBot(stdout, &b)
		fmt.Fprintf(stdout, "  %-16s %s\n", "", planLimits(b))
	}
	fmt.Fprintln(stdout)
	return writeMatches(stdout, l.matches)
}

// regularFile is the file w writes to when it is a regular file, else nil.
func regularFile(w io.Writer) fs.FileInfo {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return fi
}

// writeGameSettings prints the game's settings as the plan records them,
// which are what its driver rebuilds the game from: a setting that
// changes shows here, not only in the plan's hash.
func writeGameSettings(w io.Writer, p *plan.Plan) {
	fmt.Fprintf(w, "Game settings (%s %s):\n", p.Game.Driver, p.Game.Name)
	keys, values := plan.TextFields(p.Game.Settings)
	for i, k := range keys {
		if k == "" {
			fmt.Fprintf(w, "  %s\n", values[i])
		} else {
			fmt.Fprintf(w, "  %s %s\n", k, values[i])
		}
	}
}

// clockMeaning is what the plan's clock is, when its game says it is not
// its move limit (drivers.ClockTeller), in parentheses; else "".
func clockMeaning(p *plan.Plan) string {
	if t, ok := planGame(p).(drivers.ClockTeller); ok {
		return " (" + t.ClockMeaning() + ")"
	}
	return ""
}

// planGame is the plan's game as its driver rebuilds it, or nil when it
// cannot (the plan's check has said why).
func planGame(p *plan.Plan) drivers.Game {
	d, ok := all.Driver(p.Game.Driver)
	if !ok {
		return nil
	}
	g, err := d.LoadGame(p.Game.Settings)
	if err != nil {
		return nil
	}
	return g
}

// describeClock is the clock of the first match in words, or, when none
// is listed (a stage's field or a round known only during the run, or
// no match at all), the clock the plan gives its later matches and
// stages: the game's.
func describeClock(p *plan.Plan, ms plan.Seq) string {
	clock := p.GameClock()
	if ms != nil {
		ms(func(m *plan.Match) bool {
			clock = m.Clock
			return false
		})
	}
	return clock.String()
}

// writeMatches prints the table of matches, aligned as a tabwriter with a
// padding of 2 would, without holding the table in memory: the widths of
// the columns are found first.
func writeMatches(stdout io.Writer, matches plan.Seq) error {
	idW, seedW := len("MATCH"), len("SEED")
	var num [20]byte
	if matches != nil {
		matches(func(m *plan.Match) bool {
			idW = max(idW, utf8.RuneCountInString(m.ID))
			seedW = max(seedW, len(strconv.AppendUint(num[:0], m.Seed, 10)))
			return true
		})
	}
	w := bufio.NewWriterSize(stdout, 64<<10)
	pad := func(n int) {
		for range n {
			w.WriteByte(' ')
		}
	}
	line := func(id string, seed []byte, seats []string) {
		w.WriteString(id)
		pad(idW + 2 - utf8.RuneCountInString(id))
		w.Write(seed)
		pad(seedW + 2 - len(seed))
		for i, s := range seats {
			if i > 0 {
				w.WriteByte(' ')
			}
			w.WriteString(s)
		}
		w.WriteByte('\n')
	}
	line("MATCH", []byte("SEED"), []string{"SEATS"})
	if matches != nil {
		matches(func(m *plan.Match) bool {
			line(m.ID, strconv.AppendUint(num[:0], m.Seed, 10), m.Seats)
			return true
		})
	}
	return w.Flush()
}

// describe says in sentences how the plan's format, seat design, later
// rounds and stopping rule work.
func describe(p *plan.Plan) []string {
	if len(p.Stages) > 0 {
		lines := []string{fmt.Sprintf("In %d stages, each a round robin within its groups; a stage picking from earlier stages' standings gets its matches when they have finished (see docs/stages.md):", len(p.Stages))}
		for k := range p.Stages {
			lines = append(lines, "  "+p.DescribeStage(k))
		}
		return lines
	}
	field := len(p.Bots) - len(p.Fill)
	lines := []string{
		p.Format.Describe(p.Players, field, p.Candidates),
		fmt.Sprintf("Seats %s: %d seating(s) per group.", p.Seats, len(p.Seats.Seatings(p.Players))),
	}
	if d := p.Order.Describe(); d != "" {
		lines = append(lines, d)
	}
	if l := p.Later; l != nil {
		if d := l.Pairing.Describe(l.From, p.Rounds); d != "" {
			lines = append(lines, d)
			if now := plan.RevisionFor(l.Pairing, p.Players); l.Revision < now {
				lines = append(lines, fmt.Sprintf("The plan was made by an earlier arbiter, so its rounds are paired by revision %d of the pairing rules, as it began; a plan made now has revision %d (formats.md).",
					l.Revision, now))
			}
		}
		if l.Playoffs {
			lines = append(lines, fmt.Sprintf("After the last round, bots tied on mean place play playoff matches among themselves (ids playoff-*, up to %d stages).", plan.MaxPlayoffs))
		}
	}
	if st := p.Stop; st != nil {
		var rules []string
		if t := st.SPRT; t != nil {
			model := t.Model
			if model == "" {
				model = "normalized"
			}
			rules = append(rules, fmt.Sprintf("when an SPRT of %s against its opponents decides (elo0 %g, elo1 %g, %s Elo, alpha %g, beta %g)", t.Candidate, t.Elo0, t.Elo1, model, t.Alpha, t.Beta))
		}
		if st.MaxMatches > 0 {
			rules = append(rules, fmt.Sprintf("after %d matches", st.MaxMatches))
		}
		if st.IntervalWidth > 0 {
			rules = append(rules, fmt.Sprintf("at the end of a round where every 95%% rating interval is narrower than %g Elo", st.IntervalWidth))
		}
		lines = append(lines, "Stops "+strings.Join(rules, "; or ")+" (checked on the finished matches in plan order).")
	}
	return lines
}

// writeBot prints a bot, its fingerprint and what the fingerprint left out.
func writeBot(w io.Writer, b *plan.Bot) {
	how := "house " + b.House
	if b.House == "" {
		how = fmt.Sprintf("%q in %s", b.Command, b.Dir)
	}
	fmt.Fprintf(w, "  %-16s %s\n", b.Name, how)
	fp := b.Fingerprint
	if fp == nil {
		writeBotSettings(w, b)
		return
	}
	what := fmt.Sprintf("%d file(s)", len(fp.Files))
	if fp.House != "" {
		what = "arbiter's build"
	}
	fmt.Fprintf(w, "  %-16s %s (%s)\n", "", fp.Hash, what)
	writeBotSettings(w, b)
	for _, s := range fp.Skipped {
		fmt.Fprintf(w, "  %-16s not hashed: %s\n", "", s)
	}
}

// writeBotSettings prints what else of bot b the plan's hash covers (its
// nick, env, build and build timeout), so that a changed one shows in
// the text, not only in the hash; env sorted by name.
func writeBotSettings(w io.Writer, b *plan.Bot) {
	if b.Nick != "" {
		fmt.Fprintf(w, "  %-16s nick %q\n", "", b.Nick)
	}
	if len(b.Env) > 0 {
		var vars []string
		for _, k := range slices.Sorted(maps.Keys(b.Env)) {
			vars = append(vars, fmt.Sprintf("%s=%q", k, b.Env[k]))
		}
		fmt.Fprintf(w, "  %-16s env %s\n", "", strings.Join(vars, " "))
	}
	if len(b.Build) > 0 {
		timeout := ""
		if b.BuildTimeout != 0 {
			timeout = fmt.Sprintf(", timeout %s", time.Duration(b.BuildTimeout))
		}
		fmt.Fprintf(w, "  %-16s build %q%s\n", "", b.Build, timeout)
	}
}
