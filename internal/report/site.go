package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/drivers/euchre"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/engine/stop"
	"github.com/arbiter-contests/arbiter/internal/filetail"
)

// Site is everything the page shows but the transcripts: it is embedded in
// the page as JSON, and sent again to a live page on every change.
type Site struct {
	Tournament string `json:"tournament"`
	Driver     string `json:"driver"` // the game's driver: which replay viewer
	Game       string `json:"game"`
	Plan       string `json:"plan"`
	Format     string `json:"format"`
	Players    int    `json:"players"`
	// StartupMS is the start-up allowance of the clock the matches play
	// with (drivers.Clock.Startup, plan.Plan.GameClock), in milliseconds:
	// the replay takes it off a seat's clock as arbiter does.
	StartupMS int64 `json:"startup_ms,omitempty"`
	// Stages are the names of the stages of a tournament played in
	// stages (then Format and Players are not the matches').
	Stages []string `json:"stages,omitempty"`
	// Stats are `arbiter rank -json`'s statistics, ranked as `arbiter
	// rank` ranks them (engine.RankDir): by stage in a tournament in
	// stages.
	Stats *stats.Stats `json:"stats"`
	// Finished and Ranked head the standings as `arbiter rank` does:
	// "12 of 12 matches finished, 6 playoff(s)", "by mean place, ...".
	Finished string `json:"finished"`
	Ranked   string `json:"ranked"`
	// Shard names the shard whose results these are, if they are one's:
	// its standings count its own matches alone.
	Shard string `json:"shard,omitempty"`
	// Stopped says which stopping rule ended the tournament, if one did.
	Stopped *stop.Stopped `json:"stopped,omitempty"`
	// Changes are the changes of bots after some of their results
	// (changes.jsonl, as arbiter rank notes them): their rows count both
	// versions.
	Changes []engine.ChangeNote `json:"changes,omitempty"`
	// Notes say each change in words.
	Notes []string `json:"notes,omitempty"`
	// HeadToHead compares every pair of bots (`arbiter rank -vs A,B`).
	HeadToHead []*stats.HeadToHead `json:"head_to_head"`
	// History is every bot's rating after each round.
	History History `json:"history"`
	// Matches are the finished matches, in plan order (byPlan), not in
	// the order they finished, which differs with -j.
	Matches []Match `json:"matches"`
	// Running are matches with a transcript but no result yet.
	Running []string `json:"running,omitempty"`
	// Skipped says what could not be read and was left out.
	Skipped []string `json:"skipped,omitempty"`
	// Warnings say what was read but is not what arbiter makes of the
	// results: a stage file that differs from the stage they make.
	Warnings []string `json:"warnings,omitempty"`
}

// History holds one rating series per bot: Elo[k][i] is bot Bots[k]'s
// rating after round Rounds[i].
type History struct {
	Rounds []int        `json:"rounds"`
	Bots   []string     `json:"bots"`
	Elo    [][]*float64 `json:"elo"`
}

// Match is one finished match as the match list and charts need it.
type Match struct {
	engine.Result
	// Answers counts, by seat, the commands the seat answered (a send
	// line of the transcript, or a decision of a bot run per decision).
	Answers []int `json:"answers"`
	// Replaced counts, by seat, the answers the game's defaults replaced
	// (stats.ReplacedAnswers: none for a bot that could not be started or
	// built, whose defaults stand in for no answer it gave), so that the
	// page counts them as the standings do.
	Replaced []int `json:"replaced"`
	// Stderr holds, by seat, the end of the bot's stderr when the seat
	// faulted or had answers replaced by defaults; "" otherwise.
	Stderr []string `json:"stderr"`
}

// stderrExcerpt is how much of the end of a faulty bot's stderr the page
// shows.
const stderrExcerpt = 2048

// Load reads results directory dir. It fails only when dir is not a
// results directory or its results are refused (see engine.ReadDirWith);
// what it skips is listed in Site.Skipped.
func Load(dir string) (*Site, error) {
	return newLoader(dir).load()
}

// loader remembers what it read of the transcripts, which do not change
// once their match has a result, so that a live page costs only the new
// matches.
type loader struct {
	dir     string
	answers map[string][]int
}

func newLoader(dir string) *loader { return &loader{dir: dir, answers: map[string][]int{}} }

func (l *loader) load() (*Site, error) {
	p, results, warnings, err := engine.ReadDirWith(l.dir, all.Driver)
	if err != nil {
		return nil, err
	}
	s := &Site{Tournament: p.Tournament, Driver: p.Game.Driver, Game: p.Game.Name, Plan: p.Hash,
		Format: p.Format.String(), Players: p.Players, StartupMS: time.Duration(p.GameClock().Startup).Milliseconds(),
		Warnings: warnings}
	if torn := tornLine(filepath.Join(l.dir, engine.ResultsFile)); torn != "" {
		s.Skipped = append(s.Skipped, torn)
	}
	stopped, err := engine.ReadStopped(l.dir)
	if err != nil {
		s.Skipped = append(s.Skipped, err.Error())
	}
	for _, st := range p.Stages {
		s.Stages = append(s.Stages, st.Name)
	}
	counted := stopped.Counted(p, results)
	st, sp, err := engine.RankDir(l.dir, p, counted, all.Driver)
	if err != nil {
		return nil, err
	}
	s.Stats, s.Finished, s.Ranked = st, st.Finished(), st.RankedBy()
	if sp != nil {
		s.Shard = sp.Shard.String()
	}
	s.Stopped = stopped
	if s.Changes, err = engine.ReadChanges(l.dir); err != nil {
		s.Skipped = append(s.Skipped, err.Error())
	}
	for _, c := range s.Changes {
		s.Notes = append(s.Notes, c.String()+" ("+engine.ChangesFile+"): "+c.Meaning()+".")
	}
	s.HeadToHead = headToHeads(p, counted, s.Stats)
	if s.History, err = history(p, counted, s.Stats); err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, r := range byPlan(p, results) {
		done[r.Match] = true
		s.Matches = append(s.Matches, l.match(r, p.Game.Driver, &s.Skipped))
	}
	s.Running = running(l.dir, p, done)
	return s, nil
}

// byPlan is results in the order the plan lists their matches, those of
// rounds and stages paired during the run after (as ReadDirWith appends
// them to p), not in the order they finished, which differs with -j: so
// the page's data, embedded in report.html, is the same from run to run.
// A match the plan does not list comes last, by id.
func byPlan(p *plan.Plan, results []engine.Result) []engine.Result {
	out := slices.Clone(results)
	inPlan := planOrder(p)
	slices.SortStableFunc(out, func(a, b engine.Result) int { return inPlan(a.Match, b.Match) })
	return out
}

// planOrder compares match ids by the order the plan lists their matches,
// not as strings (r001-g100-s1 comes after r001-g99-s1); ids the plan
// does not list come last, by id.
func planOrder(p *plan.Plan) func(a, b string) int {
	order := make(map[string]int, len(p.Matches))
	for i, m := range p.Matches {
		order[m.ID] = i
	}
	pos := func(id string) int {
		if i, ok := order[id]; ok {
			return i
		}
		return len(p.Matches)
	}
	return func(a, b string) int {
		return cmp.Or(cmp.Compare(pos(a), pos(b)), strings.Compare(a, b))
	}
}

// tornLine says whether results.jsonl ends in a line that is not a
// complete result (the run was killed while writing it, or is writing it
// now), which engine.ReadDir leaves out.
func tornLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return ""
	}
	const tail = 1 << 16
	off := max(fi.Size()-tail, 0)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	last := b
	if i := bytes.LastIndexByte(bytes.TrimRight(b, "\n"), '\n'); i >= 0 {
		last = b[i+1:]
	}
	if bytes.HasSuffix(b, []byte("\n")) && json.Valid(bytes.TrimSpace(last)) {
		return ""
	}
	return fmt.Sprintf("%s: its last line (%d bytes) is not a complete result (a run is writing it, or was killed while writing it); that match is not counted",
		path, len(bytes.TrimRight(last, "\n")))
}

// headToHeads compares every pair of bots of the standings that met, in standings
// order, with `arbiter rank -vs`'s default test: the plan's stop { sprt }
// block's, if it has one (stats.DefaultSPRT).
func headToHeads(p *plan.Plan, results []engine.Result, st *stats.Stats) []*stats.HeadToHead {
	bots := make([]string, 0, len(st.Standings))
	for _, s := range st.Standings {
		if p.Bot(s.Bot) != nil {
			bots = append(bots, s.Bot)
		}
	}
	return stats.AllHeadToHeads(p, results, bots, stats.DefaultSPRT(p))
}

// maxHistory caps the points of the rating chart: a tournament of more
// rounds is sampled every few rounds (the last round is always shown).
const maxHistory = 60

// history rates the results of rounds 1..r for every round r (or every
// few rounds, see maxHistory). Playoffs are left out, as in the ratings.
func history(p *plan.Plan, results []engine.Result, st *stats.Stats) (History, error) {
	var h History
	for _, s := range st.Standings {
		h.Bots = append(h.Bots, s.Bot)
	}
	h.Elo = make([][]*float64, len(h.Bots))
	var rounds []int
	for _, r := range results {
		if !stats.IsPlayoff(r.Match) && !slices.Contains(rounds, r.Round) {
			rounds = append(rounds, r.Round)
		}
	}
	slices.Sort(rounds)
	step := max(1, (len(rounds)+maxHistory-1)/maxHistory)
	for i, r := range rounds {
		if i%step != 0 && i != len(rounds)-1 {
			continue
		}
		var upto []engine.Result
		for _, res := range results {
			if res.Round <= r && !stats.IsPlayoff(res.Match) {
				upto = append(upto, res)
			}
		}
		names, games := stats.PairwiseGames(p, upto)
		fit, err := rating.Fit(names, games, stats.RatingOptions())
		if err != nil {
			return h, err
		}
		h.Rounds = append(h.Rounds, r)
		for k, bot := range h.Bots {
			j := slices.Index(names, bot)
			var v *float64 // null, no point, before the bot's first game
			if j >= 0 && fit.Rated(j) {
				v = rating.Finite(fit.Elo[j])
			}
			h.Elo[k] = append(h.Elo[k], v)
		}
	}
	return h, nil
}

// match reads what the page needs of one match's transcript and stderr;
// driver is its game's.
func (l *loader) match(r engine.Result, driver string, skipped *[]string) Match {
	m := Match{Result: r, Replaced: make([]int, len(r.Seats)), Stderr: make([]string, len(r.Seats))}
	for i, seat := range r.Seats {
		m.Replaced[i] = stats.ReplacedAnswers(seat.SeatResult)
	}
	dir := filepath.Join(l.dir, engine.MatchesDir, r.Match)
	if !safeID(r.Match) {
		*skipped = append(*skipped, fmt.Sprintf("match %q: not a match id arbiter makes; its files are not read", r.Match))
		return m
	}
	if a, ok := l.answers[r.Match]; ok {
		m.Answers = a
	} else {
		a, err := countAnswers(engine.TranscriptPath(dir), len(r.Seats))
		if err != nil {
			*skipped = append(*skipped, fmt.Sprintf("match %s: its transcript cannot be read (%v); its time per answer is not shown", r.Match, err))
		}
		l.answers[r.Match], m.Answers = a, a
	}
	for i, seat := range r.Seats {
		if seat.Fault != "" || seat.Defaults > 0 {
			m.Stderr[i] = stderrOf(dir, driver, r, i)
		}
	}
	return m
}

// stderrOf is the end of the stderr of seat i's bot in match directory
// dir: of the engine's file of the seat, or, in Euchre, which runs a
// process per decision and keeps a file per position, of the file of
// each position the seat played, each under a line that names it.
func stderrOf(dir, driver string, r engine.Result, i int) string {
	bot := r.Seats[i].Bot
	if driver != "euchre" {
		return readTail(filepath.Join(dir, engine.StderrFile(i, bot)), stderrExcerpt)
	}
	var b strings.Builder
	for p, seat := range euchre.PositionSeats(len(r.Seats), r.Seed) {
		name := euchre.StderrFile(p, bot)
		tail := readTail(filepath.Join(dir, name), stderrExcerpt)
		if seat != i || tail == "" {
			continue
		}
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "position %d (%s):\n%s", p, name, tail)
	}
	return b.String()
}

// countAnswers counts the commands each seat answered in a transcript. It
// scans bytes rather than decoding every line: a tournament's transcripts
// are hundreds of megabytes.
func countAnswers(path string, seats int) ([]int, error) {
	b, err := engine.ReadTranscriptFile(path)
	if err != nil {
		return nil, err
	}
	n := make([]int, seats)
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if !bytes.Contains(line, []byte(`"send":`)) && !bytes.Contains(line, []byte(`"event":"decision"`)) ||
			bytes.Contains(line, []byte(`"send":"quit"`)) || bytes.Contains(line, []byte(`"send":"STOP"`)) {
			continue // quit and STOP end a session; no answer to them is charged
		}
		if s := seatOf(line); s >= 0 && s < seats {
			n[s]++
		}
	}
	return n, nil
}

// seatOf reads the first "seat":N of a transcript line, or -1.
func seatOf(line []byte) int {
	key := []byte(`"seat":`)
	i := bytes.Index(line, key)
	if i < 0 {
		return -1
	}
	n, digits := 0, 0
	for _, c := range line[i+len(key):] {
		if c < '0' || c > '9' || digits > 6 {
			break
		}
		n, digits = n*10+int(c-'0'), digits+1
	}
	if digits == 0 {
		return -1
	}
	return n
}

// readTail returns the last n bytes of a file, or "" when it is empty or
// missing; cut from a longer file, it begins at a character (UTF-8), not
// with the rest of one, after "…".
func readTail(path string, n int64) string {
	tail, cut := filetail.Read(path, n)
	if cut {
		return "…" + tail
	}
	return tail
}

// running lists the matches that have a transcript but no result: being
// played now, or cut off by a run that was stopped; in plan order, as the
// finished ones are.
func running(dir string, p *plan.Plan, done map[string]bool) []string {
	entries, err := os.ReadDir(filepath.Join(dir, engine.MatchesDir))
	if err != nil {
		return nil
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && !done[e.Name()] {
			ids = append(ids, e.Name())
		}
	}
	slices.SortFunc(ids, planOrder(p))
	return ids
}
