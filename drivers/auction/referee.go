package auction

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// Settings are a decoded auction game block, as recorded in the plan.
type Settings struct {
	// Boards are the variants; a match plays the one its plan names.
	Boards []Board `json:"boards"`
	// IdleRounds ends the game after that many rounds in a row without a
	// sale.
	IdleRounds int        `json:"idle_rounds"`
	Files      FileLimits `json:"files"`
	// Submission caps what a bot is made of (see Game.CheckEntry).
	Submission SubmissionLimits `json:"submission"`
	// Overrun is how far past the move limit an answer may come and still
	// be used, counted as an overrun (clock { overrun }).
	Overrun drivers.Duration `json:"overrun,omitempty"`
	// Overruns is how many late answers (overruns and time-outs) a bot is
	// tolerated over a tournament, the next one disqualifying it (clock {
	// overruns }); nil: any number.
	Overruns *int `json:"overruns,omitempty"`
}

// SubmissionLimits cap a bot's own files: how many, and their size
// together. Fibot allowed an executable with libraries, at most 10 files
// and 10 MB.
type SubmissionLimits struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Breach is Disqualify when a bot over the limits is disqualified
	// before the first match and not run; otherwise (BreachRefuse, or
	// empty in a plan of an earlier arbiter) the run stops.
	Breach string `json:"breach,omitempty"`
}

// Default settings: the contest's.
const (
	DefaultIdleRounds = 10
	DefaultFileCount  = 10
	DefaultFileBytes  = 10_000_000
	// The submission limits of Fibot: 10 files, 10 MB.
	DefaultSubmissionFiles = 10
	DefaultSubmissionBytes = 10_000_000
	DefaultMove            = time.Second
	// folderName is the game folder's name, the bots' first argument.
	folderName = "game"
	// grace is how long a bot may take to exit after printing its bid.
	grace = 200 * time.Millisecond
)

// The events the referee records, by kind. Seats are numbered from 0,
// rounds from 1; cells are written as in the files, [column,row] 1-based.
type (
	// BoardEvent ("board") opens the game.
	BoardEvent struct {
		Board   string   `json:"board"`
		Cols    int      `json:"cols"`
		Rows    int      `json:"rows"`
		Capital int      `json:"capital"`
		Letters []string `json:"letters"`
		Queue   []string `json:"queue"`
	}
	// RoundEvent ("round") is one finished round. Bids are as counted,
	// after defaults; Winner is -1 when the cell was not sold.
	RoundEvent struct {
		Round   int    `json:"round"`
		Cell    string `json:"cell"`
		Bids    []int  `json:"bids"`
		Winner  int    `json:"winner"`
		Price   int    `json:"price,omitempty"`
		Capital []int  `json:"capital"`
	}
	// DefaultEvent ("default") is an answer that counted as a bid of 0.
	// Kind is a drivers.Fault* kind, "illegal" for a bid the rules do not
	// allow, or "files" for a violation of the file rules.
	DefaultEvent struct {
		Round  int    `json:"round"`
		Seat   int    `json:"seat"`
		Kind   string `json:"kind"`
		Detail string `json:"detail"`
	}
	// OverrunEvent ("overrun") is an answer that came after the move
	// limit (LimitMS: move, plus the start-up allowance on the seat's
	// first run) but within the tolerated overrun: it was used, and counts
	// against the bot's tolerance (SeatResult.Overruns). A time-out beyond
	// the overrun is a "default" event of kind "time" and counts too.
	// ArrivedMS is set for a bid without a line end, timed at the bot's
	// exit, and only for one: when it had arrived (proc.Reply.Arrived),
	// measured as UsedMS is; 0 when it came within the first millisecond.
	OverrunEvent struct {
		Round     int    `json:"round"`
		Seat      int    `json:"seat"`
		UsedMS    int64  `json:"used_ms"`
		LimitMS   int64  `json:"limit_ms"`
		ArrivedMS *int64 `json:"arrived_ms,omitempty"`
	}
	// OutEvent ("out") is a seat whose bot was disqualified before the
	// first match (drivers.Seat.Out): it is not run, and bids 0 in every
	// round.
	OutEvent struct {
		Seat   int    `json:"seat"`
		Detail string `json:"detail"`
	}
	// EndEvent ("end") closes the game. Reason is "sold out" or "idle".
	EndEvent struct {
		Rounds int       `json:"rounds"`
		Reason string    `json:"reason"`
		Places []float64 `json:"places"`
		Region []int     `json:"region"`
		Cells  []int     `json:"cells"`
		Left   []int     `json:"capital"`
	}
)

// overrunEvent is the "overrun" event of seat i's reply in round, an
// answer taken after its move limit.
func overrunEvent(round, i int, reply proc.Reply, limit time.Duration) OverrunEvent {
	e := OverrunEvent{Round: round, Seat: i, UsedMS: reply.Used.Milliseconds(), LimitMS: limit.Milliseconds()}
	if reply.Arrived > 0 { // a bid without a line end (a line's is zero)
		e.ArrivedMS = ptr(reply.Arrived.Milliseconds())
	}
	return e
}

// FilesKind is the DefaultEvent kind of a file rule violation.
const FilesKind = "files"

// referee plays one match.
type referee struct {
	m       *drivers.Match
	s       Settings
	board   Board
	pos     *Position
	folders []*seatFolder
	argv    [][]string
	env     [][]string
	log     []byte
	results []drivers.SeatResult
	used    []time.Duration
	starts  []int // runs that failed to start, per seat
	runs    []int // runs attempted, per seat
	asked   []int // bids counted, per seat (Defaults of them replaced)
	move    time.Duration
	startup time.Duration // added to move for a seat's first run in the match
	overrun time.Duration // tolerated past move
}

// DefaultSettings are the contest's rules: those of a game block that
// sets nothing but its boards, which have no default. arbiter check holds
// a bot given by its command to them.
func DefaultSettings() Settings {
	return Settings{IdleRounds: DefaultIdleRounds,
		Files:      FileLimits{Count: DefaultFileCount, Bytes: DefaultFileBytes, Breach: Disqualify},
		Submission: SubmissionLimits{Files: DefaultSubmissionFiles, Bytes: DefaultSubmissionBytes, Breach: Disqualify},
		Overrun:    drivers.Duration(DefaultOverrun), Overruns: ptr(DefaultOverruns)}
}

// Prefix is the prefix of bot's file names: the one files { prefixes }
// gives it, or its name.
func (s Settings) Prefix(bot string) string {
	if p, ok := s.Files.Prefixes[bot]; ok {
		return p
	}
	return bot
}

// play referees a match from pos to its end in real processes: every
// round it writes each seat's folder, runs all bots at once, reads their
// bids and settles the round.
func play(ctx context.Context, m *drivers.Match, s Settings, b Board, pos *Position) (*drivers.Outcome, error) {
	n := len(m.Seats)
	r := &referee{m: m, s: s, board: b, pos: pos,
		results: make([]drivers.SeatResult, n), used: make([]time.Duration, n),
		starts: make([]int, n), runs: make([]int, n), asked: make([]int, n), move: time.Duration(m.Clock.Move), startup: time.Duration(m.Clock.Startup), overrun: time.Duration(s.Overrun)}
	if r.move <= 0 {
		r.move = DefaultMove
	}
	for i, seat := range m.Seats {
		prefix := s.Prefix(seat.Bot)
		letter := string(Letter(i))
		f, err := newSeatFolder(filepath.Join(m.Dir, "seats", letter), folderName, prefix, s.Files)
		if err != nil {
			return nil, fmt.Errorf("game folder of seat %s: %w", letter, err)
		}
		r.folders = append(r.folders, f)
		r.argv = append(r.argv, append(drivers.ResolveArgv(seat.Command, seat.Dir), folderName, letter))
		// The bot runs in its seat's folder, not its dir: ARBITER_BOT_DIR
		// leads it to its own files, as Euchre's bots.
		r.env = append(r.env, append(slices.Clip(seat.Env), "ARBITER_PREFIX="+prefix, "ARBITER_BOT_DIR="+seat.Dir))
	}
	ev := BoardEvent{Board: b.Name, Cols: b.Cols, Rows: b.Rows, Capital: b.Capital}
	for i := range n {
		ev.Letters = append(ev.Letters, string(Letter(i)))
	}
	for _, c := range pos.Queue {
		ev.Queue = append(ev.Queue, c.String())
	}
	m.Record.Event("board", ev)
	for i, seat := range m.Seats {
		if seat.Out != "" {
			m.Record.Event("out", OutEvent{Seat: i, Detail: seat.Out})
		}
	}

	idle, round := 0, 0
	for len(pos.Queue) > 0 && idle < s.IdleRounds {
		round++
		sale, err := r.round(ctx, round)
		if err != nil {
			return nil, err
		}
		if sale.Winner < 0 {
			idle++
		} else {
			idle = 0
		}
	}
	reason := "sold out"
	if len(pos.Queue) > 0 {
		reason = "idle"
	}
	return r.finish(round, reason)
}

// answer is one seat's run in one round.
type answer struct {
	reply   proc.Reply
	skipped string // why the bot was not run, or ""
	// limit is the run's move limit: move, and startup too on the seat's
	// first run in the match.
	limit time.Duration
	// late says that a time-out is an answer later than the move limit,
	// which counts as an overrun: the run was allowed past the limit. A
	// run that the end of the bot's total clock stopped before the limit
	// was not late, and neither is a round the bot was not run in
	// (skipped) for a used-up clock: Fibot's tolerance is of answers over
	// its 1 s, and total, arbiter's own, costs its bids instead.
	late bool
	// clockEnds says that the run was stopped by the end of the bot's
	// total clock, before its move limit and overrun.
	clockEnds bool
	// started is when the run was started: the transcript's time of its
	// arguments, and, with the time the run took, of its answer, though
	// both are recorded once every seat's run is over.
	started time.Time
}

// round plays one round: it writes each seat's folder, runs all bots at
// once, counts their bids and settles the sale.
func (r *referee) round(ctx context.Context, round int) (Sale, error) {
	state := r.pos.State()
	for i, f := range r.folders {
		if err := f.prepare(state, r.log); err != nil {
			return Sale{}, fmt.Errorf("game folder of seat %c: %w", Letter(i), err)
		}
	}
	answers, err := r.runAll(ctx)
	if err != nil {
		return Sale{}, err
	}
	bids := make([]int, len(answers))
	for i, a := range answers {
		if bids[i], err = r.bid(round, i, a); err != nil {
			return Sale{}, err
		}
	}
	sale := r.pos.Settle(bids)
	r.log = AppendLogRound(r.log, round, state, bids, sale)
	ev := RoundEvent{Round: round, Cell: sale.Cell.String(), Bids: bids, Winner: sale.Winner, Price: sale.Price,
		Capital: slices.Clone(r.pos.Capital)}
	r.m.Record.Event("round", ev)
	return sale, nil
}

// runAll runs every seat's bot at once, each for the move time (plus the
// start-up allowance on its first run) and the tolerated overrun, or what
// is left of its clock if less; a seat whose clock is used up is skipped.
func (r *referee) runAll(ctx context.Context) ([]answer, error) {
	n := len(r.folders)
	answers := make([]answer, n)
	var wg sync.WaitGroup
	var errMu sync.Mutex
	var runErr error
	for i := range n {
		if out := r.m.Seats[i].Out; out != "" {
			answers[i].skipped = out
			continue
		}
		answers[i].limit = r.move
		parts := []string{fmt.Sprintf("its move limit of %v", r.move)}
		if r.runs[i] == 0 {
			answers[i].limit += r.startup
			if r.startup > 0 {
				parts = append(parts, fmt.Sprintf("its start-up allowance of %v", r.startup))
			}
		}
		timeout := answers[i].limit + r.overrun
		if r.overrun > 0 {
			parts = append(parts, fmt.Sprintf("the overrun of %v it may run late", r.overrun))
		}
		within := drivers.List(parts)
		answers[i].late = true
		if total := time.Duration(r.m.Clock.Total); total > 0 {
			left := total - r.used[i]
			if left <= 0 {
				answers[i].skipped = fmt.Sprintf("has used up its clock of %v", total)
				continue
			}
			if left < timeout {
				// bid says such a time-out in its own words ("no
				// answer before its clock of ... ran out").
				timeout, answers[i].late, answers[i].clockEnds = left, left > answers[i].limit, true
			}
		}
		r.runs[i]++
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i].started = time.Now()
			reply, err := proc.RunOnce(ctx, proc.OnceSpec{
				Bot: r.m.Seats[i].Bot, Argv: r.argv[i], Dir: r.folders[i].cwd, Env: r.env[i],
				Timeout: timeout, Within: within, Stderr: r.m.Seats[i].Stderr, Grace: grace, Limits: r.m.Seats[i].Limits,
				NoStart: r.m.Seats[i].Unbuilt, Quota: r.folders[i].quota(),
			})
			if err != nil {
				errMu.Lock()
				runErr = err
				errMu.Unlock()
			}
			answers[i].reply = reply
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if runErr != nil {
		return nil, runErr
	}
	return answers, nil
}

// bid counts seat i's answer a in round: its bid, or 0 with a default
// event when the seat was skipped, faulted, bid illegally or broke the
// file rules.
func (r *referee) bid(round, i int, a answer) (int, error) {
	var bid int
	var kind string
	var problems []string
	if r.m.Seats[i].Out != "" {
		return 0, nil // disqualified before the first match: not run, its bids 0 (see the "out" event)
	}
	r.asked[i]++
	switch {
	case a.skipped != "":
		kind, problems = drivers.FaultTime, []string{a.skipped}
	default:
		drivers.RecordSent(r.m.Record, i, strings.Join(r.argv[i][len(r.argv[i])-2:], " "), a.started)
		r.used[i] += a.reply.Used
		if f := a.reply.Fault; f != nil {
			kind, problems = f.Kind, []string{f.Detail}
			if f.Kind == drivers.FaultTime && a.clockEnds {
				// Not "no answer within 4.094241ms", what was left, which
				// says little and differs in every replay.
				problems = []string{fmt.Sprintf("no answer before its clock of %v ran out", time.Duration(r.m.Clock.Total))}
			}
			switch {
			case f.Kind == drivers.FaultStart:
				r.starts[i]++
			case f.Kind == drivers.FaultTime && a.late:
				r.results[i].Overruns++
			}
			break
		}
		drivers.RecordReceived(r.m.Record, i, a.reply.Line, a.started.Add(a.reply.Used))
		if a.reply.Used > a.limit {
			r.results[i].Overruns++
			r.m.Record.Event("overrun", overrunEvent(round, i, a.reply, a.limit))
		}
		var problem string
		bid, problem = ParseBid(a.reply.Line, r.pos.Capital[i])
		if problem != "" {
			kind, problems = drivers.FaultIllegal, []string{problem}
		}
	}
	fileProblems, err := r.folders[i].check()
	if err != nil {
		return 0, fmt.Errorf("game folder of seat %c: %w", Letter(i), err)
	}
	if len(fileProblems) > 0 && kind == "" {
		kind = FilesKind
	}
	switch {
	case kind == FilesKind: // also a write outside the folder (drivers.FaultFiles)
		r.breach(round, i, append(slices.Clip(problems), fileProblems...))
	case len(fileProblems) > 0:
		r.breach(round, i, fileProblems)
	}
	problems = append(problems, fileProblems...)
	if kind != "" {
		detail := strings.Join(problems, "; ")
		if r.results[i].Defaults == 0 {
			r.results[i].DefaultDetail = fmt.Sprintf("round %d (%s): %s", round, kind, detail)
		}
		r.results[i].Defaults++
		r.m.Record.Event("default", DefaultEvent{Round: round, Seat: i, Kind: kind, Detail: detail})
		return 0, nil
	}
	return bid, nil
}

// breach records seat i's first breach of the file rules, when they
// disqualify.
func (r *referee) breach(round, i int, problems []string) {
	if r.s.Files.Breach != Disqualify || r.results[i].Breach != nil {
		return
	}
	r.results[i].Breach = &drivers.Breach{Rule: FilesKind,
		Detail: fmt.Sprintf("broke the file rules in round %d: %s", round, strings.Join(problems, "; "))}
}

// finish writes the game folder of the results (the final state, the
// log, the results file), the report, and the outcome.
func (r *referee) finish(rounds int, reason string) (*drivers.Outcome, error) {
	st := r.pos.Standings()
	dir := filepath.Join(r.m.Dir, folderName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{"state", r.pos.State()}, {"log", r.log}, {"results", Results(st)}} {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return nil, err
		}
	}
	n := len(r.folders)
	end := EndEvent{Rounds: rounds, Reason: reason, Places: make([]float64, n), Region: make([]int, n),
		Cells: make([]int, n), Left: make([]int, n)}
	for _, s := range st {
		res := &r.results[s.Seat]
		res.Place = s.Place
		// Score: the opponents the seat placed ahead of, a tie counting
		// half, so that more is better as the ratings expect.
		res.Score = float64(n) - s.Place
		end.Places[s.Seat], end.Region[s.Seat], end.Cells[s.Seat], end.Left[s.Seat] = s.Place, s.Region, s.Cells, s.Capital
	}
	for i := range r.results {
		r.results[i].TimeMS = r.used[i].Milliseconds()
		r.results[i].AllDefaults = r.asked[i] > 0 && r.results[i].Defaults == r.asked[i]
		if r.runs[i] > 0 && r.starts[i] == r.runs[i] {
			// Never started: an installation problem, not play.
			r.results[i].Fault = drivers.FaultStart
			r.results[i].Detail = fmt.Sprintf("could not be started in any of its %d rounds (see the default events)", r.runs[i])
		}
	}
	r.m.Record.Event("end", end)
	// No fault ends an Auction: the others play every round.
	return &drivers.Outcome{Seats: r.results, PlayedOut: true}, nil
}
