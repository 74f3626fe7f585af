package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"html"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-contests/arbiter/engine"
)

// Server serves the page of a results directory and tells open pages when
// it changes: GET / is the page, GET /events a stream of server-sent
// events (one "site" event with the page's data now, one after every
// change of results.jsonl, and, when the server stops, one with the
// results as they are then if they changed, and a "stopped" event), GET /transcripts/ID.js a match's transcript
// as the page loads it, and GET /transcripts/ID.jsonl its lines as they
// are, with Range requests, as a live page follows a match being played.
type Server struct {
	dir string
	// Poll is how often the directory is looked at.
	Poll time.Duration

	mu      sync.Mutex
	loader  *loader
	site    []byte // the JSON of the last load
	version int
	changed chan struct{} // closed and replaced on every change
	lastErr error
	stamp   string

	// stopping is closed when Serve's context is done, after a last
	// look at the directory.
	stopping chan struct{}

	// loaded, when not nil, is called after every load of the
	// directory, within the time it takes (a test's hook).
	loaded func()

	// loopbackOnly is set when the server listens on a loopback address:
	// it then answers requests for loopback names alone (see
	// loopbackHost).
	loopbackOnly bool
}

// NewServer serves dir, which need not hold results yet: a run may be
// about to start writing it.
func NewServer(dir string) *Server {
	return &Server{dir: dir, Poll: 500 * time.Millisecond, loader: newLoader(dir), changed: make(chan struct{}), stopping: make(chan struct{})}
}

// Listen opens addr and serves until ctx is done; ready, when not nil,
// gets the address it listens on (useful with port 0).
func (s *Server) Listen(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr())
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln, which it closes, until ctx is done. On a loopback
// address it refuses requests whose Host is not a loopback name or
// address: a page of another site, whose name an attacker rebinds to
// 127.0.0.1 (DNS rebinding), could otherwise read the results.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if a, ok := ln.Addr().(*net.TCPAddr); ok && a.IP.IsLoopback() {
		s.loopbackOnly = true
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.watch(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		// The results as they are at the end (those the run wrote since
		// the last look), then the event streams say the server stops.
		s.refresh()
		close(s.stopping)
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	// srv.Serve returns as soon as Shutdown begins: Serve returns once
	// the event streams have said the server stops, which a program that
	// exits at once (run -serve at its end) cut before.
	<-stopped
	return nil
}

// reloadPause is how long, in reloads, the server waits after a
// reload before it looks at the directory again, when that is longer
// than Poll: the results of thousands of matches, read and rated again
// on every change (0.2 s each at 3,200 short Planowanie matches), would
// otherwise take most of a CPU from the run writing them.
const reloadPause = 4

// watch reloads the directory whenever the files the page is made of
// change (stampOf), at most every Poll, and after a reload that took d
// no sooner than reloadPause × d.
func (s *Server) watch(ctx context.Context) {
	for {
		start := time.Now()
		wait := s.Poll
		if s.refresh() {
			wait = max(wait, reloadPause*time.Since(start))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// stampOf identifies the state of the files the page is made of.
func stampOf(dir string) string {
	var b strings.Builder
	for _, name := range []string{engine.PlanFile, engine.ResultsFile, engine.StopFile, engine.ChangesFile, engine.ShardFile} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
			fmt.Fprintf(&b, "%s:%d:%d;", name, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	// The set of match folders, by name (os.ReadDir sorts them): one
	// gone and another come between two looks changes the matches
	// without a result, as a count would not see. What is in a folder is
	// not looked at: the page follows a match being played by its
	// transcript's lines (serveTranscriptLines), and a finished match's
	// files do not change.
	if entries, err := os.ReadDir(filepath.Join(dir, engine.MatchesDir)); err == nil {
		h := fnv.New64a()
		for _, e := range entries {
			io.WriteString(h, e.Name()+"/")
		}
		fmt.Fprintf(&b, "matches:%d:%x;", len(entries), h.Sum64())
	}
	// The stages and rounds paired (read as they are, or made again when
	// their file is missing): a stage file edited or removed changes the
	// page without results.jsonl changing. os.ReadDir sorts by name.
	if entries, err := os.ReadDir(filepath.Join(dir, engine.RoundsDir)); err == nil {
		for _, e := range entries {
			if fi, err := e.Info(); err == nil {
				fmt.Fprintf(&b, "%s/%s:%d:%d;", engine.RoundsDir, e.Name(), fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	return b.String()
}

// refresh reloads the directory when its files changed, and says
// whether it did.
func (s *Server) refresh() bool {
	stamp := stampOf(s.dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	if stamp == s.stamp && (s.site != nil || s.lastErr != nil) {
		return false
	}
	s.stamp = stamp
	site, err := s.loader.load()
	if s.loaded != nil {
		s.loaded()
	}
	if err != nil {
		if s.lastErr == nil || s.lastErr.Error() != err.Error() {
			s.lastErr = err
			s.bump()
		}
		return true
	}
	b, err := json.Marshal(site)
	if err != nil {
		s.lastErr = err
		return true
	}
	// Results readable again tell the pages so, even when they are
	// those the pages show.
	if !bytes.Equal(b, s.site) || s.lastErr != nil {
		s.site = b
		s.lastErr = nil
		s.bump()
	}
	return true
}

func (s *Server) bump() {
	s.version++
	close(s.changed)
	s.changed = make(chan struct{})
}

// current returns the last load, and why the results cannot be read now
// (then the last load, if any, is of results that were readable once).
func (s *Server) current() ([]byte, error, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.site == nil && s.lastErr == nil {
		s.mu.Unlock()
		s.refresh()
		s.mu.Lock()
	}
	return s.site, s.lastErr, s.changed
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.loopbackOnly && !loopbackHost(r.Host) {
		http.Error(w, fmt.Sprintf("arbiter serve listens on a loopback address and answers requests for loopback names alone "+
			"(localhost and names under it, 127.0.0.1, [::1]), not for %q; to serve other names, listen on another address (-addr)", r.Host), http.StatusForbidden)
		return
	}
	switch {
	case r.URL.Path == "/" || r.URL.Path == "/index.html":
		s.servePage(w)
	case r.URL.Path == "/events":
		s.serveEvents(w, r)
	case strings.HasPrefix(r.URL.Path, "/transcripts/") && strings.HasSuffix(r.URL.Path, ".js"):
		s.serveTranscript(w, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/transcripts/"), ".js"))
	case strings.HasPrefix(r.URL.Path, "/transcripts/") && strings.HasSuffix(r.URL.Path, ".jsonl"):
		s.serveTranscriptLines(w, r, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/transcripts/"), ".jsonl"))
	default:
		http.NotFound(w, r)
	}
}

// servePage serves the page, or, when the results cannot be read (not
// yet, or no longer: a line in the middle of results.jsonl that is not a
// result, the directory gone), a page that says why, as report says it,
// and reloads itself: never the last results read as if they were now's.
func (s *Server) servePage(w http.ResponseWriter) {
	b, err, _ := s.current()
	if b == nil || err != nil {
		what, title := "The results cannot be read", "arbiter: the results cannot be read"
		if b == nil && (err == nil || errors.Is(err, fs.ErrNotExist)) {
			what, title = "No results to show yet", "arbiter: waiting for results"
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"1\">"+
			"<title>%s</title></head><body><p id=\"problem\">%s: %s</p><p>This page reloads by itself.</p></body></html>\n",
			title, what, html.EscapeString(fmt.Sprint(err)))
		return
	}
	var site Site
	if err := json.Unmarshal(b, &site); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := render(&buf, &site, transcriptsSource{Folder: "transcripts"}, true); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// serveEvents streams the page's data: now, and after every change; or,
// while the results cannot be read, a "problem" event that says why (the
// page keeps what it shows under it), and the data again when they can.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	var sent []byte
	problem := ""
	for {
		b, err, changed := s.current()
		if err != nil {
			if p := eventLine.Replace(err.Error()); p != problem {
				fmt.Fprintf(w, "event: problem\ndata: %s\n\n", p)
				problem, sent = p, nil
			}
		} else if b != nil && !bytes.Equal(b, sent) {
			fmt.Fprintf(w, "event: site\ndata: %s\n\n", b)
			problem, sent = "", b
		}
		fl.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-s.stopping:
			// The last results first, if the page has not had them.
			if b, err, _ := s.current(); err == nil && b != nil && !bytes.Equal(b, sent) {
				fmt.Fprintf(w, "event: site\ndata: %s\n\n", b)
			}
			fmt.Fprint(w, "event: stopped\ndata: \n\n")
			fl.Flush()
			return
		case <-changed:
		case <-time.After(15 * time.Second):
			fmt.Fprint(w, ": keep-alive\n\n")
		}
	}
}

// eventLine makes a message one line of an event stream, which ends a
// line at a carriage return as at a newline: a file name in the message
// (which may hold either) must not end the data, and begin a field of
// its own (another event type, data the page would take for results).
var eventLine = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ")

func (s *Server) serveTranscript(w http.ResponseWriter, id string) {
	if !safeID(id) {
		http.NotFound(w, nil)
		return
	}
	// A compressed transcript of a match being played ends where the run
	// last flushed it, maybe in a line, which the page skips as it skips
	// a plain transcript's torn last line.
	b, err := readTranscriptSoFar(transcriptPath(s.dir, id))
	if err != nil {
		http.Error(w, "no transcript of match "+id, http.StatusNotFound)
		return
	}
	js, err := transcriptScript(id, b)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(js)
}

// serveTranscriptLines serves a match's transcript as JSON lines, for a
// live page that follows a match being played: with Range requests
// (http.ServeContent), so that each look costs the page what is new
// since the last, not the whole transcript again. A compressed one (run
// -gzip) is served decompressed, its ranges being of the lines, not of
// the file: a gzip stream cannot be read from its middle, so the server
// reads it whole on every request, and the page still gets only what is
// new. No Last-Modified: a transcript grows within a second, which is
// all the precision it has.
func (s *Server) serveTranscriptLines(w http.ResponseWriter, r *http.Request, id string) {
	if !safeID(id) {
		http.NotFound(w, r)
		return
	}
	path := transcriptPath(s.dir, id)
	var content io.ReadSeeker
	if strings.HasSuffix(path, ".gz") {
		b, err := readTranscriptSoFar(path)
		if err != nil {
			http.Error(w, "no transcript of match "+id, http.StatusNotFound)
			return
		}
		content = bytes.NewReader(b)
	} else {
		f, err := os.Open(path)
		if err != nil {
			http.Error(w, "no transcript of match "+id, http.StatusNotFound)
			return
		}
		defer f.Close()
		content = f
	}
	w.Header().Set("Content-Type", "application/jsonl; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	http.ServeContent(w, r, "", time.Time{}, content)
}

// safeID accepts the match ids arbiter makes (r001-g02-s1, playoff-…):
// nothing that could name a file outside the matches folder.
func safeID(id string) bool {
	if id == "" || id == "." || id == ".." || len(id) > 200 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// loopbackHost says whether a request's Host names the machine itself:
// localhost or a name under it (RFC 6761: browsers answer those with
// loopback themselves, and none is in the DNS an attacker could rebind),
// or a loopback address (127.0.0.0/8, ::1), with any port. A request
// without a Host (HTTP/1.0) is not a browser's, which always sends one,
// and is answered too.
func loopbackHost(host string) bool {
	if host == "" {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "localhost" || strings.HasSuffix(name, ".localhost") && !strings.HasPrefix(name, ".") && !strings.Contains(name, "..") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
