package euchre

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// MaxAnswer caps what is read of a bot's output: the answer is its first
// line, and nothing in the protocol is longer than a few bytes.
const MaxAnswer = 4 << 10

// run is one bot process for one decision.
type run struct {
	Bot     string
	Argv    []string
	Dir     string
	Env     []string
	Stdin   string
	Timeout time.Duration
	Within  string // what Timeout is, as a time fault says it (proc.OnceSpec)
	Stderr  string
	Limits  drivers.Limits
	NoStart string
	// Quota bounds what the bot writes in Dir during the run (its memory
	// rule), so that it cannot fill the disk before checkMemory.
	Quota *proc.FolderQuota
	// CrashAfterAnswer is Settings.CrashAfterAnswer.
	CrashAfterAnswer bool
}

// ran is how a run went: the first line of output, the time it took, and
// problem, a sentence saying why there is no usable answer (a crash, a
// time-out, a failure to start), or empty.
type ran struct {
	Line    string
	Used    time.Duration
	Exit    int
	Kind    string // the drivers.Fault* kind of Problem
	Problem string
}

// position is one of the four players of a match: a copy of its seat's bot
// with its own memory folder.
type position struct {
	seat   int
	bot    string
	argv   []string
	memory string // the working directory, which holds its one memory file
	env    []string
	stderr string
	limits drivers.Limits
	// noStart is why the bot cannot be started (drivers.Seat.Unbuilt).
	noStart string
}

// Play referees one match, every decision a fresh process. A match of two
// seats is between teams: seat 0's bot plays positions 0 and 2, seat 1's
// positions 1 and 3. A match of four seats is between four bots, one a
// position, partnered at random from the match's seed (Partners), which
// the transcript's first event, partners, records.
//
// Working directory: the challenge runs a bot in "its folder", where it may
// keep one file. Here a bot's configured dir holds its program and may be
// shared by every match running at once, so the bot runs in a memory
// folder instead, checked after every run: its seat's State folder, which
// the engine carries from the bot's previous match (memory = "per-bot"),
// or a fresh folder <match dir>/pos<N> for each position. So that a command written relative to the bot's dir
// still works, its program (if it has a slash) and every argument naming a
// file or folder that exists in the bot's dir are made absolute first. The
// bot also finds its dir in ARBITER_BOT_DIR, its memory folder in
// ARBITER_MEMORY_DIR and its position in ARBITER_POSITION.
func (g *Game) Play(ctx context.Context, m *drivers.Match) (*drivers.Outcome, error) {
	if g.Seats(len(m.Seats)) != nil {
		return nil, fmt.Errorf("euchre match %s has %d seats; it needs 2 (one bot per team) or 4 (one per position)", m.ID, len(m.Seats))
	}
	seats := PositionSeats(len(m.Seats), m.Seed)
	if len(m.Seats) == 4 {
		m.Record.Event("partners", PartnersEvent{Seats: seats})
	}
	move := time.Duration(m.Clock.Move)
	if move <= 0 {
		move = time.Duration(g.clock.Move)
	}
	pos, err := positions(m, seats, g.settings.perBot())
	if err != nil {
		return nil, err
	}

	// An arbiter failure (no pipes, a folder it cannot clean) ends the
	// match as an error, not as a bot's fault.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	d := &decider{g: g, m: m, pos: pos, move: move, startup: time.Duration(m.Clock.Startup), stop: stop}
	firsts := &firstDefaults{Recorder: m.Record, detail: make([]string, len(m.Seats))}
	res, err := RefereeSeats(ctx, g.settings, m.Seed, seats, d.decide, firsts)
	if d.ioErr != nil {
		return nil, d.ioErr
	}
	if err != nil {
		return nil, err
	}
	out := &drivers.Outcome{Seats: make([]drivers.SeatResult, len(m.Seats))}
	decisions, own := make([]int, len(m.Seats)), make([]int, len(m.Seats))
	for p, s := range seats {
		decisions[s] += res.Decisions[p]
		own[s] += res.Own[p]
		r := &out.Seats[s]
		switch res.Winner {
		case Team(p):
			r.Score = 1
		case -1:
			r.Score = 0.5
		}
		r.Defaults += res.Defaults[p]
		if len(m.Seats) == 4 {
			// The statistics credit a win to both partners of the
			// winning team, which they can only tell from here.
			r.Partners = []int{seats[(p+2)%4]}
		}
	}
	for s := range out.Seats {
		out.Seats[s].TimeMS = d.used[s].Milliseconds()
		out.Seats[s].DefaultDetail = firsts.detail[s]
		// Trick messages aside, whose answer is ignored.
		out.Seats[s].AllDefaults = decisions[s] > 0 && own[s] == 0
	}
	d.judgeStarts(out, seats)
	return out, nil
}

// judgeStarts gives a seat whose bot could not be started in any of its
// runs of the match the start fault: the spec's defaults are for a bot
// that runs and errs, and a program that never starts is the organiser's
// mistake, not play (Auction does the same). Its team loses the match:
// the seats of a team with such a bot score 0, the other team's 1, so
// that a partner (four bots) shares its team's loss, without a fault of
// its own, and defaults are never a win. When both teams have one, every
// seat scores 0.
func (d *decider) judgeStarts(out *drivers.Outcome, seats [4]int) {
	for s := range out.Seats {
		if d.runs[s] > 0 && d.unstarted[s] == d.runs[s] {
			out.Seats[s].Fault = drivers.FaultStart
			out.Seats[s].Detail = fmt.Sprintf("could not be started in any of its %d runs in the match "+
				"(decisions and trick messages; see the default events)", d.runs[s])
		}
	}
	var lost [2]bool // by team
	for p, s := range seats {
		lost[Team(p)] = lost[Team(p)] || out.Seats[s].Fault != ""
	}
	if !lost[0] && !lost[1] {
		return
	}
	for p, s := range seats {
		out.Seats[s].Score = 0
		if !lost[Team(p)] {
			out.Seats[s].Score = 1
		}
	}
}

// firstDefaults passes a match's events on, keeping each seat's first
// default in words (drivers.SeatResult.DefaultDetail).
type firstDefaults struct {
	drivers.Recorder
	detail []string // by seat
}

func (f *firstDefaults) Event(kind string, data any) {
	if d, ok := data.(DefaultEvent); ok && kind == "default" && d.Seat < len(f.detail) && f.detail[d.Seat] == "" {
		f.detail[d.Seat] = fmt.Sprintf("hand %d, position %d, %s phase: %s", d.Hand, d.Position, d.Phase, d.Reason)
	}
	f.Recorder.Event(kind, data)
}

// positions makes the four positions of match m, position p played by
// the bot of seat seats[p], each with its memory folder made: with
// perBot, its seat's State folder, shared by the positions of one bot and
// carried by the engine from the bot's previous match (or, in a match
// played without an engine, a fresh folder of the bot's in the match's
// directory); otherwise a fresh folder of its own.
func positions(m *drivers.Match, seats [4]int, perBot bool) ([4]position, error) {
	var pos [4]position
	// The bots run in their memory folders, so every path they get must
	// be absolute: the results directory may be given relative.
	matchDir, err := filepath.Abs(m.Dir)
	if err != nil {
		return pos, err
	}
	for p := range pos {
		seat := m.Seats[seats[p]]
		mem := filepath.Join(matchDir, "pos"+strconv.Itoa(p))
		if perBot {
			mem = cmp.Or(seat.State, filepath.Join(matchDir, "memory-"+fileSafe(seat.Bot)))
		}
		if err := os.MkdirAll(mem, 0o755); err != nil {
			return pos, err
		}
		pos[p] = position{
			seat:    seats[p],
			bot:     seat.Bot,
			argv:    drivers.ResolveArgv(seat.Command, seat.Dir),
			memory:  mem,
			limits:  seat.Limits,
			noStart: seat.Unbuilt,
			env: append(append([]string{}, seat.Env...),
				"ARBITER_POSITION="+strconv.Itoa(p), "ARBITER_MEMORY_DIR="+mem, "ARBITER_BOT_DIR="+seat.Dir),
		}
		if seat.Stderr != "" {
			pos[p].stderr = filepath.Join(matchDir, StderrFile(p, seat.Bot))
		}
	}
	return pos, nil
}

// decider runs the decisions of one match, each a fresh process of the
// position's bot, adding up each seat's time. The first decision of each
// seat's bot in the match has startup added to its move limit (its cold
// start); the time it takes is added up all the same. The first arbiter
// failure is kept in ioErr and stops the match.
type decider struct {
	g       *Game
	m       *drivers.Match
	pos     [4]position
	move    time.Duration
	startup time.Duration
	started [4]bool // by seat: its bot has had its first decision
	// runs by seat, and those of them that could not start the bot
	// (drivers.FaultStart)
	runs, unstarted [4]int
	stop            context.CancelFunc
	used            [4]time.Duration // by seat
	ioErr           error
}

// decide is the match's Decide: it runs position p's bot on input, then
// checks its memory folder.
func (d *decider) decide(ctx context.Context, p int, phase Phase, input string) (string, string) {
	ps := &d.pos[p]
	timeout, within := d.move, fmt.Sprintf("its move limit of %v", d.move)
	if !d.started[ps.seat] {
		timeout += d.startup
		if d.startup > 0 {
			within += fmt.Sprintf(" and its start-up allowance of %v", d.startup)
		}
		d.started[ps.seat] = true
	}
	r, err := runDecision(ctx, run{Bot: ps.bot, Argv: ps.argv, Dir: ps.memory, Env: ps.env,
		Stdin: input, Timeout: timeout, Within: within, Stderr: ps.stderr, Limits: ps.limits, NoStart: ps.noStart,
		Quota: &proc.FolderQuota{Count: 1, Bytes: d.g.settings.Memory,
			Rule: fmt.Sprintf("one file of at most %d bytes (memory_bytes)", d.g.settings.Memory)},
		CrashAfterAnswer: d.g.settings.CrashAfterAnswer})
	d.used[ps.seat] += r.Used
	if ctx.Err() != nil {
		return "", ""
	}
	d.runs[ps.seat]++
	if r.Kind == drivers.FaultStart {
		d.unstarted[ps.seat]++
	}
	if err != nil && d.ioErr == nil {
		d.ioErr = fmt.Errorf("running %s at position %d: %w", ps.bot, p, err)
		d.stop()
	}
	if r.Problem == "" && r.Exit != 0 && d.m.Log != nil {
		d.m.Log.Debug("bot answered, then failed", "position", p, "bot", ps.bot, "phase", phase, "exit", r.Exit)
	}
	problem := r.Problem
	if phase == Trick && (r.Kind == drivers.FaultProtocol || r.Kind == drivers.FaultOutput) {
		// The trick message wants no answer: printing nothing, or
		// anything, is fine; crashing or hanging is not.
		problem = ""
	}
	mp, err := checkMemory(ps.memory, d.g.settings)
	if err != nil && d.ioErr == nil {
		d.ioErr = fmt.Errorf("checking the memory folder of %s at position %d: %w", ps.bot, p, err)
		d.stop()
	}
	if mp != "" {
		problem = strings.TrimPrefix(problem+"; "+mp, "; ")
	}
	if problem != "" && d.m.Log != nil {
		d.m.Log.Debug("default", "position", p, "bot", ps.bot, "phase", phase, "problem", problem)
	}
	return r.Line, problem
}

// PartnersEvent ("partners", first event of a four-bot match) is the seat
// of each position: positions 0 and 2 are one team, 1 and 3 the other.
type PartnersEvent struct {
	Seats [4]int `json:"seats"`
}

// streamPartners is the random stream of the partnerships, apart from
// the deals'.
const streamPartners = 0x7061727472 // "partr"

// Partners draws the seat of each position of a four-bot match from its
// seed: which bots are partners, and where they sit.
func Partners(seed uint64) [4]int {
	perm := rand.New(rand.NewPCG(seed, streamPartners)).Perm(4)
	return [4]int(perm)
}

// PositionSeats is the seat of each position of a match of n seats (2
// or 4) whose seed is seed: TeamSeats, or Partners(seed).
func PositionSeats(n int, seed uint64) [4]int {
	if n == 4 {
		return Partners(seed)
	}
	return TeamSeats
}

// StderrFile is the file of the match's directory that the stderr of
// position p's bot goes to, in place of the engine's one a seat: a
// seat's bot plays two positions of a two-seat match.
func StderrFile(p int, bot string) string {
	return fmt.Sprintf("pos%d-%s.stderr", p, fileSafe(bot))
}

// fileSafe keeps a bot name usable in a file name.
func fileSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, name)
}
