package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers/all"
)

func cmdValidate(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("validate", stderr)
	var cf configFlags
	asJSON := fs.Bool("json", false, "print diagnostics as JSON")
	cf.registerRoot(fs)
	path, err := cf.parse(fs, args)
	if err != nil {
		return err
	}
	if isPlanFile(path) {
		return validatePlan(&cf, path, *asJSON, stdout)
	}
	// Every failure is JSON with -json, as the diagnostics are: a script
	// reads stdout whatever went wrong.
	fail := func(summary string, err error) error {
		if !*asJSON {
			return err
		}
		d := errDiagOf(summary, err)
		if err := writeJSON(stdout, jsonDiags(hcl.Diagnostics{d})); err != nil {
			return err
		}
		return reportedAs(err)
	}
	if cf.root != "" {
		return fail("Invalid option", errRootWithConfig)
	}
	cfg, diags := config.Load(path, config.Options{
		Vars: cf.vars, VarFiles: cf.varFiles, Driver: all.Driver, DriverNames: all.Names(), Tournament: cf.tournament,
	})
	// Compile every tournament too: some problems (like too few fill bots)
	// only show when the plan is made. The matches are made one at a time
	// for the plan's hash, never held.
	var summary []string
	var tournaments []*config.Tournament
	if !diags.HasErrors() {
		var what string
		if tournaments, what, err = validated(cfg, cf.tournament); err != nil {
			if len(diags) > 0 && !*asJSON {
				printDiags(stderr, cfg, diags)
			}
			return fail(what, err)
		}
	}
	if !diags.HasErrors() {
		for _, t := range tournaments {
			p, _, n, d := compile.Stream(cfg, t)
			diags = appendNew(diags, d)
			if p != nil {
				coming := p.RoundsToCome()
				if p.Stop != nil { // which may end the run before them
					coming = nil
				}
				summary = append(summary, fmt.Sprintf("tournament %q: %d matches%s, plan %.12s", t.Name, n, coming, p.Hash))
			}
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, jsonDiags(diags)); err != nil {
			return err
		}
		if diags.HasErrors() {
			return errReported
		}
		return nil
	}
	if len(diags) > 0 {
		printDiags(stderr, cfg, diags)
	}
	if diags.HasErrors() {
		return errReported
	}
	fmt.Fprintf(stdout, "The configuration is valid: %d bot(s), %d game(s), %d tournament(s).\n", len(cfg.Bots), len(cfg.Games), len(cfg.Tournaments))
	for _, s := range summary {
		fmt.Fprintln(stdout, "  "+s)
	}
	return nil
}

// validated are the tournaments validate compiles: every one, or, as
// for plan and run, the one -tournament names; a configuration without
// one has nothing to plan. what summarises the error.
func validated(cfg *config.Config, name string) (ts []*config.Tournament, what string, err error) {
	if name == "" && len(cfg.Tournaments) > 0 {
		return cfg.Tournaments, "", nil
	}
	t, err := cfg.Tournament(name)
	if err != nil {
		what = "Unknown tournament"
		if name == "" {
			what = "No tournament"
		}
		return nil, what, err
	}
	return []*config.Tournament{t}, "", nil
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonDiag struct {
	Severity string     `json:"severity"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail,omitempty"`
	Range    *jsonRange `json:"range,omitempty"`
}

type jsonResult struct {
	Valid       bool       `json:"valid"`
	ErrorCount  int        `json:"error_count"`
	Diagnostics []jsonDiag `json:"diagnostics"`
}

// errRootWithConfig refuses -root with a configuration.
var errRootWithConfig = usageError("-root is for a saved plan (a .json file); the bot dirs of a configuration are relative to its own directory")

// errDiagOf is a command's error as a diagnostic without a place: its
// message as the detail, a sentence.
func errDiagOf(summary string, err error) *hcl.Diagnostic {
	detail := err.Error()
	detail = strings.ToUpper(detail[:1]) + detail[1:]
	if !strings.HasSuffix(detail, ".") {
		detail += "."
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

// writeJSON writes v as validate -json writes its results.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func jsonDiags(diags hcl.Diagnostics) jsonResult {
	res := jsonResult{Valid: !diags.HasErrors(), Diagnostics: []jsonDiag{}}
	for _, d := range diags {
		jd := jsonDiag{Severity: "warning", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagError {
			jd.Severity = "error"
			res.ErrorCount++
		}
		if d.Subject != nil {
			s := d.Subject
			jd.Range = &jsonRange{Filename: s.Filename,
				Start: jsonPos{s.Start.Line, s.Start.Column, s.Start.Byte},
				End:   jsonPos{s.End.Line, s.End.Column, s.End.Byte}}
		}
		res.Diagnostics = append(res.Diagnostics, jd)
	}
	return res
}

// appendNew appends to diags those of more it does not hold already: a
// warning about a bot (a link out of its folder) comes from each
// tournament it plays in, and is said once.
func appendNew(diags, more hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range more {
		if !slices.ContainsFunc(diags, func(e *hcl.Diagnostic) bool {
			return e.Severity == d.Severity && e.Summary == d.Summary && e.Detail == d.Detail &&
				(e.Subject == nil) == (d.Subject == nil) && (e.Subject == nil || *e.Subject == *d.Subject)
		}) {
			diags = append(diags, d)
		}
	}
	return diags
}
