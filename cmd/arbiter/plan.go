package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

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
	l, err := cf.load(path, stderr)
	if err != nil {
		return err
	}
	p := l.plan
	if *asJSON {
		b, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	fmt.Fprintf(stdout, "Tournament %s: game %s %s, %d round(s), %d players per match, seats %s, deal %s, seed %d\n",
		p.Tournament, p.Game.Driver, p.Game.Name, p.Rounds, p.Players, p.Seats, p.Deal, p.Seed)
	clock := "unlimited"
	if len(p.Matches) > 0 {
		c := p.Matches[0].Clock
		var parts []string
		if c.Total > 0 {
			parts = append(parts, "total "+time.Duration(c.Total).String())
		}
		if c.Move > 0 {
			parts = append(parts, "move "+time.Duration(c.Move).String())
		}
		if len(parts) > 0 {
			clock = strings.Join(parts, ", ")
		}
	}
	fmt.Fprintf(stdout, "Clock per bot: %s. %d match(es). Plan hash %s\n", clock, len(p.Matches), p.Hash)
	for _, line := range describe(p) {
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprint(stdout, "\nBots:\n")
	for _, b := range p.Bots {
		how := "house " + b.House
		if b.House == "" {
			how = fmt.Sprintf("%q in %s", b.Command, b.Dir)
		}
		fmt.Fprintf(stdout, "  %-16s %s\n  %-16s %s\n", b.Name, how, "", planLimits(b))
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MATCH\tSEED\tSEATS")
	for _, m := range p.Matches {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", m.ID, m.Seed, strings.Join(m.Seats, " "))
	}
	return tw.Flush()
}

// describe says in sentences how the plan's format, seat design, later
// rounds and stopping rule work.
func describe(p *plan.Plan) []string {
	field := len(p.Bots) - len(p.Fill)
	seatings := len(plan.Seatings(p.Seats, p.Players))
	var lines []string
	switch p.Format {
	case "round-robin":
		lines = append(lines, fmt.Sprintf("Format round-robin: every combination of %d of the %d bots, every round.", p.Players, field))
	case "gauntlet":
		lines = append(lines, fmt.Sprintf("Format gauntlet: %s against every combination of %d of the other bots, every round.",
			strings.Join(p.Candidates, ", "), p.Players-1))
	case "swiss":
		lines = append(lines, "Format swiss: round 1 drawn at random.")
	default:
		lines = append(lines, fmt.Sprintf("Format groups: %d group(s) of %d per round.", len(plan.GroupSizes(field, p.Players)), p.Players))
	}
	lines = append(lines, fmt.Sprintf("Seats %s: %d seating(s) per group.", p.Seats, seatings))
	if l := p.Later; l != nil {
		switch l.Pairing {
		case "rating":
			lines = append(lines, fmt.Sprintf("Rounds %d-%d are grouped at random; rounds %d-%d are grouped by rating, each when every match before it has finished: "+
				"the top-rated bot still free gets the opponents whose games would shrink the variance of its BayesElo rating most (close ratings, few meetings). "+
				"Each paired round is written to rounds/ in the results directory.", 1, l.From-1, l.From, p.Rounds))
		case "swiss":
			lines = append(lines, fmt.Sprintf("Rounds %d-%d are paired by score, each when every match before it has finished: the best bot still free with the bots that met it least, closest in score. "+
				"Each paired round is written to rounds/ in the results directory.", l.From, p.Rounds))
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
