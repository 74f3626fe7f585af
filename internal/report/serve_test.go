package report

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/engine"
)

// TestServeCompressedTranscriptBeingWritten: serve hands the page what a
// compressed transcript of a match being played holds so far (a gzip
// stream flushed but not ended, its last line torn), as it does with a
// plain one, instead of refusing it.
func TestServeCompressedTranscriptBeingWritten(t *testing.T) {
	dir := t.TempDir()
	match := filepath.Join(dir, "matches", "r001-g01-s1")
	if err := os.MkdirAll(match, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(`{"t":0,"event":"match","data":{"id":"r001-g01-s1"}}` + "\n" + `{"t":1,"seat":0,"se`))
	zw.Flush() // as the run does while a match is played; no Close
	if err := os.WriteFile(filepath.Join(match, "events.jsonl.gz"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	NewServer(dir).ServeHTTP(rec, httptest.NewRequest("GET", "/transcripts/r001-g01-s1.js", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "arbiterTranscript") {
		t.Fatalf("GET the transcript of a match being played: %d %.200q", rec.Code, rec.Body.String())
	}
}

// TestServeResultsGoneBad: when results.jsonl becomes unreadable (a line
// in the middle that is not a result, which report and rank refuse) or
// the directory goes, a page loaded then says so with report's message,
// instead of the last results it read; so does the events stream of a
// page that was open, and the results come back when the file does.
func TestServeResultsGoneBad(t *testing.T) {
	dir := copyResults(t, "planowanie")
	s := NewServer(dir)
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	if code, _ := get("/"); code != http.StatusOK {
		t.Fatalf("GET / of good results: %d", code)
	}
	results := filepath.Join(dir, engine.ResultsFile)
	good, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(results, append([]byte("{\"match\":\"torn\n"), good...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, readErr := engine.ReadDir(dir)
	if readErr == nil || !strings.Contains(readErr.Error(), "line 1 is not a result") {
		t.Fatalf("engine.ReadDir of the broken results: %v", readErr)
	}
	s.refresh()
	code, body := get("/")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, html.EscapeString(readErr.Error())) {
		t.Errorf("GET / of results gone bad: %d, want 503 saying %q:\n%.600s", code, readErr, body)
	}
	if ev := firstEvent(t, s); !strings.HasPrefix(ev, "event: problem\ndata: ") || !strings.Contains(ev, readErr.Error()) {
		t.Errorf("the events of results gone bad begin with %q, want the problem", ev)
	}
	// Good again: the page and a site event.
	if err := os.WriteFile(results, good, 0o644); err != nil {
		t.Fatal(err)
	}
	s.refresh()
	if code, _ := get("/"); code != http.StatusOK {
		t.Errorf("GET / of results good again: %d", code)
	}
	if ev := firstEvent(t, s); !strings.HasPrefix(ev, "event: site\n") {
		t.Errorf("the events of results good again begin with %.100q", ev)
	}
	// The directory gone.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	s.refresh()
	if code, body := get("/"); code != http.StatusServiceUnavailable || !strings.Contains(body, "plan.json") {
		t.Errorf("GET / of a directory gone: %d\n%.600s", code, body)
	}
}

// firstEvent reads the first server-sent event of s's /events.
func firstEvent(t *testing.T, s *Server) string {
	t.Helper()
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/events", nil)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	ev, err := readEvent(bufio.NewReader(resp.Body))
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// readEvent reads the next server-sent event of an /events stream.
func readEvent(r *bufio.Reader) (string, error) {
	var ev strings.Builder
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return ev.String(), fmt.Errorf("reading /events: %v (so far %q)", err, ev.String())
		}
		if line == "\n" && ev.Len() > 0 {
			return ev.String(), nil
		}
		ev.WriteString(line)
	}
}

// TestServeLoopbackHost: a server on a loopback address answers requests
// for loopback names alone, so that a page of another site whose name
// was rebound to 127.0.0.1 cannot read it; a server on every interface
// answers any name, as before.
func TestServeLoopbackHost(t *testing.T) {
	dir := copyResults(t, "planowanie")
	get := func(addr, host string) (int, string) {
		t.Helper()
		req, err := http.NewRequest("GET", "http://"+addr+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	serve := func(addr string) string {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); NewServer(dir).Serve(ctx, ln) }()
		t.Cleanup(func() { cancel(); <-done })
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		return port
	}
	port := serve("127.0.0.1:0")
	addr := "127.0.0.1:" + port
	// Names under localhost. are the machine's too (RFC 6761: browsers
	// answer them with loopback themselves, and no one may register one).
	for _, host := range []string{addr, "localhost:" + port, "LocalHost", "localhost.:" + port, "127.0.0.1", "127.0.0.2:" + port, "[::1]:" + port, "[::1]",
		"arbiter.localhost:" + port, "Results.Arbiter.LOCALHOST.:" + port} {
		if code, body := get(addr, host); code != http.StatusOK {
			t.Errorf("Host %s: %d %.200s", host, code, body)
		}
	}
	for _, host := range []string{"attacker.example:" + port, "attacker.example", "localhost.attacker.example", "10.0.0.1:" + port, "127.0.0.1.nip.io",
		"attacker-localhost:" + port, ".localhost", "localhost..:" + port} {
		if code, body := get(addr, host); code != http.StatusForbidden || !strings.Contains(body, "loopback") {
			t.Errorf("Host %s: %d %.200s; want 403 saying the server answers loopback names alone", host, code, body)
		}
	}
	// A request without a Host (HTTP/1.0; a browser always sends one, so
	// no page of another site makes it) is answered.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "GET / HTTP/1.0\r\n\r\n")
	if status, err := bufio.NewReader(conn).ReadString('\n'); err != nil || !strings.Contains(status, " 200 ") {
		t.Errorf("a request without a Host: %q %v", status, err)
	}
	// Every interface: any name, as before.
	port = serve("0.0.0.0:0")
	if code, body := get("127.0.0.1:"+port, "results.example:"+port); code != http.StatusOK {
		t.Errorf("a server on every interface, Host results.example: %d %.200s", code, body)
	}
}

// TestServeProblemOneEvent: a problem whose message holds a carriage
// return (here from the directory's name; a file name may hold any
// byte) is one "problem" event: the stream ends a field's line at a
// carriage return as at a newline, and what follows it must not become
// a field of its own (an event of another type, data the page takes for
// results).
func TestServeProblemOneEvent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\revent: site\rdata: {}\r")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "planowanie"))); err != nil {
		t.Skipf("a directory whose name holds a carriage return: %v", err)
	}
	results := filepath.Join(dir, engine.ResultsFile)
	good, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(results, append([]byte("{\"match\":\"torn\n"), good...), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := firstEvent(t, NewServer(dir))
	fields := strings.FieldsFunc(ev, func(r rune) bool { return r == '\r' || r == '\n' })
	if len(fields) != 2 || fields[0] != "event: problem" || !strings.HasPrefix(fields[1], "data: ") || !strings.Contains(fields[1], "line 1 is not a result") {
		t.Errorf("the first event is %q, want one problem event: an event line and one data line", ev)
	}
}

// TestServeResultBeingWritten: a result the run is writing (the last
// line of results.jsonl torn, with or without its newline yet) is no
// problem: the page and the events show the results before it.
func TestServeResultBeingWritten(t *testing.T) {
	for name, torn := range map[string]string{"no newline": `{"match":"r001-g01-s2","round":1,"se`, "newline": "{\"match\":\"r001\n"} {
		t.Run(name, func(t *testing.T) {
			dir := copyResults(t, "planowanie")
			f, err := os.OpenFile(filepath.Join(dir, engine.ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(torn)
			f.Close()
			s := NewServer(dir)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			if rec.Code != http.StatusOK {
				t.Errorf("GET / with a result being written: %d %.300s", rec.Code, rec.Body.String())
			}
			if ev := firstEvent(t, s); !strings.HasPrefix(ev, "event: site\n") {
				t.Errorf("the events with a result being written begin with %.200q", ev)
			}
		})
	}
}

// TestServeTranscriptLines: a live page follows a match being played by
// asking for the lines after those it has: serve answers Range requests
// for a transcript's lines, with their bytes alone, and says how long the
// lines are when the range starts past their end (the transcript
// begun again, shorter). A compressed transcript's ranges are of its
// lines, decompressed, as far as its stream goes.
func TestServeTranscriptLines(t *testing.T) {
	text := `{"t":0,"event":"match","data":{"id":"r001-g01-s1"}}` + "\n" + `{"t":1,"seat":0,"send":"x"}` + "\n" + `{"t":2,"seat":0,"re`
	for _, compressed := range []bool{false, true} {
		t.Run(fmt.Sprintf("compressed=%v", compressed), func(t *testing.T) {
			dir := t.TempDir()
			match := filepath.Join(dir, "matches", "r001-g01-s1")
			if err := os.MkdirAll(match, 0o755); err != nil {
				t.Fatal(err)
			}
			name, b := "events.jsonl", []byte(text)
			if compressed {
				var buf bytes.Buffer
				zw := gzip.NewWriter(&buf)
				zw.Write(b)
				zw.Flush() // being written: no Close
				name, b = "events.jsonl.gz", buf.Bytes()
			}
			if err := os.WriteFile(filepath.Join(match, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
			s := NewServer(dir)
			get := func(rng string) *httptest.ResponseRecorder {
				req := httptest.NewRequest("GET", "/transcripts/r001-g01-s1.jsonl", nil)
				if rng != "" {
					req.Header.Set("Range", rng)
				}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				return rec
			}
			if rec := get(""); rec.Code != http.StatusOK || rec.Body.String() != text {
				t.Errorf("GET the lines: %d %q, want 200 %q", rec.Code, rec.Body.String(), text)
			}
			from := strings.Index(text, "\n") // the byte before the second line
			rec := get(fmt.Sprintf("bytes=%d-", from))
			wantRange := fmt.Sprintf("bytes %d-%d/%d", from, len(text)-1, len(text))
			if rec.Code != http.StatusPartialContent || rec.Body.String() != text[from:] || rec.Header().Get("Content-Range") != wantRange {
				t.Errorf("GET the lines from byte %d: %d %q (Content-Range %q), want 206 %q (%q)",
					from, rec.Code, rec.Body.String(), rec.Header().Get("Content-Range"), text[from:], wantRange)
			}
			rec = get(fmt.Sprintf("bytes=%d-", len(text)+10))
			if want := fmt.Sprintf("bytes */%d", len(text)); rec.Code != http.StatusRequestedRangeNotSatisfiable || rec.Header().Get("Content-Range") != want {
				t.Errorf("GET the lines past their end: %d (Content-Range %q), want 416 (%q)", rec.Code, rec.Header().Get("Content-Range"), want)
			}
			if rec := get(""); rec.Header().Get("Cache-Control") != "no-store" {
				t.Errorf("the lines of a match being played may be cached: Cache-Control %q", rec.Header().Get("Cache-Control"))
			}
		})
	}
	rec := httptest.NewRecorder()
	NewServer(t.TempDir()).ServeHTTP(rec, httptest.NewRequest("GET", "/transcripts/r009-g01-s1.jsonl", nil))
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "no transcript of match r009-g01-s1") {
		t.Errorf("GET the lines of a match without a transcript: %d %q", rec.Code, rec.Body.String())
	}
}

// TestServeStageFileChanged: a stage file edited (its size kept), put
// back, then removed, changes the page although results.jsonl does not:
// after each change the server holds what the directory reads as now
// (its error, or the warnings of its stage files).
func TestServeStageFileChanged(t *testing.T) {
	dir := copyResults(t, "staged")
	s := NewServer(dir)
	// served is what the server holds after it looked at dir.
	served := func() ([]string, error) {
		s.refresh()
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.lastErr != nil {
			return nil, s.lastErr
		}
		var site Site
		if err := json.Unmarshal(s.site, &site); err != nil {
			t.Fatal(err)
		}
		return site.Warnings, nil
	}
	check := func(what string) error {
		t.Helper()
		got, gotErr := served()
		site, err := Load(dir)
		var want []string
		if err == nil {
			want = site.Warnings
		}
		if !slices.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(err) {
			t.Fatalf("%s: the server holds warnings %q (error %v), but the directory reads as %q (error %v)", what, got, gotErr, want, err)
		}
		return err
	}
	if err := check("the results as they are"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, engine.RoundsDir, "stage-final.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `"round": 0,`, `"round": x,`, 1)
	if edited == string(b) {
		t.Fatalf("%s has not the line this test edits", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	write := func(content string, at time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	write(edited, fi.ModTime().Add(time.Minute))
	if err := check("the stage file edited, not JSON"); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("the stage file edited, not JSON: %v", err)
	}
	write(string(b), fi.ModTime().Add(2*time.Minute))
	if err := check("the stage file put back"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	check("the stage file removed")
}

// TestServeReloadPause: while the results change all the time (a run
// of thousands of short matches), a reload that takes long is followed
// by a pause of reloadPause times as long before the next, not by Poll:
// the server reloaded, and rated again, back to back, taking a CPU from
// the run. The load is made slower by the test's hook, within the time
// the server measures; timers never fire early, so the gaps hold on a
// loaded machine too.
func TestServeReloadPause(t *testing.T) {
	dir := copyResults(t, "planowanie")
	results := filepath.Join(dir, engine.ResultsFile)
	const slow = 40 * time.Millisecond
	s := NewServer(dir)
	s.Poll = 5 * time.Millisecond
	var mu sync.Mutex
	var ends []time.Time
	s.loaded = func() {
		time.Sleep(slow)
		mu.Lock()
		ends = append(ends, time.Now())
		mu.Unlock()
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.watch(ctx) }()
	// The results change every few milliseconds, as in a run.
	at := time.Now()
	for deadline := time.Now().Add(1500 * time.Millisecond); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		at = at.Add(time.Second)
		if err := os.Chtimes(results, at, at); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(ends) < 3 {
		t.Fatalf("%d reloads in 1.5 s of results changing", len(ends))
	}
	// Between the ends of two reloads: the pause after the first, at
	// least reloadPause × slow, and the second, at least slow.
	for i := 1; i < len(ends); i++ {
		if gap := ends[i].Sub(ends[i-1]); gap < (reloadPause+1)*slow {
			t.Errorf("reloads %d and %d ended %v apart; a reload of %v or more is followed by a pause of %d times as long", i, i+1, gap, slow, reloadPause)
		}
	}
}

// TestServeStopped: when the server stops (run -serve at the end of the
// run), an open page gets the results as they are then, which it had
// not had yet (the watcher had not looked since they changed), and a
// "stopped" event; the stream ended without either, and the page went
// on saying it was live, reconnecting.
func TestServeStopped(t *testing.T) {
	dir := copyResults(t, "planowanie")
	s := NewServer(dir)
	s.Poll = time.Hour // no look at the directory but the first and the last
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	if ev, err := readEvent(r); err != nil || !strings.HasPrefix(ev, "event: site\n") {
		t.Fatalf("the first event is %.100q (%v)", ev, err)
	}
	// Results the page has not had (as a run's last).
	editFile(t, filepath.Join(dir, engine.ResultsFile), func(s string) string {
		return regexp.MustCompile(`"elapsed_ms":\d+`).ReplaceAllString(s, `"elapsed_ms":987654`)
	})
	cancel()
	ev, err := readEvent(r)
	if err != nil || !strings.HasPrefix(ev, "event: site\n") || !strings.Contains(ev, `"elapsed_ms":987654`) {
		t.Errorf("the event after the server stops is %.100q (%v), want the last results", ev, err)
	}
	if ev, err := readEvent(r); err != nil || ev != "event: stopped\ndata: \n" {
		t.Errorf("then %.100q (%v), want the stopped event", ev, err)
	}
}

// TestServeMatchFoldersReplaced: the server sees the set of match
// folders change when one goes and another comes between two looks (a
// cut-off match's folder removed as another match starts): it counted
// them, and kept listing the gone one as without a result, and not the
// new one.
func TestServeMatchFoldersReplaced(t *testing.T) {
	dir := runningCopy(t, 50)
	s := NewServer(dir)
	running := func() []string {
		t.Helper()
		s.refresh()
		s.mu.Lock()
		defer s.mu.Unlock()
		var site Site
		if err := json.Unmarshal(s.site, &site); err != nil {
			t.Fatal(err, s.lastErr)
		}
		return site.Running
	}
	if got := running(); !slices.Equal(got, []string{"r001-g01-s9"}) {
		t.Fatalf("running %q, want the match being played", got)
	}
	matches := filepath.Join(dir, engine.MatchesDir)
	if err := os.Rename(filepath.Join(matches, "r001-g01-s9"), filepath.Join(matches, "r001-g01-s8")); err != nil {
		t.Fatal(err)
	}
	if got := running(); !slices.Equal(got, []string{"r001-g01-s8"}) {
		t.Fatalf("after r001-g01-s9's folder went and r001-g01-s8's came, the server lists %q without a result", got)
	}
}
