// Package house is what every house bot (a bot built into arbiter, run as
// `arbiter bot GAME/NAME`) shares: the Bot type and the bot side of the
// GTP-like framing.
//
// A house bot's process is arbiter's own executable, run again; package
// drivers/house/start runs the bot from its init, before the packages
// that arbiter's other commands need (the configuration language, its
// value types, regular expressions, ...) initialise. So everything under
// drivers/house imports only the standard library's lower layers, the
// other packages of drivers/house and drivers/shuffle: nothing that
// initialises late in Go's order (path/filepath, regexp, ...) and lets the
// heavy packages go first. TestHouseBotStartsLight (cmd/arbiter) checks
// that a house bot's start initialises no other package.
package house

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
)

// Bot is a bot built into arbiter. Run plays one whole game over in and
// out; env gives it the ARBITER_* variables (seed, seat, match) so that a
// seeded house bot plays the same game twice.
//
// A game that runs its bots once per move (Auction) gives its house bots
// Move instead of Run: `arbiter bot GAME/NAME ARGS...` passes ARGS (the
// game's per-move arguments) to Move, in the working directory the driver
// chose, and Move writes the move to out.
type Bot struct {
	Name string
	Doc  string
	Run  func(in io.Reader, out io.Writer, env func(string) string) error
	Move func(args []string, out io.Writer, env func(string) string) error
}

// Serve speaks the bot side of the protocol until quit or the end of in:
// every non-empty line is split into fields and handled; an error is
// answered "? error", a result "= result" ("=" alone when empty). Answers
// are flushed as soon as no further command is waiting in the input: the
// referee waits for them, and when it wrote several commands at once their
// answers go back in one write. Lines may be up to 1 MiB long (a big
// custom deck or stone set makes long commands).
//
// Serve gives the process at least two of the Go runtime's processors
// (GOMAXPROCS), for the reason runtimeProcs says.
func Serve(in io.Reader, out io.Writer, handle func(fields []string) (string, error)) error {
	runtimeProcs()
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	for {
		line, err := readLine(r, 1<<20)
		if err != nil {
			// What was answered goes out whatever ends the input.
			if ferr := w.Flush(); err == io.EOF {
				err = ferr
			}
			return err
		}
		f := strings.Fields(line)
		if len(f) > 0 {
			answer, herr := handle(f)
			if herr != nil {
				w.WriteString("? " + herr.Error() + "\n\n")
			} else if answer == "" {
				w.WriteString("=\n\n")
			} else {
				w.WriteString("= " + answer + "\n\n")
			}
		}
		// An empty line is skipped, but may be what was left of the input:
		// the answers before it must not wait for more.
		if r.Buffered() == 0 || (len(f) > 0 && f[0] == "quit") {
			if err := w.Flush(); err != nil {
				return err
			}
		}
		if len(f) > 0 && f[0] == "quit" {
			return nil
		}
	}
}

// errLong is a command line longer than Serve takes.
var errLong = errors.New("house bot: a command line is longer than 1 MiB")

// readLine reads one line of at most max bytes from r, without its line
// ending; a last line without one counts. It returns io.EOF at the end of
// r.
func readLine(r *bufio.Reader, max int) (string, error) {
	var long []byte
	for {
		b, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(long)+len(b) > max {
				return "", errLong
			}
			long = append(long, b...)
			continue
		}
		if long != nil {
			b = append(long, b...)
		}
		if len(b) > max+1 {
			return "", errLong
		}
		if err != nil && (err != io.EOF || len(b) == 0) {
			return "", err
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
}

// EnvUint is the number a house bot's environment holds under key
// (ARBITER_SEED, ARBITER_SEAT): 0 when env is nil or the value is not a
// number. Each game's bots seed their generator from these, so that a
// re-run of a match replays it exactly.
func EnvUint(env func(string) string, key string) uint64 {
	if env == nil {
		return 0
	}
	v, err := strconv.ParseUint(strings.TrimSpace(env(key)), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// runtimeProcs raises GOMAXPROCS to 2 where it is less: on one CPU, such
// as a bot that arbiter's worker pinned with its match to a CPU of its
// own (-j 2 and more). A bot waits for its next command in a blocking
// read; when the runtime has no idle processor, its monitor takes the
// waiting thread's processor away after 20 µs, and every command then
// pays for handing it back. With a second one idle, the monitor leaves a
// waiting read its processor (for up to 10 ms). A Planowanie game of four
// house bots on one CPU took 15% less time, its bots 18% less CPU, with
// it (docs/benchmarks.md).
func runtimeProcs() {
	if runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
	}
}
