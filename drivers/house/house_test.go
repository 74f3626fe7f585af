package house

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// writes records every Write it gets, so a test can see what went out
// together.
type writes struct{ got []string }

func (w *writes) Write(p []byte) (int, error) {
	w.got = append(w.got, string(p))
	return len(p), nil
}

// oneLine hands its lines to Read one at a time, like a referee that waits
// for every answer before it writes the next command.
type oneLine struct{ lines []string }

func (r *oneLine) Read(p []byte) (int, error) {
	if len(r.lines) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.lines[0])
	r.lines = r.lines[1:]
	return n, nil
}

func echo(f []string) (string, error) {
	if f[0] == "refuse" {
		return "", errors.New("no")
	}
	return strings.Join(f, " "), nil
}

// Commands that arrive together are answered in one write; a command that
// arrives alone is answered at once, since the referee is waiting for it.
func TestServeFlushesWhenInputIsDrained(t *testing.T) {
	w := &writes{}
	if err := Serve(strings.NewReader("a 1\n\nrefuse\nb\r\nquit\nnever\n"), w, echo); err != nil {
		t.Fatal(err)
	}
	if want := []string{"= a 1\n\n? no\n\n= b\n\n= quit\n\n"}; !slices.Equal(w.got, want) {
		t.Errorf("commands sent together: writes %q, want %q", w.got, want)
	}
	// A command and an empty line in one read: the answer goes out
	// before Serve waits for more (the next read here ends the input, so
	// a held answer would come after it, in a second write).
	w = &writes{}
	if err := Serve(&oneLine{[]string{"a\n\n  \n", "b\n"}}, w, echo); err != nil {
		t.Fatal(err)
	}
	if want := []string{"= a\n\n", "= b\n\n"}; !slices.Equal(w.got, want) {
		t.Errorf("a command then empty lines: writes %q, want %q", w.got, want)
	}
	// At the end of the input, what was answered is not lost.
	w = &writes{}
	if err := Serve(&oneLine{[]string{"a\n", "b\n\n"}}, w, echo); err != nil {
		t.Fatal(err)
	}
	if want := []string{"= a\n\n", "= b\n\n"}; !slices.Equal(w.got, want) {
		t.Errorf("the input ending after an empty line: writes %q, want %q", w.got, want)
	}
	w = &writes{}
	if err := Serve(&oneLine{[]string{"a\n", "b\n", "c"}}, w, echo); err != nil {
		t.Fatal(err)
	}
	if want := []string{"= a\n\n", "= b\n\n", "= c\n\n"}; !slices.Equal(w.got, want) {
		t.Errorf("commands sent one by one: writes %q, want %q", w.got, want)
	}
}

// A command line may be up to 1 MiB long; a longer one is an error, not a
// truncated command.
func TestServeLongLines(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	var out bytes.Buffer
	if err := Serve(strings.NewReader(long+"\n"), &out, func(f []string) (string, error) { return "len", nil }); err != nil || out.String() != "= len\n\n" {
		t.Errorf("a 1 MiB line: %q, %v", out.String(), err)
	}
	out.Reset()
	if err := Serve(strings.NewReader(long+"x\nquit\n"), &out, echo); err == nil || out.Len() != 0 {
		t.Errorf("a line over 1 MiB: %q, %v", out.String(), err)
	}
}

// TestServeGivesTwoProcessors: a house bot on one CPU (GOMAXPROCS 1, as in
// a pinned worker) serves with two of the runtime's processors, so that
// its blocking reads keep theirs (runtimeProcs); more are left as they
// are.
func TestServeGivesTwoProcessors(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		if err := Serve(strings.NewReader("quit\n"), io.Discard, func([]string) (string, error) { return "", nil }); err != nil {
			t.Fatal(err)
		}
		if got, want := runtime.GOMAXPROCS(0), max(procs, 2); got != want {
			t.Errorf("GOMAXPROCS %d: served with %d, want %d", procs, got, want)
		}
	}
}
