package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/report"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

func cmdReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", stderr)
	out := fs.String("o", "", "the HTML file to write (default DIR/report.html)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("give one results directory (written by arbiter run -out DIR)")
	}
	inDir := *out == ""
	if inDir {
		*out = filepath.Join(pos[0], "report.html")
	} else if err := checkReportOut(pos[0], *out); err != nil {
		return err
	}
	w, err := report.Write(pos[0], *out)
	if err != nil {
		return reportRefusal(err, *out, inDir)
	}
	// The paths quoted for the shell (shell.Word), as the lock's message
	// quotes its holder's command line: a line break in one would read as
	// the end of the message.
	fmt.Fprintf(stdout, "Wrote %s (%s, %d matches)", shell.Word(w.Page), size(w.Bytes), len(w.Site.Matches))
	if w.Folder != "" {
		fmt.Fprintf(stdout, "; transcripts in %s (%s), keep them beside the page", shell.Word(w.Folder), size(w.FolderBytes))
	}
	fmt.Fprintln(stdout, ".")
	for _, s := range w.Site.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", s)
	}
	for _, s := range w.Site.Skipped {
		fmt.Fprintf(stderr, "skipped: %s\n", s)
	}
	return nil
}

// checkReportOut refuses a page named by a folder, and one that would
// be written over, or among, the files of the results directory it
// shows, which arbiter reads (-o DIR/plan.json made the plan a page and
// the directory unreadable): there the page is an .html file outside
// its matches and rounds folders, such as the default DIR/report.html.
func checkReportOut(dir, out string) error {
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return fmt.Errorf("-o %s is a folder: the page is one file; name it, such as %s",
			shell.Word(out), shell.Word(filepath.Join(out, "report.html")))
	}
	real, err1 := realAbs(dir)
	page, err2 := realAbsToBe(filepath.Dir(out))
	if err1 != nil || err2 != nil {
		return nil
	}
	page = filepath.Join(page, filepath.Base(out))
	if !within(page, real) {
		return nil
	}
	rel, _ := filepath.Rel(real, page)
	top, _, _ := strings.Cut(rel, string(filepath.Separator))
	ext := strings.ToLower(filepath.Ext(page))
	if (ext == ".html" || ext == ".htm") && top != engine.MatchesDir && top != engine.RoundsDir {
		return nil
	}
	return fmt.Errorf("-o %s is inside the results directory %s, among the files arbiter reads and writes there (its plan, results, logs, matches and rounds): "+
		"name an .html file outside its %s and %s folders, such as %s (the default), or a file elsewhere",
		shell.Word(out), shell.Word(dir), engine.MatchesDir, engine.RoundsDir, shell.Word(filepath.Join(dir, "report.html")))
}

// reportRefusal is err, of report.Write making the page out: a refusal
// says whose the file or folder is when another user's (OwnerHint: a
// results directory of root's, which this user may read but not write
// in), and, of the default page (inDir) or its transcripts refused, that
// -o writes them elsewhere; not of a file of the directory the page is
// made of (plan.json of 0600), which -o does not help read.
func reportRefusal(err error, out string, inDir bool) error {
	var pe *iofs.PathError
	if inDir && errors.Is(err, iofs.ErrPermission) && errors.As(err, &pe) && strings.HasPrefix(pe.Path, strings.TrimSuffix(out, filepath.Ext(out))) {
		return fmt.Errorf("%w; or write the page elsewhere (-o FILE)", engine.OwnerHint(err))
	}
	return engine.OwnerHint(err)
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func cmdServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (loopback unless told otherwise)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("give one results directory (written by arbiter run -out DIR)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return report.NewServer(pos[0]).Listen(ctx, *addr, func(a net.Addr) {
		fmt.Fprintf(stdout, "Serving %s on http://%s/ (Ctrl-C stops).\n", pos[0], a)
	})
}

// startServe serves the results page of dir on ln (see listenServe) while a run writes
// it; the returned function stops the server and waits for it. Only that
// function stops it, not ctx (the run's, which a signal cancels at
// once): the server's last look at dir, whose results the open pages get
// before they are told it stops, is to come after the run has written
// all it leaves there.
func startServe(ctx context.Context, dir string, ln net.Listener, log hclog.Logger) func() {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	log.Info("serving the results page", "url", "http://"+ln.Addr().String()+"/")
	go func() {
		defer close(done)
		if err := report.NewServer(dir).Serve(ctx, ln); err != nil {
			log.Error("serving the results page", "error", err)
		}
	}()
	return func() { cancel(); <-done }
}

// listenServe opens run -serve's address before the run creates or
// touches its results directory: an address in use fails the command
// with nothing made. startServe's server closes it; a run that fails
// before it closes it by exiting. addr "" (no -serve) opens nothing.
func listenServe(addr string) (net.Listener, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-serve %s: %w", addr, err)
	}
	return ln, nil
}
