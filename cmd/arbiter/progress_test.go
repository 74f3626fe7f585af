package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// A terminal that reports no size (a pty of script(1) without stty rows)
// gets log lines, not a bar that would draw nothing; one with a size, the
// bar; a file, log lines.
func TestBarOnlyOnASizedTerminal(t *testing.T) {
	_, pts := proctest.PTY(t)
	for _, tt := range []struct {
		rows, cols uint16
		bar        bool
	}{{0, 0, false}, {0, 150, false}, {40, 150, true}} {
		if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: tt.rows, Col: tt.cols}); err != nil {
			t.Fatal(err)
		}
		if got := barTerminal(int(pts.Fd())); got != tt.bar {
			t.Errorf("%d rows, %d columns: bar %v, want %v", tt.rows, tt.cols, got, tt.bar)
		}
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if barTerminal(int(f.Fd())) {
		t.Error("a file gets a bar")
	}
}

// TestBarOnATerminalRun runs a tournament with a bot that crashes in
// every match, its stdout and stderr a terminal that reports its size:
// the bar is drawn while the matches play (some done, some running), and
// the bot's fault is told above it as it happens, both before the
// standings. Before, mpb was handed arbiter's wrapper of the terminal,
// not the terminal, and drew nothing until the end, nor let the log
// lines through.
func TestBarOnATerminalRun(t *testing.T) {
	t.Parallel()
	ptm, pts := proctest.PTY(t)
	cmd, _ := crashRun(t, pts)
	var screen bytes.Buffer
	read := make(chan struct{})
	go func() { // what reaches the terminal, until its last writer closes it
		defer close(read)
		_, _ = io.Copy(&screen, ptm)
	}()
	runErr := cmd.Run()
	pts.Close()
	<-read
	shown := strings.ReplaceAll(screen.String(), "\r", "\n")
	if runErr != nil {
		t.Fatalf("run: %v\n%s", runErr, shown)
	}
	end := strings.Index(shown, "match(es) played")
	if end < 0 {
		t.Fatalf("no standings on the terminal:\n%s", shown)
	}
	during := shown[:end]
	frame := regexp.MustCompile(`matches [0-7]/8  running [01] \[`)
	fault := strings.Index(during, "[WARN]  arbiter.engine: bot fault: match=r001-g01-s1 seat=3 bot=d fault=crash")
	switch {
	case !frame.MatchString(during):
		t.Errorf("no bar drawn while the matches played:\n%s", shown)
	case fault < 0:
		t.Errorf("no bot fault told before the standings:\n%s", shown)
	case !frame.MatchString(during[:fault]) || !frame.MatchString(during[fault:]):
		t.Errorf("the bot fault is not told while the bar is drawn, between its frames:\n%s", shown)
	}
}

// TestBarTerminalLost closes the terminal a run draws its bar on once
// the bar is drawn: the run plays on to its end and exits 0, and
// arbiter.log notes the terminal lost, though mpb, not arbiter's
// wrapper, is what writes the bar to it.
func TestBarTerminalLost(t *testing.T) {
	t.Parallel()
	ptm, pts := proctest.PTY(t)
	cmd, out := crashRun(t, pts)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var screen bytes.Buffer
	buf := make([]byte, 4096)
	for !strings.Contains(screen.String(), "matches 0/8") {
		n, err := ptm.Read(buf)
		if err != nil {
			t.Fatalf("the terminal ended (%v) before the bar was drawn:\n%s", err, &screen)
		}
		screen.Write(buf[:n])
	}
	ptm.Close()
	var runErr error
	select {
	case runErr = <-exited:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatal("the run did not end with its terminal gone")
	}
	log, err := os.ReadFile(filepath.Join(out, engine.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if runErr != nil || lines(filepath.Join(out, engine.ResultsFile)) != 8 {
		t.Errorf("the run ended with %v, %d of 8 results:\n%s", runErr, lines(filepath.Join(out, engine.ResultsFile)), log)
	}
	if !strings.Contains(string(log), "[WARN]  arbiter: the terminal cannot be written: the run goes on, its log in arbiter.log alone: error=") {
		t.Errorf("arbiter.log does not note the terminal lost:\n%s", log)
	}
}

// crashRun is a run of 8 matches at -j 1, which take 0.3 s each: bot d
// crashes in every one of them. Its stdout and stderr are pts, 40 rows
// of 120 columns; out is its results folder.
func crashRun(t *testing.T, pts *os.File) (cmd *exec.Cmd, out string) {
	t.Helper()
	if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 120}); err != nil {
		t.Fatal(err)
	}
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("bar-%d-%d", os.Getpid(), time.Now().UnixNano())
	cfg := fmt.Sprintf(resumeConfig, mark)
	for from, to := range map[string]string{
		"bot \"d\" {\n  house = \"planowanie/greedy\"": `bot "d" {
  command = ["/bin/sh", "-c", "sleep 0.3; exit 3"]`,
		"rounds  = 8": "rounds  = 2",
	} {
		if !strings.Contains(cfg, from) {
			t.Fatalf("resumeConfig has no %q", from)
		}
		cfg = strings.Replace(cfg, from, to, 1)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(dir, "out")
	cmd = exec.Command(arbiter, "run", dir, "-out", out, "-j", "1", "-pin=false")
	cmd.Stdout, cmd.Stderr = pts, pts
	return cmd, out
}

// TestBarTerminalLostBeforeBegin: a terminal lost while the run gets
// ready (a log line drawn on it before the first match) ends mpb; Begin
// then has no bar to add, and the run must go on without one rather than
// panic.
func TestBarTerminalLostBeforeBegin(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // every write fails: EPIPE
	defer w.Close()
	term := &lostOut{w: w, name: "the terminal", then: "the run goes on"}
	bar := newBarProgress(w, term)
	bar.Write([]byte("a line before the run begins\n"))
	deadline := time.Now().Add(time.Minute)
	gone := func() bool {
		term.mu.Lock()
		defer term.mu.Unlock()
		return term.err != nil
	}
	for !gone() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !gone() {
		t.Fatal("the lost terminal was not noted")
	}
	bar.Begin(8, 0)
	bar.More(2, 0)
	bar.Finished(nil, nil)
	bar.Wait()
}
