package engine

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// StateDir is the folder of a match's directory that holds the bots'
// state of a game that carries it from match to match (drivers.Carrier):
// <bot>/ is the bot's State folder, which holds what the match left for
// the bot's next match once it has finished, and <bot>.in/ a copy of what
// the bot brought into the match, which a replay of the match starts from.
const StateDir = "state"

// carry is what a run of a game that carries its bots' state knows.
type carry struct {
	// from is the results directory a replay plays from: each match
	// starts from the state its bots brought into it there. Empty in a
	// run, where a match starts from what each bot's previous match left.
	from string
	// dealsApart says that a bot's matches on the same seed (the same
	// deals) all start from the same state (drivers.DealCarrier).
	dealsApart bool
	// finished hears of every match that finishes, so that a match
	// waiting for a bot's previous one can be fed.
	finished chan struct{}
	// earlierDir is, for a shard of a stage after 0, the merged results
	// directory its stage was paired in (Runner.Earlier), and earlier
	// the matches of the stages before the shard's that it holds
	// results of: each is done, the state its bots left in
	// earlierDir/matches/<id>/state/<bot> (merge copies a match's
	// directory whole).
	earlierDir string
	earlier    map[string]bool

	mu sync.Mutex
	// prev is, by match and bot, the bot's previous match in plan order
	// ("" for its first), for every match known when it was last fed.
	prev map[string]map[string]string
}

// newCarry is the carry of game, or nil when it carries nothing.
func newCarry(game drivers.Game, from string) *carry {
	if c, ok := game.(drivers.Carrier); !ok || !c.CarriesState() {
		return nil
	}
	d, ok := game.(drivers.DealCarrier)
	return &carry{from: from, dealsApart: ok && d.KeepsDealsApart(), finished: make(chan struct{}, 1)}
}

// earlierStages reads, for a shard of a stage after 0, which matches of
// the stages before its own the merged results directory dir (its stage
// paired there) holds results of; paired are the shard's stages after 0,
// its own last. Nothing when c is nil (the game carries nothing) or dir
// is "" (not such a shard).
func (c *carry) earlierStages(dir string, paired []*pairing.Pairing) error {
	if c == nil || dir == "" || len(paired) == 0 {
		return nil
	}
	results, err := readResultsFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		return err
	}
	own := map[string]bool{}
	for _, m := range paired[len(paired)-1].Matches {
		own[m.ID] = true
	}
	c.earlierDir, c.earlier = dir, map[string]bool{}
	for _, r := range results {
		if !own[r.Match] {
			c.earlier[r.Match] = true
		}
	}
	return nil
}

// notify tells a feeder waiting for a finished match that one finished.
func (c *carry) notify() {
	if c == nil {
		return
	}
	select {
	case c.finished <- struct{}{}:
	default:
	}
}

// previousMatches is, for every match of ms and each of its bots, the
// match whose state the bot starts it from ("" for none): its match
// before it in ms. With dealsApart, a bot's matches on the same seed all
// start from its match before the first of them, so that nothing it saw
// of those deals reaches another match on them (its opponents' hands,
// the seats swapped); its later matches start from the last match before
// them, whose state holds what it learnt on the deals before.
func previousMatches(ms []plan.Match, dealsApart bool) map[string]map[string]string {
	type botSeed struct {
		bot  string
		seed uint64
	}
	prev := make(map[string]map[string]string, len(ms))
	last := map[string]string{}
	before := map[botSeed]string{}
	for i := range ms {
		m := &ms[i]
		byBot := make(map[string]string, len(m.Seats))
		for _, bot := range m.Seats {
			byBot[bot] = last[bot]
			if !dealsApart {
				continue
			}
			k := botSeed{bot, m.Seed}
			if p, ok := before[k]; ok {
				byBot[bot] = p
			} else {
				before[k] = last[bot]
			}
		}
		for _, bot := range m.Seats {
			last[bot] = m.ID
		}
		prev[m.ID] = byBot
	}
	return prev
}

// feedCarried feeds the matches of todo as their bots' previous matches
// finish: a match goes to a worker only once every match it needs the
// state of is done, the ready ones in plan order, so that matches of
// other bots run in parallel meanwhile. A previous match that is neither
// done nor in todo (a selection of matches without it) stops the run.
func (s *session) feedCarried(ctx context.Context, todo []*plan.Match) {
	c := s.r.carry
	// The matches a run plays: those the stopping rule's max_matches
	// leaves out pass nothing on (a selection plays its own; a shard of a
	// later stage follows from the earlier stages as the run does).
	ms := s.full.Matches
	if len(s.r.Only) == 0 && !s.r.Slice || c.earlierDir != "" {
		ms = nil
		for i := range s.full.Matches {
			if within(s.full.Stop, i, &s.full.Matches[i]) {
				ms = append(ms, s.full.Matches[i])
			}
		}
	}
	prev := previousMatches(ms, c.dealsApart)
	c.mu.Lock()
	c.prev = prev
	c.mu.Unlock()
	fed := make(map[string]bool, len(todo))
	for _, m := range todo {
		fed[m.ID] = true
	}
	s.mu.Lock()
	for _, m := range todo {
		for _, bot := range slices.Sorted(maps.Keys(prev[m.ID])) {
			if p := prev[m.ID][bot]; p != "" && !fed[p] && s.done[p] == nil && !c.earlier[p] {
				if s.firstErr == nil {
					how, need := fmt.Sprintf("run %s too", p), p
					if s.r.Slice {
						how, need = "a shard cannot play a match whose bots' earlier matches are in another shard: "+
							"shard such a tournament with memory = \"per-position\", or run it on one machine", ""
					}
					s.firstErr = &UnplayedError{Need: need, Msg: fmt.Sprintf("match %s starts from the state bot %s left after match %s, which has not been played: "+
						"the game carries each bot's state from match to match, so a bot's matches are played in plan order (%s)", m.ID, bot, p, how)}
					s.cancel()
				}
				s.mu.Unlock()
				return
			}
		}
	}
	s.mu.Unlock()
	for waiting := todo; len(waiting) > 0; {
		var rest []*plan.Match
		for _, m := range waiting {
			if !s.readyCarried(m, prev[m.ID]) {
				rest = append(rest, m)
				continue
			}
			if s.halted() {
				return
			}
			s.pending.Add(1)
			select {
			case s.queue <- m:
			case <-ctx.Done():
				s.pending.Done()
				return
			case <-s.halt:
				s.pending.Done()
				return
			}
		}
		if len(rest) == len(waiting) {
			select {
			case <-c.finished:
			case <-ctx.Done():
				return
			case <-s.halt:
				return
			}
		}
		waiting = rest
	}
}

// readyCarried says whether every previous match of m's bots is done.
func (s *session) readyCarried(m *plan.Match, prev map[string]string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range prev {
		if p != "" && s.done[p] == nil && !s.r.carry.earlier[p] {
			return false
		}
	}
	return true
}

// prepare gives every seat of match m, played in dir, its bot's State
// folder: dir/state/<bot>, holding what the bot's previous match left
// (in a replay, what the bot brought into the recorded match), with a
// copy in dir/state/<bot>.in. out is the results directory.
func (c *carry) prepare(out, dir string, m *plan.Match, seats []drivers.Seat) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	made := map[string]bool{}
	for i := range seats {
		bot := seats[i].Bot
		if bot == "" || bot == "." || bot == ".." || strings.ContainsAny(bot, `/\`) || strings.HasSuffix(bot, ".in") {
			return fmt.Errorf("bot %q cannot name a state folder", bot)
		}
		state := filepath.Join(abs, StateDir, bot)
		seats[i].State = state
		if made[bot] {
			continue
		}
		made[bot] = true
		src, err := c.source(out, m.ID, bot)
		if err != nil {
			return err
		}
		for _, dst := range []string{state + ".in", state} {
			if err := copyState(src, dst); err != nil {
				// A state of 0600 a run of another user's (root's) left.
				return fmt.Errorf("the state of bot %s for match %s: %w", bot, m.ID, OwnerHint(err))
			}
		}
	}
	return nil
}

// source is the folder bot's state in match id starts from, or "" for
// none (its first match).
func (c *carry) source(out, id, bot string) (string, error) {
	if c.from != "" {
		src := filepath.Join(c.from, MatchesDir, id, StateDir, bot+".in")
		if _, err := os.Stat(src); err != nil {
			return "", fmt.Errorf("match %s cannot be replayed: the state bot %s brought into it is not recorded (%w)", id, bot, err)
		}
		return src, nil
	}
	c.mu.Lock()
	p := c.prev[id][bot]
	c.mu.Unlock()
	if p == "" {
		return "", nil
	}
	if c.earlier[p] {
		src := filepath.Join(c.earlierDir, MatchesDir, p, StateDir, bot)
		if _, err := os.Stat(src); err != nil {
			return "", fmt.Errorf("match %s starts from the state bot %s left after match %s of an earlier stage, which the merged results directory %s should hold (%w): "+
				"merge copies each match's directory whole; run the shard from the plan.json of the directory its stage was paired in", id, bot, p, c.earlierDir, err)
		}
		return src, nil
	}
	src := filepath.Join(out, MatchesDir, p, StateDir, bot)
	if _, err := os.Stat(src); err != nil {
		return "", fmt.Errorf("match %s starts from the state bot %s left after match %s, which is missing (%w); "+
			"remove %s to start over", id, bot, p, err, out)
	}
	return src, nil
}

// copyState makes dst a copy of the folder src (empty when src is ""):
// its folders and regular files, nothing else, so that no state leads out
// of the results directory.
func copyState(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil || src == "" {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, to)
		default:
			return fmt.Errorf("%s is not a regular file", path)
		}
	})
}

// copyFile copies a file with its mode and, where arbiter may (as root),
// its owner: a file the bot made as the sandbox's uid stays writable for
// it in its next match.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm())
	if err != nil {
		return err
	}
	// The mode exactly, whatever the organiser's umask (which OpenFile
	// applied): a bot's state is the bot's, not arbiter's own output.
	if err := out.Chmod(info.Mode().Perm()); err != nil {
		out.Close()
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
		if err := out.Chown(int(st.Uid), int(st.Gid)); err != nil {
			out.Close()
			return err
		}
	}
	return out.Close()
}

// CheckCarriedShards refuses to shard plan p into n shards when its
// game carries each bot's state from match to match and a shard of a
// stage known now would hold a match whose bot's previous match in that
// stage another shard holds: that shard refuses at its start
// (feedCarried), so a chain of such shards (arbiter slurm) is certain to
// fail. The stages known are stage 0 (the listed matches) and those
// paired in dir, the results directory (rounds/) the chain merges into,
// which holds none when it is new. drv loads the game.
func CheckCarriedShards(p *plan.Plan, dir string, n int, drv func(string) (drivers.Driver, bool)) error {
	if n < 2 {
		return nil
	}
	game, err := (&Runner{Plan: p, Drivers: drv}).loadGameSettings()
	if err != nil {
		return err
	}
	c := newCarry(game, "")
	if c == nil {
		return nil
	}
	paired, err := loadPairings(dir, p)
	if err != nil {
		return err
	}
	for stage := 0; stage <= len(paired); stage++ {
		ms, err := StageMatches(p, paired, stage)
		if err != nil {
			return err
		}
		if err := carriedApart(p, ms, stage, n, c.dealsApart); err != nil {
			return err
		}
	}
	return nil
}

// stageLabel names stage stage of p, whose matches are ms: "stage 1 (b)"
// for a stage of a tournament in stages, "stage 2 (playoff 1 of stage
// a)" for a playoff of one, "stage 1" for a round or a playoff of a
// single tournament (its matches name no stage).
func stageLabel(p *plan.Plan, stage int, ms []plan.Match) string {
	if len(ms) == 0 || ms[0].Stage == "" {
		return fmt.Sprintf("stage %d", stage)
	}
	if k := p.StageIndex(ms[0].Stage); k >= 0 && stats.IsPlayoff(ms[0].ID) {
		return fmt.Sprintf("stage %d (playoff %d of stage %s)", stage, ms[0].Round-p.Stages[k].Rounds, ms[0].Stage)
	}
	return fmt.Sprintf("stage %d (%s)", stage, ms[0].Stage)
}

// carriedApart refuses the matches ms of stage stage in n shards when a
// shard would hold a match whose bot's previous match of ms another
// shard holds (CheckCarriedShards); p names the stage.
func carriedApart(p *plan.Plan, ms []plan.Match, stage, n int, dealsApart bool) error {
	owner := make(map[string]int, len(ms))
	for k := 0; k < n; k++ {
		for _, id := range ShardMatches(ms, k, n) {
			owner[id] = k
		}
	}
	prev := previousMatches(ms, dealsApart)
	for _, m := range ms {
		for _, bot := range slices.Sorted(maps.Keys(prev[m.ID])) {
			if q := prev[m.ID][bot]; q != "" && owner[q] != owner[m.ID] {
				return fmt.Errorf("-shards %d: in %s, match %s starts from the state bot %s left after match %s, which shard %d/%d of stage %d plays, not shard %d/%d, which holds %s: "+
					"the game carries each bot's state from match to match, so a bot's matches are played in plan order, and shard %d/%d of stage %d would refuse to start; "+
					"a shard cannot play a match whose bots' earlier matches are in another shard: shard such a tournament with memory = \"per-position\", or run it on one machine",
					n, stageLabel(p, stage, ms), m.ID, bot, q, owner[q], n, stage, owner[m.ID], n, m.ID, owner[m.ID], n, stage)
			}
		}
	}
	return nil
}
