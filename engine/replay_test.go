package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Transcripts are compared apart from timings: line offsets, time_left
// milliseconds and the times of the result; anything else is a difference.
func TestCompareTranscripts(t *testing.T) {
	write := linesWriter(t)
	recorded := write("a.jsonl",
		`{"t":0.1,"event":"match","data":{"id":"m","seed":1}}`,
		`{"t":1.5,"seat":0,"send":"time_left 29987"}`,
		`{"t":2.5,"seat":0,"recv":"play 3H"}`,
		`{"t":9,"event":"result","data":{"match":"m","seats":[{"bot":"a","score":1,"time_ms":12}],"elapsed_ms":40}}`)
	for _, c := range []struct {
		name  string
		lines []string
		diff  string
	}{
		{"same but for timings", []string{
			`{"t":0.3,"event":"match","data":{"seed":1,"id":"m"}}`,
			`{"t":1.9,"seat":0,"send":"time_left 29950"}`,
			`{"t":2.9,"seat":0,"recv":"play 3H"}`,
			`{"t":19,"event":"result","data":{"match":"m","seats":[{"bot":"a","score":1,"time_ms":30}],"elapsed_ms":80}}`}, ""},
		{"another move", []string{
			`{"t":0.3,"event":"match","data":{"seed":1,"id":"m"}}`,
			`{"t":1.9,"seat":0,"send":"time_left 29950"}`,
			`{"t":2.9,"seat":0,"recv":"play 4H"}`,
			`{"t":19,"event":"result","data":{"match":"m","seats":[{"bot":"a","score":1,"time_ms":30}],"elapsed_ms":80}}`},
			"line 3 differs from character 15:\n  recorded: {\"recv\":\"play 3H\",\"seat\":0}\n  replayed: {\"recv\":\"play 4H\",\"seat\":0}"},
		{"more words after time_left's milliseconds", []string{
			`{"t":0.3,"event":"match","data":{"seed":1,"id":"m"}}`,
			`{"t":1.9,"seat":0,"send":"time_left 5 29950 9"}`},
			"line 2 differs from character 30:\n  recorded: {\"seat\":0,\"send\":\"time_left …\"}\n  replayed: {\"seat\":0,\"send\":\"time_left … 29950 9\"}"},
		{"another score", []string{
			`{"t":0.3,"event":"match","data":{"seed":1,"id":"m"}}`,
			`{"t":1.9,"seat":0,"send":"time_left 29950"}`,
			`{"t":2.9,"seat":0,"recv":"play 3H"}`,
			`{"t":19,"event":"result","data":{"match":"m","seats":[{"bot":"a","score":0,"time_ms":30}],"elapsed_ms":80}}`}, "line 4 differs"},
		{"shorter", []string{
			`{"t":0.3,"event":"match","data":{"seed":1,"id":"m"}}`},
			"the replay ends after 1 of the recorded 4 lines; next recorded:\n  recorded: {\"seat\":0,\"send\":\"time_left …\"}"},
	} {
		lines, diff, err := CompareTranscripts(recorded, write(c.name, c.lines...))
		if err != nil {
			t.Fatal(err)
		}
		if lines != 4 || c.diff == "" && diff != "" || c.diff != "" && !strings.HasPrefix(diff, c.diff) {
			t.Errorf("%s: %d lines, diff %q, want %q", c.name, lines, diff, c.diff)
		}
	}
}

// A time a game measured and recorded in an event, like the used_ms of
// an Auction overrun, is a timing too (it made every replay of a match
// with an overrun differ); a limit the configuration set is compared.
func TestCompareTranscriptsMeasuredTimes(t *testing.T) {
	write := linesWriter(t)
	overrun := func(used, limit int) string {
		return fmt.Sprintf(`{"t":1328.6,"event":"overrun","data":{"round":1,"seat":0,"used_ms":%d,"limit_ms":%d}}`, used, limit)
	}
	recorded := write("a.jsonl", `{"t":0.1,"event":"match","data":{"id":"m","seed":1}}`, overrun(1328, 1000))
	for _, c := range []struct {
		name, line, diff string
	}{
		{"another time used", overrun(1299, 1000), ""},
		{"another limit", overrun(1328, 900), "line 2 differs"},
	} {
		wantDiff(t, recorded, write(c.name, `{"t":0.2,"event":"match","data":{"id":"m","seed":1}}`, c.line), c.name, c.diff)
	}
}

// A fault's detail ends in a note on what the bot was doing at its
// time-out (drivers.ArrivedNote), which its state in /proc at that moment
// decided: a replay that sees it otherwise does not differ, but one whose
// detail differs before the note does.
func TestCompareTranscriptsFaultNotes(t *testing.T) {
	write := linesWriter(t)
	fault := func(detail string) string {
		b, err := json.Marshal(map[string]any{"t": 1.5, "event": "fault", "data": map[string]any{"seat": 0, "kind": "time", "detail": detail}})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const d = "no answer within 1s"
	recorded := write("a.jsonl", `{"t":0.1,"event":"match","data":{"id":"m","seed":1}}`, fault(d+drivers.ComputedNote))
	for _, c := range []struct {
		name, line, diff string
	}{
		{"another note", fault(d + drivers.WaitingNote), ""},
		{"an earlier arbiter's note", fault(d + "; nothing arrived: it had read everything sent and was waiting for more input; " +
			"it must answer each line before it reads the next (Python's sys.stdin.read() and readlines() read to " +
			"the end of the input, which does not come while the referee waits for the answer)"), ""},
		{"no note", fault(d), ""},
		{"another detail", fault("no answer within 2s" + drivers.ComputedNote), "line 2 differs"},
	} {
		wantDiff(t, recorded, write(c.name, `{"t":0.2,"event":"match","data":{"id":"m","seed":1}}`, c.line), c.name, c.diff)
	}
}

// A transcript an arbiter before 2026-11-24 recorded has a failed
// build's fault before the match event; one recorded now has it after.
// A replay compares the two as the same, but not a build fault that moved
// elsewhere, nor a start fault before the match event.
func TestCompareTranscriptsBuildFaultFirst(t *testing.T) {
	write := linesWriter(t)
	const (
		match = `{"t":0.1,"event":"match","data":{"id":"m","seed":1}}`
		built = `{"t":0.01,"event":"fault","data":{"detail":"the build failed","kind":"build","seat":1}}`
		start = `{"t":15,"event":"fault","data":{"seat":1,"kind":"start","detail":"the build failed"}}`
		end   = `{"t":9,"event":"end","data":{"scores":[0,0]}}`
	)
	recorded := write("a.jsonl", built, match, start, end)
	for _, c := range []struct {
		name  string
		lines []string
		diff  string
	}{
		{"match first", []string{match, built, start, end}, ""},
		{"as recorded", []string{built, match, start, end}, ""},
		{"build fault later", []string{match, start, built, end}, "line 2 differs"},
	} {
		wantDiff(t, recorded, write(c.name, c.lines...), c.name, c.diff)
	}
	wantDiff(t, write("start.jsonl", start, match, end), write("start after", match, start, end), "start fault moved", "line 1 differs")

	// A difference in a line so moved names where it is in the file.
	otherBuild := strings.Replace(built, "failed", "timed out", 1)
	for _, c := range []struct {
		name     string
		replayed []string
		diff     string
	}{
		{"build fault differs", []string{match, otherBuild, start, end}, "line 2 differs from character 30 (the recorded file's line 1: an arbiter before 2026-11-24"},
		{"match differs", []string{strings.Replace(match, `"m"`, `"n"`, 1), built, start, end}, "line 1 differs from character 16 (the recorded file's line 2: "},
		{"both old", []string{otherBuild, match, start, end}, "line 2 differs from character 30 (the recorded file's line 1, the replayed file's line 1: "},
		{"after them", []string{match, built, start}, "the replay ends after 3 of the recorded 4 lines"},
		{"later line", []string{match, built, start, strings.Replace(end, "[0,0]", "[1,0]", 1)}, "line 4 differs from character 20:"},
	} {
		wantDiff(t, recorded, write(c.name, c.replayed...), c.name, c.diff)
	}
}

// A long line that differs (a result, whose fingerprints come first) is
// shown around its first difference, not cut before it.
func TestCompareTranscriptsShowsWhereALongLineDiffers(t *testing.T) {
	dir := t.TempDir()
	result := func(score int) string {
		path := filepath.Join(dir, fmt.Sprint(score))
		fp := strings.Repeat("0123456789", 40)
		line := fmt.Sprintf(`{"t":9,"event":"result","data":{"fingerprints":{"a":"sha256:%s"},"seats":[{"bot":"a","score":%d}]}}`, fp, score)
		if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	_, diff, err := CompareTranscripts(result(20), result(21))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(diff, `"score":20}]}`) || !strings.Contains(diff, `"score":21}]}`) || !strings.Contains(diff, "  recorded: …") {
		t.Errorf("the difference is not shown:\n%s", diff)
	}
}

// linesWriter returns a function that writes lines, each ended, to a file
// name in a folder of the test's, and returns its path.
func linesWriter(t *testing.T) func(name string, lines ...string) string {
	dir := t.TempDir()
	return func(name string, lines ...string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
}

// wantDiff compares the transcripts recorded and replayed: the difference
// must begin with diff, or be none when diff is "".
func wantDiff(t *testing.T, recorded, replayed, name, diff string) {
	t.Helper()
	_, got, err := CompareTranscripts(recorded, replayed)
	if err != nil {
		t.Fatal(err)
	}
	if diff == "" && got != "" || diff != "" && !strings.HasPrefix(got, diff) {
		t.Errorf("%s: diff %q, want %q", name, got, diff)
	}
}

// Numbers are compared as written, not as the float64 they parse to: a
// seed or score that differs beyond float64's precision (a uint64 seed's
// last digits) differs, and -0 is not 0; the same number written the
// same does not differ.
func TestCompareTranscriptsNumbersAsWritten(t *testing.T) {
	write := linesWriter(t)
	match := func(seed string) string { return `{"t":0.1,"event":"match","data":{"id":"m","seed":` + seed + `}}` }
	result := func(score string) string {
		return `{"t":9,"event":"result","data":{"match":"m","seats":[{"bot":"a","score":` + score + `,"time_ms":12}]}}`
	}
	recorded := write("a.jsonl", match("18446744073709551615"), result("9007199254740993"))
	for _, c := range []struct {
		name, match, result, diff string
	}{
		{"same", match("18446744073709551615"), result("9007199254740993"), ""},
		{"another seed beyond float64", match("18446744073709551614"), result("9007199254740993"), "line 1 differs"},
		{"another score beyond float64", match("18446744073709551615"), result("9007199254740992"), "line 2 differs"},
	} {
		wantDiff(t, recorded, write(c.name, c.match, c.result), c.name, c.diff)
	}
	wantDiff(t, write("zero", result("0")), write("minus zero", result("-0")), "-0", "line 1 differs")
}

// A match without its recorded transcript compares its replayed result
// with its results.jsonl line as written, and with -allow-changed-bots
// the fingerprints alone are no difference, numbers still compared as
// written.
func TestCompareResultNumbersAsWritten(t *testing.T) {
	write := linesWriter(t)
	line := func(seed, fp string) string {
		return `{"match":"m","round":1,"group":1,"seed":` + seed + `,"seats":[{"bot":"a","score":1,"fault":"","time_ms":3}],"elapsed_ms":5,"fingerprints":{"a":"` + fp + `"}}`
	}
	replayed := write("replayed.jsonl", `{"t":9,"event":"result","data":`+line("18446744073709551615", "sha256:new")+`}`)
	for _, c := range []struct {
		name, recorded string
		diff, refp     bool
	}{
		{"same", line("18446744073709551615", "sha256:new"), false, false},
		{"fingerprints alone", line("18446744073709551615", "sha256:old"), false, true},
		{"another seed beyond float64", line("18446744073709551614", "sha256:new"), true, false},
		{"another seed and fingerprints", line("18446744073709551614", "sha256:old"), true, false},
	} {
		diff, refp, err := compareResult([]byte(c.recorded), replayed, true)
		if err != nil {
			t.Fatal(err)
		}
		if (diff != "") != c.diff || refp != c.refp {
			t.Errorf("%s: diff %q, refingerprinted %v; want a difference %v, refingerprinted %v", c.name, diff, refp, c.diff, c.refp)
		}
	}
	a := write("a.jsonl", `{"t":9,"event":"result","data":`+line("18446744073709551615", "sha256:new")+`}`)
	b := write("b.jsonl", `{"t":9,"event":"result","data":`+line("18446744073709551614", "sha256:old")+`}`)
	if sameButFingerprints(a, b) {
		t.Errorf("transcripts whose seeds differ beyond float64 are the same but for their fingerprints")
	}
}
