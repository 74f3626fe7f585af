package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/conform"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine"
)

// consoleCommands are the protocol commands of the session games, for
// tab completion; gtp says whether an answer ends with an empty line.
var consoleCommands = map[string]struct {
	gtp  bool
	cmds []string
}{
	"planowanie": {true, []string{"set_deck", "set_players", "set_game", "set_cards", "time_left", "gen_declare", "declare", "play", "gen_move", "quit"}},
	"blokus":     {true, []string{"set_board", "set_player", "set_stones", "set_blocked", "play", "time_left", "gen_move", "quit"}},
	"bricks":     {false, []string{"START", "STOP"}},
}

// cmdConsole is an interactive session with a bot: every line typed goes
// to the bot, its answer is printed with the time it took.
func cmdConsole(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("console", stderr)
	move := fs.Duration("move", time.Minute, "how long to wait for an answer")
	sandbox := fs.Bool("sandbox", true, "run the bot in the sandbox under the game's default limits, as a tournament runs a bot without a limits block (-sandbox=false: bare)")
	from := fs.String("from", "", "a match's directory (RESULTS/matches/ID): send the bot what that match sent the seat of -seat, the lines it wrote together in one write, instead of reading lines")
	seat := fs.Int("seat", -1, "with -from: the seat (0, 1, ...) whose input to send")
	botName := fs.String("bot", "", "talk to this bot of the configuration at PATH as its tournament runs it (its game, dir, env and limits), instead of a COMMAND")
	rebuild := fs.Bool("rebuild", false, "with -bot: build the bot even when it is unchanged since its last build for check or console")
	var extra listFlag
	fs.Var(&extra, "env", "add K=V to the bot's environment (repeatable)")
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
	name, bot, release, err := consoleTarget(&cf, fs, pos, command, *botName, *sandbox, *rebuild, stderr)
	if err != nil {
		return err
	}
	defer release() // the bot not built again meanwhile
	game, ok := consoleCommands[name]
	if !ok {
		return fmt.Errorf("console talks to bots of the session games (planowanie, blokus, bricks); %q is not one (per-move bots read their input once: try arbiter check)", name)
	}
	recorded, env, err := consoleFrom(name, *from, *seat, flagSet(fs, "seat"), game.gtp)
	if err != nil {
		return err
	}
	errPath, err := tempPath("arbiter-console-*.stderr")
	if err != nil {
		return err
	}
	// The match's ARBITER_* come last, as in a run: they win.
	env = lastWins(append(append(bot.Env, extra...), env...))
	s, err := proc.Start(context.Background(), proc.Spec{Bot: bot.Bot, Argv: bot.Command, Dir: bot.Dir,
		Stderr: errPath, Limits: bot.Limits, Env: env,
		Clock: drivers.Clock{Move: drivers.Duration(*move)}, Explain: true})
	if err != nil {
		os.Remove(errPath)
		return err
	}
	var (
		read  func() ([]string, error)
		write func(string)
		done  func()
	)
	if *from != "" {
		read, write, done = recordedIO(stdout, recorded)
	} else {
		var readLine func() (string, error)
		readLine, write, done = consoleIO(stdout, game.cmds)
		read = func() ([]string, error) {
			line, err := readLine()
			return []string{line}, err
		}
	}
	defer func() {
		s.Kill()
		done()
		consoleStderr(stderr, errPath)
	}()
	for {
		lines, err := read()
		if err != nil {
			return nil
		}
		if err := consoleWrite(s, lines, game.gtp, write); err != nil {
			write(fmt.Sprintf("! %v", err))
			return errReported
		}
		if line := lines[len(lines)-1]; line == "quit" || line == "STOP" {
			return nil
		}
	}
}

// consoleTarget is the game and the bot console talks to: a COMMAND in
// the current directory under the game's default limits (or bare), or
// with -bot a bot of the configuration at pos (check's -bot: its dir,
// env, limits and build), without the ARBITER_* check gives it. No check
// or console builds the bot again until release, which is never nil
// (buildForCheck).
func consoleTarget(cf *configFlags, fs *flag.FlagSet, pos, command []string, botName string, sandbox, rebuild bool, stderr io.Writer) (string, drivers.Seat, func(), error) {
	if err := targetFlagsApart(fs, botName != "", rebuild); err != nil {
		return "", drivers.Seat{}, nil, err
	}
	if botName == "" {
		if len(pos) != 1 || len(command) == 0 {
			return "", drivers.Seat{}, nil, fmt.Errorf("usage: arbiter console GAME [-from MATCH_DIR -seat N] -- COMMAND ARGS... (or: arbiter console -bot NAME [-from MATCH_DIR -seat N] [PATH])")
		}
		dir, _ := os.Getwd()
		argv := append([]string{commandPath(command[0], dir)}, command[1:]...)
		return pos[0], drivers.Seat{Bot: "bot", Command: argv, Dir: dir, Limits: commandLimits(pos[0], argv, dir, nil, sandbox)}, func() {}, nil
	}
	game, seat, _, release, err := checkTarget(cf, pos, command, botName, ".", rebuild, stderr)
	if err != nil {
		return "", seat, nil, err
	}
	checks := drivers.BotEnv("check", 0, 1)
	seat.Env = slices.DeleteFunc(seat.Env, func(kv string) bool { return slices.Contains(checks, kv) })
	seat.Limits = seat.Limits.WithBotDir(seat.Dir)
	return game, seat, release, nil
}

// tempPath is the path of a new empty temporary file.
func tempPath(pattern string) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", err
	}
	return f.Name(), f.Close()
}

// lastWins is env with each name once, at its last value, in the order
// the names first came.
func lastWins(env []string) []string {
	last := map[string]string{}
	var names []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, ok := last[k]; !ok {
			names = append(names, k)
		}
		last[k] = v
	}
	out := make([]string, len(names))
	for i, k := range names {
		out[i] = k + "=" + last[k]
	}
	return out
}

// consoleStderr tells where the bot's stderr went, with its last lines,
// when it wrote any, and removes the empty file otherwise.
func consoleStderr(w io.Writer, path string) {
	data, err := os.ReadFile(path)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		os.Remove(path)
		return
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
		fmt.Fprintf(w, "the bot's stderr is in %s; its last 20 lines:\n", path)
	} else {
		fmt.Fprintf(w, "the bot's stderr is in %s:\n", path)
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", shown(l))
	}
}

// consoleWrite sends lines, in one write, and writes the answer to each
// in turn: up to its empty line in a GTP-like game, one line otherwise
// (none for STOP or an empty line, which are sent alone).
func consoleWrite(s *proc.Session, lines []string, gtp bool, write func(string)) error {
	if line := lines[0]; len(lines) == 1 && (strings.TrimSpace(line) == "" || line == "STOP") {
		return s.Write(line, time.Now().Add(time.Second))
	}
	start := time.Now()
	s.Send(lines[0], lines[1:]...)
	for k := range lines {
		err := s.Receive(func(deadline time.Time) error {
			seen := false
			for {
				l, err := s.ReadLine(deadline)
				if err != nil {
					return err
				}
				write(shown(l))
				if !gtp || (l == "" && seen) {
					return nil
				}
				seen = seen || l != ""
			}
		})
		if err != nil {
			return withHint(err, lines, k)
		}
		write(fmt.Sprintf("  (%s)", time.Since(start).Round(time.Microsecond)))
		start = time.Now()
	}
	return nil
}

// withHint is err, the fault of the answer to lines[k] (written with the
// lines of lines), with what the bot most likely did when it is a time
// fault: as run's fault says (drivers.ArrivedNote), it kept computing;
// or as check says, it did not flush, or, when it answered an earlier
// line of the same write, it lost the rest of the write (or was slow).
func withHint(err error, lines []string, k int) error {
	var f *proc.Fault
	if !errors.As(err, &f) || f.Kind != drivers.FaultTime ||
		!(strings.HasPrefix(f.Detail, "no answer within ") || strings.HasPrefix(f.Detail, "no full answer within ")) {
		return err
	}
	if drivers.Computed(err) {
		return fmt.Errorf("%w%s", err, drivers.ArrivedNote(err))
	}
	hint := conform.SilentHint(err)
	if k > 0 && strings.HasPrefix(f.Detail, "no answer within ") {
		hint = conform.ReadHint(err, strconv.Quote(lines[k-1]))
	}
	return fmt.Errorf("%w; %s", err, hint)
}

// consoleIO reads lines with history and tab completion on a terminal,
// plain lines otherwise.
func consoleIO(stdout io.Writer, cmds []string) (read func() (string, error), write func(string), done func()) {
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		sc := bufio.NewScanner(os.Stdin)
		return func() (string, error) {
				if !sc.Scan() {
					return "", io.EOF
				}
				return sc.Text(), nil
			}, func(s string) { fmt.Fprintln(stdout, s) },
			func() {}
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return consoleIO(stdout, nil)
	}
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{os.Stdin, os.Stdout}, "> ")
	t.AutoCompleteCallback = func(line string, pos int, key rune) (string, int, bool) {
		if key != '\t' || strings.ContainsRune(line[:pos], ' ') {
			return "", 0, false
		}
		var hits []string
		for _, c := range cmds {
			if strings.HasPrefix(c, line[:pos]) {
				hits = append(hits, c)
			}
		}
		if len(hits) != 1 {
			return "", 0, false
		}
		return hits[0] + " " + line[pos:], len(hits[0]) + 1, true
	}
	return t.ReadLine, func(s string) { fmt.Fprintln(t, s) }, func() { _ = term.Restore(fd, old) }
}

// consoleFrom checks console's -from and -seat (seatGiven: -seat was
// given) and reads, with -from, what the match sent the seat and the
// environment its bot had (seatInput).
func consoleFrom(game, from string, seat int, seatGiven, gtp bool) (recorded [][]string, env []string, err error) {
	switch {
	case seatGiven && seat < 0:
		return nil, nil, usageError("-seat %d: a seat is 0, 1, ...", seat)
	case from != "" && !seatGiven:
		return nil, nil, usageError("-from needs -seat: the seat (0, 1, ...) whose input to send")
	case from == "" && seatGiven:
		return nil, nil, usageError("-seat goes with -from: a match's directory")
	case from == "":
		return nil, nil, nil
	}
	if err := sameGame(from, game); err != nil {
		return nil, nil, err
	}
	return seatInput(from, seat, gtp)
}

// sameGame checks that the match in the directory dir (RESULTS/matches/ID)
// is one of game, by its results directory's plan.json; a match folder
// that is not in one is taken as it is.
func sameGame(dir, game string) error {
	path := filepath.Join(dir, "..", "..", "plan.json")
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var p struct {
		Game struct {
			Driver string `json:"driver"`
		} `json:"game"`
	}
	if json.NewDecoder(f).Decode(&p) != nil || p.Game.Driver == "" || p.Game.Driver == game {
		return nil
	}
	if _, ok := consoleCommands[p.Game.Driver]; !ok {
		return fmt.Errorf("-from %s: a match of %s (%s), not of %s; %s runs a process a move, which console does not talk to (try arbiter check %s)", dir, p.Game.Driver, path, game, p.Game.Driver, p.Game.Driver)
	}
	return fmt.Errorf("-from %s: a match of %s (%s), not of %s: arbiter console %s -from ...", dir, p.Game.Driver, path, game, p.Game.Driver)
}

// seatInput is what the match in the directory dir sent to seat, as its
// transcript records it (plain or compressed), in the writes the match
// wrote it in, and the ARBITER_* variables the seat's bot had in the
// match (engine.Run), so a bot that seeds its play from them plays as it
// did.
//
// The transcript has no mark of a write, but in a GTP-like game (gtp) it
// tells them apart: a bot answers every command, and the referee writes
// a command only once it has read the answers to those before it, unless
// it writes them together (drivers/gtp.Match.TellAllBefore, Gen), which
// the transcript records as the seat's send lines with no answer of the
// seat between them (docs/events.md). So a write is a run of the seat's
// send lines with none of its recv lines between; quit, written alone
// when the game is over, is one of its own. In another game each line is
// a write of its own.
func seatInput(dir string, seat int, gtp bool) (writes [][]string, env []string, err error) {
	r, err := engine.OpenTranscript(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("-from %s: %w (a match's directory: RESULTS/matches/ID)", dir, err)
	}
	defer r.Close()
	seats := map[int]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	answered := true // the seat's last line was an answer (or there was none)
	for sc.Scan() {
		var e struct {
			Event string `json:"event"`
			Data  struct {
				ID   string  `json:"id"`
				Seed *uint64 `json:"seed"`
			} `json:"data"`
			Seat *int    `json:"seat"`
			Send *string `json:"send"`
			Recv *string `json:"recv"`
		}
		switch {
		case json.Unmarshal(sc.Bytes(), &e) != nil:
		case e.Event == "match" && e.Data.Seed != nil && env == nil:
			env = drivers.BotEnv(e.Data.ID, seat, *e.Data.Seed)
		case e.Seat != nil && e.Send != nil:
			seats[*e.Seat] = true
			if *e.Seat != seat {
				break
			}
			if n := len(writes); n > 0 && gtp && !answered && *e.Send != "quit" {
				writes[n-1] = append(writes[n-1], *e.Send)
			} else {
				writes = append(writes, []string{*e.Send})
			}
			answered = false
		case e.Seat != nil && e.Recv != nil && *e.Seat == seat:
			answered = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("-from %s: reading its transcript: %w", dir, err)
	}
	if len(writes) == 0 {
		return nil, nil, fmt.Errorf("-from %s: the match sent seat %d nothing (its seats with input: %v)", dir, seat, slices.Sorted(maps.Keys(seats)))
	}
	return writes, env, nil
}

// recordedIO reads the writes a match sent, showing each line as if typed.
func recordedIO(stdout io.Writer, writes [][]string) (read func() ([]string, error), write func(string), done func()) {
	write = func(s string) { fmt.Fprintln(stdout, s) }
	return func() ([]string, error) {
		if len(writes) == 0 {
			write("# the end of what the match sent this seat")
			return nil, io.EOF
		}
		w := writes[0]
		writes = writes[1:]
		for _, l := range w {
			write("> " + l)
		}
		return w, nil
	}, write, func() {}
}
