package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
)

// Replayed is one match played again by Replay.
type Replayed struct {
	Match string
	// Lines is how many lines the recorded transcript has.
	Lines int
	// Diff is the first difference between the recorded transcript and
	// the replayed one, timings aside; empty when they are identical.
	// Without a recorded transcript (Missing), it is the difference
	// between the recorded result (results.jsonl) and the replayed one.
	Diff string
	// Missing is the recorded transcript's path when there is none (it
	// was removed): the match is replayed all the same, which writes its
	// transcript again, and only its result is compared.
	Missing string
	// Err says why the transcripts could not be compared (a recorded one
	// that is cut short or not JSON lines); Diff is then empty.
	Err error
	// Refingerprinted is set when the transcripts differ in the bots'
	// fingerprints alone, which the result event records and which a
	// replay with -allow-changed-bots plays as they are now (a match an
	// earlier arbiter played, whose house bots change with its build);
	// Diff is then empty.
	Refingerprinted bool
}

// ReplayMatches checks that the matches ids of the results directory dir
// are finished and returns them; with round > 0 instead, every match of
// that round (listed in the plan or paired during the run): of a
// shard's directory, those of the round that the shard plays. drv finds
// the game's driver, which makes again a stage whose file is missing
// (ReadDirWith); warnings name the stage files that differ from the
// stages that the results make.
func ReplayMatches(dir string, ids []string, round int, drv func(string) (drivers.Driver, bool)) ([]string, []string, error) {
	p, results, warnings, err := ReadDirWith(dir, drv)
	if err != nil {
		return nil, nil, err
	}
	var shard *ShardPlan
	if round > 0 {
		if shard, err = ReadShard(dir); err != nil {
			return nil, nil, err
		}
	}
	done := map[string]bool{}
	for _, r := range results {
		done[r.Match] = true
	}
	if round > 0 {
		for _, m := range p.Matches {
			if m.Round == round && (shard == nil || slices.Contains(shard.Matches, m.ID)) {
				ids = append(ids, m.ID)
			}
		}
		if len(ids) == 0 && shard != nil {
			return nil, nil, fmt.Errorf("%s is %s, which plays no match of round %d: replay the round from the shard that played it, or from the merged results", dir, shard.Shard, round)
		}
		if len(ids) == 0 {
			return nil, nil, noRound(dir, p, results, round)
		}
	}
	for _, id := range ids {
		if why := impossibleID(p, id); p.Match(id) == nil && why != "" {
			return nil, nil, fmt.Errorf("%s has no match %q, and its configuration makes none by that id, now or later: %s", dir, id, why)
		}
		if p.Match(id) == nil && notMadeYet(p, id) != "" {
			return nil, nil, fmt.Errorf("%s has no match %q yet: it is a match of %s", dir, id, notMadeYet(p, id))
		}
		if p.Match(id) == nil {
			return nil, nil, fmt.Errorf("%s has no match %q", dir, id)
		}
		if !done[id] {
			return nil, nil, fmt.Errorf("match %s is not finished in %s: only finished matches can be replayed", id, dir)
		}
		// A finished match whose transcript is missing is replayed too:
		// that is how its transcript is made again (Replayed.Missing).
	}
	return ids, warnings, nil
}

func transcriptPath(dir, id string) string {
	return TranscriptPath(filepath.Join(dir, MatchesDir, id))
}

// Replay plays the matches r.Only of the results directory from again,
// into r.Out, which must be empty or not exist, and compares each
// transcript with the recorded one. r.Plan is from's plan (plan.json, with
// the fingerprints to play with). The rounds and playoffs that from's run
// paired are copied to r.Out first, so a match of a round paired during
// the run is played from the pairing the run recorded.
//
// A match that was played with other versions of its bots than r.Plan's
// (the run went on with -allow-changed-bots after it) is refused unless
// r.AllowChangedBots.
func (r *Runner) Replay(ctx context.Context, from string) ([]Replayed, error) {
	if !r.AllowChangedBots {
		if err := playedWith(from, r.Only, r.Plan, r.Drivers); err != nil {
			return nil, err
		}
	}
	if entries, err := os.ReadDir(r.Out); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s is not empty: a replay needs a fresh directory", r.Out)
	}
	if err := r.copyPairings(from); err != nil {
		return nil, err
	}
	// A game that carries its bots' state starts each match from the
	// state its bots brought into the recorded one.
	run := *r
	run.carryFrom = from
	if _, err := run.Run(ctx); err != nil {
		return nil, err
	}
	// The recorded results as written, to be compared as written.
	recorded, lines, err := readRaw(filepath.Join(from, ResultsFile))
	if err != nil {
		return nil, err
	}
	results := map[string][]byte{}
	for i := range recorded {
		results[recorded[i].Match] = lines[i]
	}
	// Each match is compared on its own: one transcript that cannot be
	// read does not hide what the others say.
	var out []Replayed
	for _, id := range r.Only {
		out = append(out, r.compareReplayed(from, id, results[id]))
	}
	return out, nil
}

// compareReplayed compares match id's transcript replayed into r.Out
// with the one recorded in from, or with its recorded result when the
// transcript is gone. With r.AllowChangedBots, transcripts (or results)
// that differ in the bots' fingerprints alone are Refingerprinted.
func (r *Runner) compareReplayed(from, id string, recorded []byte) Replayed {
	rec, again := transcriptPath(from, id), transcriptPath(r.Out, id)
	rp := Replayed{Match: id}
	if !fileExists(rec) {
		rp.Missing = rec
		rp.Diff, rp.Refingerprinted, rp.Err = compareResult(recorded, again, r.AllowChangedBots)
		return rp
	}
	rp.Lines, rp.Diff, rp.Err = CompareTranscripts(rec, again)
	if rp.Diff != "" && r.AllowChangedBots && sameButFingerprints(rec, again) {
		rp.Diff, rp.Refingerprinted = "", true
	}
	return rp
}

// sameButFingerprints reports whether the transcripts recorded and
// replayed are the same, timings aside, but for the fingerprints that
// their result events record.
func sameButFingerprints(recorded, replayed string) bool {
	a, err := readTranscript(recorded)
	if err != nil {
		return false
	}
	b, err := readTranscript(replayed)
	if err != nil || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && unfingerprinted(a[i]) != unfingerprinted(b[i]) {
			return false
		}
	}
	return true
}

// unfingerprinted is an untimed result line without its fingerprints;
// any other line is itself.
func unfingerprinted(line string) string {
	var l map[string]any
	if decodeAsWritten([]byte(line), &l) != nil || l["event"] != "result" {
		return line
	}
	if d, ok := l["data"].(map[string]any); ok {
		delete(d, "fingerprints")
	}
	b, _ := json.Marshal(l)
	return string(b)
}

// compareResult compares a match's recorded result (its results.jsonl
// line, as written) with the result event of its replayed transcript, timings and
// verdicts aside (a verdict depends on the matches before it, which a
// replay does not play), and with allowChanged the fingerprints it
// records (a replay with -allow-changed-bots plays the bots as they are
// now). It returns the difference, empty when there is none, and whether
// the fingerprints alone differ, which are then no difference.
func compareResult(recorded []byte, replayed string, allowChanged bool) (string, bool, error) {
	if recorded == nil {
		return "", false, fmt.Errorf("no recorded result to compare with")
	}
	again, err := resultLine(replayed)
	if err != nil {
		return "", false, err
	}
	b, err := json.Marshal(transcriptLine{Event: "result", Data: json.RawMessage(recorded)})
	if err != nil {
		return "", false, err
	}
	was, err := untimed(b)
	if err != nil {
		return "", false, err
	}
	if was, again = unjudged(was), unjudged(again); was == again {
		return "", false, nil
	}
	if allowChanged && unfingerprinted(was) == unfingerprinted(again) {
		return "", true, nil
	}
	return fmt.Sprintf("its result differs from the recorded one:\n  recorded: %s\n  replayed: %s", clip(was), clip(again)), false, nil
}

// resultLine is the untimed result event of the transcript at path.
func resultLine(path string) (string, error) {
	lines, err := readTranscript(path)
	if err != nil {
		return "", err
	}
	var again string
	for _, l := range lines {
		var e struct{ Event string }
		if json.Unmarshal([]byte(l), &e) == nil && e.Event == "result" {
			again = l
		}
	}
	if again == "" {
		return "", fmt.Errorf("%s has no result", path)
	}
	return again, nil
}

// unjudged is an untimed result line without the seats' verdicts.
func unjudged(line string) string {
	var l map[string]any
	if decodeAsWritten([]byte(line), &l) != nil {
		return line
	}
	if d, ok := l["data"].(map[string]any); ok {
		if seats, ok := d["seats"].([]any); ok {
			for _, s := range seats {
				if s, ok := s.(map[string]any); ok {
					delete(s, "disqualified")
				}
			}
		}
	}
	b, _ := json.Marshal(l)
	return string(b)
}

// playedWith refuses matches of dir that were played with other bots
// than those of p.
func playedWith(dir string, ids []string, p *plan.Plan, drv func(string) (drivers.Driver, bool)) error {
	_, results, _, err := ReadDirWith(dir, drv)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for _, res := range results {
		if !want[res.Match] {
			continue
		}
		for _, bot := range sortedKeys(res.Fingerprints) {
			b := p.Bot(bot)
			if b == nil || b.Fingerprint == nil || b.Fingerprint.Hash == res.Fingerprints[bot] {
				continue
			}
			if b.House != "" { // a house bot changes with arbiter's build alone
				return fmt.Errorf("match %s was played with another arbiter's build (its house bot %q was %s, is %s now; see %s); give -allow-changed-bots to replay it with arbiter as it is now",
					res.Match, bot, short(res.Fingerprints[bot]), short(b.Fingerprint.Hash), filepath.Join(dir, ChangesFile))
			}
			return fmt.Errorf("match %s was played with bot %q %s, which is %s now (see %s); give -allow-changed-bots to replay it with the bot as it is now",
				res.Match, bot, short(res.Fingerprints[bot]), short(b.Fingerprint.Hash), filepath.Join(dir, ChangesFile))
		}
	}
	return nil
}

// copyPairings copies the rounds/ files of from into r.Out.
// A stage, round or playoff whose file from is missing is made again
// from its results and written to r.Out's rounds/ too.
func (r *Runner) copyPairings(from string) error {
	if err := copyRounds(from, r.Out); err != nil {
		return err
	}
	if !r.Plan.MakesLater() {
		return nil
	}
	game, err := r.loadGameSettings()
	if err != nil {
		return err
	}
	results, err := readResultsFile(filepath.Join(from, ResultsFile))
	if err != nil {
		return err
	}
	sf, err := loadStages(from, r.Plan, results, game)
	if err != nil {
		return err
	}
	return sf.writeRemade(r.Out)
}

// copyRounds copies the files of from's rounds/ into out's.
func copyRounds(from, out string) error {
	entries, err := os.ReadDir(filepath.Join(from, RoundsDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, RoundsDir), 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, RoundsDir, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, RoundsDir, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// CompareTranscripts compares two match transcripts (events.jsonl, or
// events.jsonl.gz) apart from timings: the time offset of every line, the
// milliseconds of a time_left command, and the measured times in events
// (the result's, an Auction overrun's: see measured). It returns the number
// of lines of the first and a description of the first difference, empty
// when there is none.
func CompareTranscripts(recorded, replayed string) (int, string, error) {
	a, movedA, err := readTranscriptMoved(recorded)
	if err != nil {
		return 0, "", err
	}
	b, movedB, err := readTranscriptMoved(replayed)
	if err != nil {
		return 0, "", err
	}
	for i := 0; i < max(len(a), len(b)); i++ {
		switch {
		case i >= len(a):
			return len(a), fmt.Sprintf("the replay goes on after the recorded %d lines:\n  replayed: %s", len(a), clip(b[i])), nil
		case i >= len(b):
			return len(a), fmt.Sprintf("the replay ends after %d of the recorded %d lines; next recorded:\n  recorded: %s", len(b), len(a), clip(a[i])), nil
		case a[i] != b[i]:
			at := firstDiff(a[i], b[i])
			return len(a), fmt.Sprintf("line %d differs from character %d%s:\n  recorded: %s\n  replayed: %s", i+1, utf8.RuneCountInString(a[i][:at])+1, movedNote(i, movedA, movedB), clipAt(a[i], at), clipAt(b[i], at)), nil
		}
	}
	return len(a), "", nil
}

// readTranscript reads a transcript's lines without their timings, in
// today's order (matchFirst).
func readTranscript(path string) ([]string, error) {
	lines, _, err := readTranscriptMoved(path)
	return lines, err
}

// movedNote says where a transcript's line i (0-based, in today's order)
// is in the files compared when the build faults that an earlier arbiter
// wrote before the match event (moved of them, by matchFirst, in the
// recorded and in the replayed file) put it on another line: "line 2
// differs" of such a file is its line 1.
func movedNote(i, recorded, replayed int) string {
	var at []string
	for _, f := range []struct {
		name  string
		moved int
	}{{"recorded", recorded}, {"replayed", replayed}} {
		if n := fileLine(i, f.moved); n != i+1 {
			at = append(at, fmt.Sprintf("the %s file's line %d", f.name, n))
		}
	}
	if at == nil {
		return ""
	}
	return " (" + strings.Join(at, ", ") + ": an arbiter before 2026-11-24 wrote a failed build's fault before the match event)"
}

// fileLine is the line (1-based) in its file of a transcript's line i
// (0-based) in today's order, when matchFirst moved its match event
// before the moved build faults that came first.
func fileLine(i, moved int) int {
	switch {
	case moved == 0 || i > moved:
		return i + 1
	case i == 0:
		return moved + 1
	}
	return i
}

// readTranscriptMoved reads a transcript's lines as readTranscript does,
// and how many build faults came before its match event (matchFirst).
func readTranscriptMoved(path string) ([]string, int, error) {
	f, err := OpenTranscriptFile(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		line, err := untimed(sc.Bytes())
		if err != nil {
			// The torn last line of a stream that was cut short: the
			// cut is what is wrong, not the JSON.
			if !sc.Scan() && errors.Is(sc.Err(), io.ErrUnexpectedEOF) {
				return nil, 0, sc.Err()
			}
			return nil, 0, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		out = append(out, line)
	}
	if err := sc.Err(); errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, 0, err // says which file (OpenTranscriptFile)
	} else if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	lines, moved := matchFirst(out)
	return lines, moved, nil
}

// matchFirst puts a transcript's match event first, before the faults of
// the seats whose build failed, which an arbiter before 2026-11-24 wrote
// ahead of it (engine.playStaged writes them after it now), so that a
// transcript recorded then compares equal with its replay now. It
// returns the lines and how many faults it moved.
func matchFirst(lines []string) ([]string, int) {
	n := 0
	for n < len(lines) && eventKind(lines[n]) == "fault:"+FaultBuild {
		n++
	}
	if n == 0 || n == len(lines) || eventKind(lines[n]) != "match:" {
		return lines, 0
	}
	return slices.Concat(lines[n:n+1], lines[:n], lines[n+1:]), n
}

// eventKind is a transcript line's event and its data's kind, "event:kind"
// (empty for a line sent or received).
func eventKind(line string) string {
	var l struct {
		Event string
		Data  struct{ Kind string }
	}
	if json.Unmarshal([]byte(line), &l) != nil || l.Event == "" {
		return ""
	}
	return l.Event + ":" + l.Data.Kind
}

// measured are the names of the fields of events that hold a time
// measured while the match ran, in milliseconds, wherever they are in an
// event's data: the result's elapsed_ms and seats' time_ms and
// off_move_ms, the used_ms and arrived_ms of an Auction overrun. A replay on the same machine measures them
// again a few milliseconds off, so they are no difference; a limit
// (limit_ms) is the configuration's and is compared. A driver that
// records a measured time names it so (docs/drivers.md).
var measured = map[string]bool{"elapsed_ms": true, "time_ms": true, "off_move_ms": true, "used_ms": true, "arrived_ms": true}

// untimed is a transcript line without what depends on the machine's speed.
func untimed(b []byte) (string, error) {
	var l map[string]any
	if err := decodeAsWritten(b, &l); err != nil {
		return "", err
	}
	delete(l, "t")
	if s, ok := l["send"].(string); ok {
		l["send"] = timeLeftUntimed(s)
	}
	if _, ok := l["event"]; ok {
		unmeasured(l["data"])
	}
	out, err := json.Marshal(l)
	return string(out), err
}

// unmeasured removes the measured fields from an event's data, at any
// depth, and from a fault's detail the note on what the bot was doing at
// its time-out (drivers.WithoutArrivedNote), which the bot's state in
// /proc at that moment decided.
func unmeasured(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if measured[k] {
				delete(v, k)
			} else if d, ok := x.(string); ok && k == "detail" {
				v[k] = drivers.WithoutArrivedNote(d)
			} else {
				unmeasured(x)
			}
		}
	case []any:
		for _, x := range v {
			unmeasured(x)
		}
	}
}

// decodeAsWritten decodes the JSON value b into v with its numbers as
// written (json.Number), which encode again as the same text: a replay
// compares what was written, and a float64 would make a uint64 seed, or
// any number, the same as another that differs beyond its precision.
// A line that is not one JSON value gets json.Unmarshal's error.
func decodeAsWritten(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(v) != nil || len(bytes.TrimSpace(b[dec.InputOffset():])) > 0 {
		return json.Unmarshal(b, v)
	}
	return nil
}

// timeLeftUntimed is the command s with the milliseconds of a time_left
// command ("time_left 59996") masked, and nothing else: its other words
// are compared.
func timeLeftUntimed(s string) string {
	rest, ok := strings.CutPrefix(s, "time_left ")
	if !ok {
		return s
	}
	ms, more, _ := strings.Cut(rest, " ")
	if _, err := strconv.ParseInt(ms, 10, 64); err != nil {
		return s
	}
	return strings.TrimSuffix("time_left … "+more, " ")
}

// firstDiff is the byte offset of the first difference between a and b,
// moved back to the start of its character.
func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(a) && !utf8.RuneStart(a[i]) {
		i--
	}
	return i
}

// clipAt is s cut to about 300 bytes around the offset at, the first
// difference from the line it is compared with: a long line (a result's
// fingerprints come first) shows where it differs.
func clipAt(s string, at int) string {
	const most, before = 300, 100
	if len(s) <= most {
		return s
	}
	start := max(0, min(at-before, len(s)-most))
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	end := min(len(s), start+most)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	out := s[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(s) {
		out += "…"
	}
	return out
}

func clip(s string) string {
	const most = 300
	if len(s) <= most {
		return s
	}
	return s[:most] + "…"
}

// lastRound is the last round of p, a results directory's plan with the
// rounds paired so far: that of its rounds, of its stages' (round N of
// a tournament in stages is round N of every stage) or of a match paired
// after them (a playoff k is round rounds+k), whichever is last.
func lastRound(p *plan.Plan) int {
	last := p.Rounds
	if len(p.Stages) > 0 {
		last = 0
	}
	for k := range p.ListedStages() {
		last = max(last, p.Stages[k].Rounds)
	}
	for _, m := range p.Matches {
		last = max(last, m.Round)
	}
	return last
}

// noRound refuses round, of which dir (plan p, which holds the stages
// made, and results) has no match, naming the rounds it has: those of
// the stages made, while a stage to come may add its own.
func noRound(dir string, p *plan.Plan, results []Result, round int) error {
	later := "a round paired during the run is known once it was paired"
	if len(p.Stages) > 0 {
		switch coming := stages.ToCome(p, results); len(coming) {
		case 0:
		case 1:
			later = fmt.Sprintf("stage %s is to come: its rounds are known once it is made", coming[0])
		default:
			later = fmt.Sprintf("stages %s are to come: their rounds are known once each is made", strings.Join(coming, ", "))
		}
	}
	return fmt.Errorf("%s has no match of round %d (its rounds are 1-%d; %s)", dir, round, lastRound(p), later)
}

// readPlanFile reads the plan.json of dir. When there is none (or dir
// is no folder), dir is not the results directory looked for: notDir
// says so of the error. Any other failure, a plan.json the user may not
// read, is the file's: it says the file cannot be read, and whose it is
// when another user's (OwnerHint).
func readPlanFile(dir string, notDir func(error) error) ([]byte, error) {
	path := filepath.Join(dir, PlanFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return nil, notDir(err)
	}
	return nil, OwnerHint(fmt.Errorf("%s cannot be read: %w", path, err))
}

// ReadPlan reads the plan.json of a results directory, as written: without
// the rounds paired during the run. It refuses one that is no runnable
// plan (plan.Plan.Runnable), which its readers could not go through.
func ReadPlan(dir string) (*plan.Plan, error) {
	b, err := readPlanFile(dir, func(err error) error { return fmt.Errorf("%s is not a results directory: %w", dir, err) })
	if err != nil {
		return nil, err
	}
	var p plan.Plan
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, PlanFile), err)
	}
	if err := p.Runnable(); err != nil {
		return nil, fmt.Errorf("%s: %w (an edited or damaged file?)", filepath.Join(dir, PlanFile), err)
	}
	return &p, nil
}
