package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/drivers/conform"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/hashicorp/go-hclog"
)

// cmdCheck runs a game's conformance cases against one bot:
//
//	arbiter check GAME [flags] -- COMMAND ARGS...
//	arbiter check -bot NAME [flags] [PATH]
func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check", stderr)
	asJSON := fs.Bool("json", false, "print the results as JSON")
	move := fs.Duration("move", 5*time.Second, "time the bot has for one answer")
	timeout := fs.Duration("timeout", 2*time.Minute, "time one case may take in all")
	dir := fs.String("dir", ".", "working directory of COMMAND")
	botName := fs.String("bot", "", "check this bot of the configuration at PATH, under the rules of its tournament's game, instead of a COMMAND")
	sandbox := fs.Bool("sandbox", true, "run COMMAND in the sandbox under the game's default limits, as a tournament runs a bot without a limits block (-sandbox=false: bare, as a bot with sandbox = false; -bot takes the bot's own limits)")
	rebuild := fs.Bool("rebuild", false, "with -bot: build the bot even when it is unchanged since its last build for check or console")
	var only, env listFlag
	fs.Var(&only, "case", "run only this case (repeatable)")
	fs.Var(&env, "env", "add K=V to the bot's environment (repeatable), e.g. ARBITER_PREFIX=tym42 for Auction")
	var cf configFlags
	cf.registerBot(fs)
	before, command := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		before, command = args[:i], args[i+1:]
	}
	pos, err := parseFlags(fs, before)
	if err != nil {
		return err
	}
	if err := targetFlagsApart(fs, *botName != "", *rebuild); err != nil {
		return err
	}
	// The bot's files as its build left them: not built again by
	// another check until its cases have run.
	game, bot, p, release, err := checkTarget(&cf, pos, command, *botName, *dir, *rebuild, stderr)
	if err != nil {
		return err
	}
	defer release()
	bot.Env = append(bot.Env, env...)
	if *botName == "" {
		bot.Limits = commandLimits(game, bot.Command, bot.Dir, bot.Env, *sandbox)
	}
	bot.Limits = bot.Limits.WithBotDir(bot.Dir) // as a run seats it (per-move bots run in a game's folder)
	drv, ok := all.Driver(game)
	if !ok {
		return fmt.Errorf("no game %q; games: %s", game, strings.Join(all.Names(), ", "))
	}
	checker, ok := drv.(drivers.Checker)
	if !ok {
		return fmt.Errorf("game %s has no conformance cases", game)
	}
	opts := conform.Options{Move: *move, Case: *timeout, Only: only}
	if p != nil {
		// A bot of a configuration is held to the rules and limits of its
		// tournament's game, as a run would hold it; a command, to the
		// game's defaults.
		if opts.Game, err = drv.LoadGame(p.Game.Settings); err != nil {
			return fmt.Errorf("the game of tournament %s: %w", p.Tournament, err)
		}
		opts.Clock = p.GameClock()
		opts.Players = planPlayers(p)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	results, err := conform.Run(ctx, checker.CheckCases(), bot, opts)
	if err != nil {
		return err
	}
	var clock string // which cases judge time
	if c, ok := checker.(drivers.CheckClocker); ok {
		clock = c.CheckClock(drivers.CheckOptions{Move: drivers.Duration(*move), Game: opts.Game, Clock: opts.Clock})
	}
	failed := printCheck(stdout, game, bot, clock, results, *asJSON)
	if failed > 0 {
		if !*asJSON {
			fmt.Fprintf(stderr, "arbiter check: %d of %d cases failed\n", failed, len(results)-skippedCases(results))
		}
		return errReported
	}
	return nil
}

// checkTarget is the game and the bot that check was asked to check,
// and the plan of the configuration the bot is from (nil for a bot given
// by its command).
// With rebuild, a bot with a build is built even when its last build's
// verdict holds for it. No other check or console builds the bot until
// release, which is never nil (buildForCheck).
func checkTarget(cf *configFlags, pos, command []string, botName, dir string, rebuild bool, stderr io.Writer) (game string, seat drivers.Seat, p *plan.Plan, release func(), err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", drivers.Seat{}, nil, nil, err
	}
	if botName == "" {
		if st, err := os.Stat(abs); err != nil {
			return "", drivers.Seat{}, nil, nil, fmt.Errorf("-dir: %w", err)
		} else if !st.IsDir() {
			return "", drivers.Seat{}, nil, nil, fmt.Errorf("-dir: %s is not a folder", abs)
		}
	}
	seat = drivers.Seat{Bot: "bot", Nick: "bot", Dir: abs, Command: command,
		Env: drivers.BotEnv("check", 0, 1)}
	if botName == "" {
		if len(pos) > 1 && len(command) == 0 {
			// The command's words came as arguments of check itself.
			return "", seat, nil, nil, fmt.Errorf("the bot's command goes after --: arbiter check %s -- %s", pos[0], strings.Join(pos[1:], " "))
		}
		if len(pos) != 1 || len(command) == 0 {
			return "", seat, nil, nil, fmt.Errorf("usage: arbiter check GAME -- COMMAND ARGS... (or: arbiter check -bot NAME [PATH])")
		}
		seat.Command[0] = commandPath(command[0], abs)
		return pos[0], seat, nil, func() {}, nil
	}
	if len(command) > 0 {
		return "", seat, nil, nil, usageError("give a bot by -bot NAME or by -- COMMAND, not both")
	}
	path, err := onePath(pos)
	if err != nil {
		return "", seat, nil, nil, err
	}
	l, err := cf.load(path, stderr)
	if err != nil {
		return "", seat, nil, nil, err
	}
	b := l.plan.Bot(botName)
	if b == nil {
		return "", seat, nil, nil, noBot(l, botName)
	}
	if err := savedBotProblem(path, b, l.root); err != nil {
		return "", seat, nil, nil, err
	}
	seat.Bot, seat.Nick = b.Name, b.Name
	if b.Limits != nil {
		seat.Limits = *b.Limits
	}
	for k, v := range b.Env {
		seat.Env = append(seat.Env, k+"="+v)
	}
	slices.Sort(seat.Env)
	if b.House != "" {
		seat.Command = []string{selfPath(), "bot", b.House}
	} else {
		seat.Command, seat.Dir = slices.Clone(b.Command), b.DirIn(l.root)
	}
	// Its own lines say whether it builds: the log, only what goes wrong.
	logger := cf.logger(stderr)
	if logger.GetLevel() < hclog.Warn {
		logger.SetLevel(hclog.Warn)
	}
	release, err = buildForCheck(cf, l, path, b.Name, rebuild, stderr, logger)
	return l.plan.Game.Driver, seat, l.plan, release, err
}

// savedBotProblem is run's refusal of a saved plan (checkSaved) of bot
// b, checked on its own, when path is a saved plan whose bot b cannot
// run in its dir under root (-root, default: the plan file's directory):
// /tmp itself in the sandbox, a dir that is not there or holds none of
// its files. It is told before the bot starts, not as the start fault
// of every case.
func savedBotProblem(path string, b *plan.Bot, root string) error {
	if !isPlanFile(path) || b.House != "" {
		return nil
	}
	if pr := savedDirProblem(b, root); pr != "" {
		return savedError(path, []string{pr})
	}
	return nil
}

// planPlayers are the numbers of players the matches of p have, in
// order: its players, or each stage's; nil when a stage seats a whole
// pool, whose size the plan does not fix.
func planPlayers(p *plan.Plan) []int {
	if len(p.Stages) == 0 {
		if p.Players <= 0 {
			return nil
		}
		return []int{p.Players}
	}
	var out []int
	for _, s := range p.Stages {
		if s.Players <= 0 {
			return nil
		}
		if !slices.Contains(out, s.Players) {
			out = append(out, s.Players)
		}
	}
	slices.Sort(out)
	return out
}

// noBot says why check cannot take bot name from l: the plan holds only
// the bots of its tournament, so a bot declared but not entered needs
// another tournament, or an entry in this one.
func noBot(l *loaded, name string) error {
	if l.cfg == nil {
		return l.plan.UnknownBot(name)
	}
	if l.cfg.Bot(name) == nil {
		return l.cfg.UnknownBot(name)
	}
	how := fmt.Sprintf("add bot.%s to its bots", name)
	if len(l.cfg.Unchecked) > 0 { // -tournament chose this one of several
		how += fmt.Sprintf(", or name a tournament that has it with -tournament (the others: %s)", strings.Join(l.cfg.Unchecked, ", "))
	}
	return fmt.Errorf("bot %q is declared but not in the bots of tournament %q, and check takes a bot as its tournament runs it: %s", name, l.t.Name, how)
}

// commandLimits are the limits of a bot given by its command (check,
// console): those a tournament of game gives a bot without a limits
// block, in the sandbox; with sandbox false none, as for a bot with
// sandbox = false (config.BotLimits).
func commandLimits(game string, argv []string, dir string, env []string, sandbox bool) drivers.Limits {
	if !sandbox {
		return drivers.Limits{}
	}
	var lim drivers.Limits
	if drv, ok := all.Driver(game); ok {
		if d, ok := drv.(drivers.DefaultLimiter); ok {
			lim = d.DefaultLimits()
		}
	}
	sb := drivers.ResolveSandbox(argv, dir, env)
	lim.Sandbox = &sb
	return lim
}

// buildForCheck builds bot name of l's plan (loaded from path) if it has
// a build, as a run would, before it is checked: unless rebuild is false
// and its last build for check or console succeeded and holds for it as
// it is now (engine.BuildOutside), which it says. No other check or
// console builds the bot again until release (which is never nil): the
// caller runs the bot's files until then. logger is told of the folders
// of ended arbiters' builds it gives back first (engine.GiveBackLent),
// and of another check or console of the bot that it waits for.
func buildForCheck(cf *configFlags, l *loaded, path, name string, rebuild bool, stderr io.Writer, logger hclog.Logger) (release func(), err error) {
	b := l.plan.Bot(name)
	if len(b.Build) == 0 {
		return func() {}, nil
	}
	announce := func() { fmt.Fprintf(stderr, "building %s: %s\n", b.Name, strings.Join(b.Build, " ")) }
	built, err := engine.BuildOutside(context.Background(), l.plan, name, cf.fingerprintOptions(l, path), rebuild, logger, announce)
	if err == nil && built.Record.OK {
		if built.Kept {
			fmt.Fprintf(stderr, "not building %s: unchanged since its last build (fingerprint %s), whose verdict is kept in %s\n",
				b.Name, built.Record.Fingerprint, built.Verdict)
		}
		if built.Temporary() {
			// Nothing to hold: its folder goes now, not left behind by a
			// check or console ended by a signal.
			built.Close()
			return func() {}, nil
		}
		return func() { built.Close() }, nil
	}
	defer built.Close()
	if err != nil {
		return func() {}, err
	}
	rec := built.Record
	out, _ := os.ReadFile(built.Log)
	detail := rec.Detail
	if built.Temporary() { // its log is removed on return: the output below is all of it
		detail = strings.TrimSuffix(detail, " (its output is in "+built.Log+")")
	}
	return func() {}, fmt.Errorf("bot %s: %s:\n%s", b.Name, detail, strings.TrimSpace(string(out)))
}

// commandPath makes a command given as a relative path (./bot) absolute,
// so that it names the same file from the working directory -dir.
func commandPath(name, dir string) string {
	if !strings.ContainsRune(name, '/') || filepath.IsAbs(name) {
		return name
	}
	if abs, err := filepath.Abs(name); err == nil {
		if _, err := os.Stat(abs); err == nil {
			return abs
		}
	}
	return filepath.Join(dir, name)
}

// printCheck prints the results of the cases run against bot, after
// clock, which says which cases judge time.
func printCheck(w io.Writer, game string, bot drivers.Seat, clock string, results []conform.Result, asJSON bool) (failed int) {
	skipped := skippedCases(results)
	for _, r := range results {
		if !r.OK {
			failed++
		}
	}
	if asJSON {
		out := struct {
			Game    string           `json:"game"`
			Command []string         `json:"command"`
			Clock   string           `json:"clock,omitempty"`
			Passed  int              `json:"passed"`
			Failed  int              `json:"failed"`
			Skipped int              `json:"skipped,omitempty"`
			Cases   []conform.Result `json:"cases"`
		}{game, bot.Command, clock, len(results) - failed - skipped, failed, skipped, results}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return failed
	}
	fmt.Fprintf(w, "%s conformance of: %s\n", game, strings.Join(bot.Command, " "))
	if clock != "" {
		fmt.Fprintf(w, "time: %s\n", clock)
	}
	for _, r := range results {
		if r.Skipped {
			fmt.Fprintf(w, "skip  %-14s %7s  %s\n      why: %s\n", r.Case, "", r.Doc, r.Reason)
			continue
		}
		if r.OK {
			fmt.Fprintf(w, "ok    %-14s %6.2fs  %s\n", r.Case, float64(r.ElapsedMS)/1000, r.Doc)
			continue
		}
		fmt.Fprintf(w, "FAIL  %-14s %6.2fs  %s\n", r.Case, float64(r.ElapsedMS)/1000, r.Doc)
		fmt.Fprintf(w, "      why: %s\n", r.Reason)
		if len(r.Exchange) > 0 {
			fmt.Fprintf(w, "      exchange (> sent to the bot, < its answer):\n")
			for _, l := range r.Exchange {
				if dir, line, ok := strings.Cut(l, " "); ok && (dir == ">" || dir == "<") {
					l = dir + " " + shown(line)
				}
				fmt.Fprintf(w, "        %s\n", l)
			}
		}
		if r.Stderr != "" {
			fmt.Fprintf(w, "      its stderr ends with:\n")
			for _, l := range strings.Split(r.Stderr, "\n") {
				fmt.Fprintf(w, "        %s\n", shown(l))
			}
		}
	}
	if skipped > 0 {
		fmt.Fprintf(w, "%d of %d cases passed, %d skipped\n", len(results)-failed-skipped, len(results)-skipped, skipped)
		return failed
	}
	fmt.Fprintf(w, "%d of %d cases passed\n", len(results)-failed, len(results))
	return failed
}

// skippedCases is how many of results were skipped.
func skippedCases(results []conform.Result) int {
	n := 0
	for _, r := range results {
		if r.Skipped {
			n++
		}
	}
	return n
}

// targetFlagsApart refuses, as a usage error, a flag of check or console
// that the bot's form does not use, rather than leave it unused: with
// -bot (byBot), a COMMAND's -dir and -sandbox (the configuration gives
// the bot's dir and limits); with a COMMAND, -rebuild (given true) and
// the configuration's -var, -var-file and -tournament, and a saved
// plan's -root.
func targetFlagsApart(fs *flag.FlagSet, byBot, rebuild bool) error {
	if byBot {
		if flagSet(fs, "dir") {
			return usageError("-dir goes with a COMMAND: a bot given by -bot runs in its own dir, as the configuration says")
		}
		if flagSet(fs, "sandbox") {
			return usageError("-sandbox goes with a COMMAND: a bot given by -bot runs under its own limits, sandbox included, as the configuration says")
		}
		return nil
	}
	if rebuild {
		return usageError("-rebuild goes with -bot: a COMMAND is not built")
	}
	for _, name := range []string{"var", "var-file", "tournament"} {
		if flagSet(fs, name) {
			return usageError("-%s goes with -bot NAME: it sets the configuration the bot is read from, and a COMMAND has none", name)
		}
	}
	if flagSet(fs, "root") {
		return usageError("-root goes with -bot NAME and a saved plan: it is where the plan's relative bot dirs are, and a COMMAND has no plan")
	}
	return nil
}

// flagSet says whether the command line set flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// shown is a line of a bot's output (or stderr) as check and console
// print it to the author's terminal: as it is when every character is
// printable (tabs too), else quoted with Go's escapes ("\x1b[2J",
// "\x00", "\xff"), as a fault's reason quotes an answer, so that a bot
// cannot move the cursor, clear or recolour the terminal.
func shown(line string) string {
	for _, r := range line {
		if r == utf8.RuneError || (!unicode.IsPrint(r) && r != '\t') {
			return strconv.Quote(line)
		}
	}
	return line
}
