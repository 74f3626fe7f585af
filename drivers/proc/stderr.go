package proc

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// A bot's stderr goes through a pipe that the arbiter drains into a file.
// The pipe is drained to the bot's end whatever happens to the file: over
// its cap (MaxStderr) or once the file cannot be written (a full disk, a
// quota, RLIMIT_FSIZE), the rest is read and dropped. Closing the pipe
// instead would hand the bot EPIPE or SIGPIPE on its next write to
// stderr, and the bot would be judged for the arbiter's own failure.
//
// A file that could not be written is the machine's failure, not the
// bot's: it is told to the handler that StderrFailures put in the
// context the bot was started with (Start, RunOnce), and RunOnce returns
// it as its error.

type stderrFailuresKey struct{}

// StderrFailures returns a context whose sessions and per-move runs call
// failed, from any goroutine, with the error of a stderr file they could
// not write. The caller (the engine, for a match) decides what a match
// whose records are incomplete is worth: it must not be judged on it.
func StderrFailures(ctx context.Context, failed func(error)) context.Context {
	return context.WithValue(ctx, stderrFailuresKey{}, failed)
}

func stderrFailed(ctx context.Context) func(error) {
	if ctx == nil {
		return nil
	}
	f, _ := ctx.Value(stderrFailuresKey{}).(func(error))
	return f
}

// stderrLostNotices is where a session without a StderrFailures handler
// (check, console) says that a bot's stderr file could not be written.
var stderrLostNotices io.Writer = os.Stderr

// stderrCutPrefix begins StderrCutNote.
const stderrCutPrefix = "[arbiter: stderr truncated at "

// StderrCutNote is the line the arbiter ends a bot's stderr file with
// when the bot wrote more than the file's cap of max bytes: the rest was
// dropped, so the line before it is not the bot's last.
func StderrCutNote(max int64) string {
	return fmt.Sprintf("%s%d bytes]", stderrCutPrefix, max)
}

// IsStderrCutNote reports whether line (without its newline) is a
// StderrCutNote, of any cap.
func IsStderrCutNote(line string) bool {
	rest, ok := strings.CutPrefix(line, stderrCutPrefix)
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(rest, " bytes]"), 10, 64)
	return err == nil && line == StderrCutNote(n)
}

// stderrSink is where a bot's stderr pipe is drained to: the file, up to
// max bytes, then a note that it was cut; never an error to the pipe.
type stderrSink struct {
	f      *os.File
	max    int64
	left   int64
	full   bool
	failed func(error) // may be nil

	mu  sync.Mutex
	err error // the first error writing or closing f

	// written is how many bytes the sink wrote to f so far.
	written atomic.Int64
}

// Written is how many bytes the sink wrote to its file so far (the file
// held max-left bytes before): where the bot's next output will go.
func (w *stderrSink) Written() int64 { return w.written.Load() }

func (w *stderrSink) Write(p []byte) (int, error) {
	if w.err != nil || w.full {
		return len(p), nil
	}
	b := p
	if int64(len(b)) > w.left {
		b = b[:w.left]
	}
	n, err := w.f.Write(b)
	w.left -= int64(n)
	w.written.Add(int64(n))
	if err == nil && len(b) < len(p) {
		w.full = true
		n, err = fmt.Fprintf(w.f, "\n%s\n", StderrCutNote(w.max))
		w.written.Add(int64(n))
	}
	w.fail(err)
	return len(p), nil
}

func (w *stderrSink) fail(err error) {
	if err == nil {
		return
	}
	w.mu.Lock()
	first := w.err == nil
	if first {
		w.err = err
	}
	w.mu.Unlock()
	// At once, not when the bot ends: the match can be stopped now.
	if first && w.failed != nil {
		w.failed(err)
	}
}

// Err is the first error writing or closing the file.
func (w *stderrSink) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// drainStderr copies the pipe r into w's file until every writer of the
// pipe has closed it, then closes both and closes done.
func drainStderr(r *os.File, w *stderrSink, done chan struct{}) {
	defer close(done)
	defer r.Close()
	// The sink takes everything; an error here is the pipe's own.
	_, _ = io.Copy(w, r)
	w.fail(w.f.Close())
}

// newStderrSink drains into f, which holds max-left bytes already, up to
// max bytes; failed (may be nil) hears of the first error writing f.
func newStderrSink(f *os.File, max, left int64, failed func(error)) *stderrSink {
	return &stderrSink{f: f, max: max, left: left, failed: failed}
}

// stderrFailure is how a bot's failed stderr file is told: naming the bot
// and, through the file's error, the file.
func stderrFailure(bot string, err error) error {
	return fmt.Errorf("cannot keep the stderr of bot %s (%w); the match is not judged", bot, err)
}
