package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
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
	fmt.Fprintf(stdout, "Clock per bot: %s. %d match(es). Plan hash %s\n\nBots:\n", clock, len(p.Matches), p.Hash)
	for _, b := range p.Bots {
		how := "house " + b.House
		if b.House == "" {
			how = fmt.Sprintf("%q in %s", b.Command, b.Dir)
		}
		fmt.Fprintf(stdout, "  %-16s %s\n", b.Name, how)
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MATCH\tSEED\tSEATS")
	for _, m := range p.Matches {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", m.ID, m.Seed, strings.Join(m.Seats, " "))
	}
	return tw.Flush()
}
