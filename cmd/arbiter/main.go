// Command arbiter runs matches and tournaments between game-playing
// programs, as declared in HCL files.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	// Runs a house bot (`arbiter bot GAME/NAME`) from its init, before the
	// packages it does not need initialise.
	_ "github.com/arbiter-contests/arbiter/drivers/house/start"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

const usage = `arbiter runs matches and tournaments between game-playing bots.

Usage:
  arbiter validate [PATH] [-json] [-root DIR]  check a configuration
  arbiter plan     [PATH] [-json]              print the match plan
  arbiter run      [PATH] [-out DIR] [-j N] [-pin=false] [-match ID ...]
                   [-root DIR] [-allow-changed-bots] [-gzip] [-serve ADDR]
                                               run the plan, resuming into DIR
  arbiter run      PATH -out DIR -shard K/N [-stage S]
                                               run one shard of the plan (docs/distributed.md)
  arbiter merge    -out DIR [-partial] SHARD_DIR...
                                               merge shards into one results directory
  arbiter slurm    [PATH] -out DIR -shards N [-partition P] [-time T] [-cpus C]
                   [-work W] [-root DIR] [-allow-changed-bots] [-submit]
                                               run the plan as Slurm jobs: shards, then merges
  arbiter replay   DIR MATCH... | DIR -round N
                   [-out DIR2] [-j N] [-pin=false] [-root DIR] [-allow-changed-bots]
                                               play finished matches again and
                                               compare them with their transcripts
  arbiter rank     DIR [-json | [-crosstable] [-los]] [-export-pgn FILE]
                                               standings of a results directory
  arbiter rank     DIR -vs A,B [-sprt ELO0,ELO1[,ALPHA,BETA]] [-sprt-model M] [-json] [-export-pgn FILE]
                                               head-to-head statistics of two bots
  arbiter rank     -pgn FILE [-advantage N] [-drawelo N] [-prior N] [-json]
                                               BayesElo ratings of a PGN file
  arbiter report   DIR [-o FILE]               write the results page (one HTML file)
  arbiter serve    DIR [-addr ADDR]            serve the results page, live while a run writes DIR
  arbiter bot      GAME/NAME [ARG ...] | -list [GAME[/NAME]]
                                               run a built-in bot on stdin/stdout, or list them
  arbiter fmt      [-check] [PATH...]          format HCL files
  arbiter doctor   [-json]                     how this machine confines bots, limit by limit
  arbiter check    GAME [-dir DIR] [-sandbox=false] -- COMMAND ARGS... | -bot NAME [-rebuild] [PATH]
                   [-root DIR] [-json] [-case NAME] [-move D] [-timeout D] [-env K=V]
                                               run a bot through its game's conformance cases
  arbiter console  GAME [-sandbox=false] -- COMMAND ARGS... | -bot NAME [-rebuild] [PATH]
                   [-root DIR] [-from MATCH_DIR -seat N] [-move D] [-env K=V]
                                               talk to a bot: type protocol lines, see answers and times
  arbiter init     GAME [DIR]                  write a tournament with starter bots (Python, C++, Java)

PATH is a directory of .hcl files or one .hcl file (default: the current
directory), or a saved plan: a .json file written by "arbiter plan -json"
or a results directory's plan.json, which runs without the configuration;
its relative bot dirs are relative to -root (default: the plan file's
directory). validate, plan, run, slurm, check and console also take -var NAME=VALUE,
-var-file FILE, -tournament NAME (configurations only, so not check's or
console's COMMAND), -log-level LEVEL and -log-json; merge and replay also
take -log-level LEVEL.
Run "arbiter COMMAND -h" for a command's flags. Exit status: 0 on success,
1 on an invalid configuration or a failure, 2 without a command, with an
unknown one, with a flag the command does not take or cannot parse, with
a flag's value out of its range (-j 0), or with flags that do not go
together (rank DIR -advantage 5, run CONF -root X).
`

// errReported means the error was already printed (diagnostics).
var errReported = errors.New("reported")

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		// A usage error, as an unknown command is: a script that forgot
		// the command must not pass.
		fmt.Fprint(stderr, usage)
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmds := map[string]func([]string, io.Writer, io.Writer) error{
		"validate": cmdValidate,
		"plan":     cmdPlan,
		"run":      cmdRun,
		"merge":    cmdMerge,
		"slurm":    cmdSlurm,
		"replay":   cmdReplay,
		"rank":     cmdRank,
		"bot":      cmdBot,
		"fmt":      cmdFmt,
		"doctor":   cmdDoctor,
		"report":   cmdReport,
		"serve":    cmdServe,
		"check":    cmdCheck,
		"console":  cmdConsole,
		"init":     cmdInit,
		"worker":   cmdWorker,
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "arbiter: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	// The bots' cgroups this arbiter keeps to lend again go with it.
	defer proc.RemoveIdleCgroups()
	if err := cmd(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		if !errors.Is(err, errReported) {
			fmt.Fprintf(stderr, "arbiter %s: %v\n", args[0], err)
		}
		if errors.As(err, new(flagError)) {
			return 2 // a usage error, as the flag package's own exit is
		}
		return 1
	}
	return 0
}

// flagError is a command's flag that it does not know or whose value
// does not parse (the flag set has printed it with the command's flags),
// or flags that do not go together (usageError): a usage error (exit 2).
type flagError struct{ err error }

func (e flagError) Error() string { return e.err.Error() }
func (e flagError) Unwrap() error { return e.err }

// usageError is flags that do not go together, such as run's -stage
// without -shard: a usage error (exit 2), as an unknown flag is, so that
// a script whose flags the command would not use does not pass. The
// message names the flags.
func usageError(format string, a ...any) error { return flagError{fmt.Errorf(format, a...)} }

// reportedAs is errReported for err, already printed (as validate -json
// prints it), keeping its exit status: 2 when err (possibly nil) is a
// usage error.
func reportedAs(err error) error {
	if errors.As(err, new(flagError)) {
		return flagError{errReported}
	}
	return errReported
}

// parseFlags parses flags that may stand before, between or after the
// positional arguments (arbiter run examples/x -out dir), which the flag
// package alone does not allow. A duration flag must be positive
// (positiveDurations).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, flagError{err}
		}
		if fs.NArg() == 0 {
			return pos, positiveDurations(fs)
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// positiveDurations is a usage error for the first duration flag of fs,
// in the order of their names, set to zero or less: no command has a
// time limit that such a value could mean, and check's -move 0 would
// otherwise turn its per-answer limit off, as an HCL clock's "0s" is
// refused.
func positiveDurations(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		if d, ok := g.Get().(time.Duration); ok && d <= 0 {
			err = usageError("-%s must be a positive duration (500ms, 5s, 2m), not %s", f.Name, f.Value)
		}
	})
	return err
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// configFlags are the flags of commands that load a configuration.
type configFlags struct {
	vars, varFiles listFlag
	tournament     string
	root           string
	logLevel       logLevel
	logJSON        bool
}

// logLevel is a -log-level flag: one of logLevels. hclog takes any
// other word as no level at all, so a typo would silently change what
// the log holds.
type logLevel string

var logLevels = []string{"trace", "debug", "info", "warn", "error"}

const logLevelUsage = "the log's `level`: trace, debug, info, warn or error"

func (l *logLevel) String() string { return string(*l) }

func (l *logLevel) Set(v string) error {
	if !slices.Contains(logLevels, strings.ToLower(v)) {
		return fmt.Errorf("%q is not a log level; use one of %s", v, strings.Join(logLevels, ", "))
	}
	*l = logLevel(strings.ToLower(v))
	return nil
}

func (l logLevel) level() hclog.Level { return hclog.LevelFromString(string(l)) }

// logLevelVar registers a -log-level flag on fs, set to def.
func logLevelVar(fs *flag.FlagSet, def string) *logLevel {
	l := logLevel(def)
	fs.Var(&l, "log-level", logLevelUsage)
	return &l
}

func (c *configFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.vars, "var", "set a variable: -var NAME=VALUE (repeatable)")
	fs.Var(&c.varFiles, "var-file", "read variables from an HCL file (repeatable)")
	fs.StringVar(&c.tournament, "tournament", "", "the tournament to use when the configuration has several")
	c.logLevel = "info"
	fs.Var(&c.logLevel, "log-level", logLevelUsage)
	fs.BoolVar(&c.logJSON, "log-json", false, "write logs as JSON lines")
}

// parse registers the configuration flags on fs, parses args and returns
// the one configuration path they name.
func (c *configFlags) parse(fs *flag.FlagSet, args []string) (string, error) {
	c.register(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return "", err
	}
	return onePath(pos)
}

func (c *configFlags) logger(w io.Writer) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{
		Name:       "arbiter",
		Level:      c.logLevel.level(),
		JSONFormat: c.logJSON,
		Output:     w,
	})
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("arbiter "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func onePath(pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return ".", nil
	case 1:
		return pos[0], nil
	}
	return "", fmt.Errorf("expected one configuration path, got %d: %s", len(pos), strings.Join(pos, " "))
}

// loaded is a configuration with its chosen tournament compiled, or a
// saved plan (then cfg and t are nil).
type loaded struct {
	cfg  *config.Config
	t    *config.Tournament
	plan *plan.Plan
	// root is the directory that the plan's relative bot dirs are in.
	root string
	// matches are the plan's count matches; after loadStream, made on
	// demand rather than held in plan.Matches.
	matches plan.Seq
	count   int
	// limitsLog is how the plan's limits are enforced here, as logged,
	// kept by loadRunnable until the run goes ahead.
	limitsLog []byte
}

// load loads the configuration at path and compiles its tournament,
// printing diagnostics to stderr, or reads the saved plan at path (a
// .json file).
func (c *configFlags) load(path string, stderr io.Writer) (*loaded, error) {
	return c.loadAs(path, stderr, func(cfg *config.Config, t *config.Tournament) (*plan.Plan, plan.Seq, int, hcl.Diagnostics) {
		p, d := compile.Compile(cfg, t)
		if p == nil {
			return nil, nil, 0, d
		}
		return p, p.All(), len(p.Matches), d
	})
}

// loadStream is load that leaves a configuration's listed matches unmade
// (compile.Stream): l.matches makes them whenever it is walked.
func (c *configFlags) loadStream(path string, stderr io.Writer) (*loaded, error) {
	return c.loadAs(path, stderr, compile.Stream)
}

func (c *configFlags) loadAs(path string, stderr io.Writer, compileT func(*config.Config, *config.Tournament) (*plan.Plan, plan.Seq, int, hcl.Diagnostics)) (*loaded, error) {
	if isPlanFile(path) {
		return c.loadPlan(path)
	}
	if c.root != "" {
		return nil, errRootWithConfig
	}
	cfg, diags := config.Load(path, config.Options{
		Vars: c.vars, VarFiles: c.varFiles, Driver: all.Driver, DriverNames: all.Names(), Tournament: c.tournament,
	})
	if diags.HasErrors() {
		printDiags(stderr, cfg, diags)
		return nil, errReported
	}
	t, err := cfg.Tournament(c.tournament)
	if err != nil {
		return nil, err
	}
	p, ms, n, pd := compileT(cfg, t)
	diags = append(diags, pd...)
	if len(diags) > 0 {
		printDiags(stderr, cfg, diags)
	}
	if diags.HasErrors() {
		return nil, errReported
	}
	return &loaded{cfg: cfg, t: t, plan: p, root: cfg.Root, matches: ms, count: n}, nil
}

// fingerprintOptions say how to fingerprint the bots of l, loaded from
// path: the configuration's files (or the saved plan) and the results
// directories are no bot's content. A saved plan's bots leave out the
// files that its fingerprints record as the configuration's, so they
// cover the same files as when it was compiled.
func (c *configFlags) fingerprintOptions(l *loaded, path string, results ...string) fingerprint.Options {
	o := fingerprint.Options{Root: l.root, Results: results, Config: slices.Clone(c.varFiles)}
	if l.cfg == nil {
		o.Plans = []string{path}
	} else {
		for name := range l.cfg.Files {
			o.Config = append(o.Config, name)
		}
	}
	return o
}

func printDiags(w io.Writer, cfg *config.Config, diags hcl.Diagnostics) {
	var files map[string]*hcl.File
	if cfg != nil {
		files = cfg.Files
	}
	dw := hcl.NewDiagnosticTextWriter(w, files, 100, false)
	_ = dw.WriteDiagnostics(diags)
	errs := 0
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs++
		}
	}
	if errs > 0 {
		fmt.Fprintf(w, "%d error(s) in the configuration.\n", errs)
	}
}

// selfPath is how to run this arbiter again, for house bots and worker
// processes: an absolute path, because bots start in other directories.
// It is recorded as this process's own executable (proc.OwnExecutable),
// so what is started by it runs the image this process runs, whatever is
// at the path by then: the build the run records.
func selfPath() string {
	p := findSelf()
	if p != "" {
		proc.OwnExecutable(p)
	}
	return p
}

// findSelf is selfPath, found from os.Args[0] as a shell found it.
func findSelf() string {
	arg0 := os.Args[0]
	if strings.ContainsRune(arg0, filepath.Separator) {
		if abs, err := filepath.Abs(arg0); err == nil {
			return abs
		}
	} else if p, err := exec.LookPath(arg0); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	exe, _ := os.Executable()
	return exe
}
