package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/internal/report"
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
	if *out == "" {
		*out = filepath.Join(pos[0], "report.html")
	}
	w, err := report.Write(pos[0], *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote %s (%s, %d matches)", w.Page, size(w.Bytes), len(w.Site.Matches))
	if w.Folder != "" {
		fmt.Fprintf(stdout, "; transcripts in %s (%s), keep them beside the page", w.Folder, size(w.FolderBytes))
	}
	fmt.Fprintln(stdout, ".")
	for _, s := range w.Site.Skipped {
		fmt.Fprintf(stderr, "skipped: %s\n", s)
	}
	return nil
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

// startServe serves the results page of dir on addr while a run writes
// it; the returned function stops the server and waits for it.
func startServe(ctx context.Context, dir, addr string, log hclog.Logger) (func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	ready := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := report.NewServer(dir).Listen(ctx, addr, func(a net.Addr) {
			log.Info("serving the results page", "url", "http://"+a.String()+"/")
			ready <- nil
		})
		if err != nil {
			ready <- err
		}
	}()
	if err := <-ready; err != nil {
		cancel()
		return nil, fmt.Errorf("-serve %s: %w", addr, err)
	}
	return func() { cancel(); <-done }, nil
}
