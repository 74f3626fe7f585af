package proc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// A program named without a slash is looked up on PATH, not in the bot's
// folder: when the folder holds it, the start fault says to name it with
// "./", bare or in the sandbox, for a session and for a per-move run.
func TestStartFaultSaysDotSlash(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const prog = "arbiter-test-prog-here"
	if err := os.WriteFile(filepath.Join(dir, prog), []byte("#!/bin/sh\necho 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := `write "./` + prog + `" in its command`
	for _, tc := range []struct {
		name string
		lim  drivers.Limits
	}{{"bare", drivers.Limits{}}, {"sandbox", drivers.Limits{Sandbox: &drivers.Sandbox{}}}} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Start(context.Background(), Spec{Bot: "b", Argv: []string{prog}, Dir: dir, Limits: tc.lim})
			var f *Fault
			if !errors.As(err, &f) || f.Kind != drivers.FaultStart || !strings.Contains(f.Detail, want) {
				t.Errorf("Start = %v, want a start fault that says to %s", err, want)
			}
			r, err := RunOnce(context.Background(), OnceSpec{Bot: "b", Argv: []string{prog}, Dir: dir, Limits: tc.lim})
			if err != nil || r.Fault == nil || r.Fault.Kind != drivers.FaultStart || !strings.Contains(r.Fault.Detail, want) {
				t.Errorf("RunOnce = %+v, %v, want a start fault that says to %s", r.Fault, err, want)
			}
		})
	}
}

// A script whose "#!" interpreter is missing fails to start with "no
// such file or directory", of the interpreter, not of the script: the
// start fault says which interpreter, on which line, and that a "\r" at
// its end is the file's Windows line endings (a script with no "#!"
// line at all, or one after a byte order mark, how to mend it); a "\r"
// given to an interpreter that exists (the env form, which would exit
// 127) is a start fault that says so too; bare and in the sandbox,
// for a session and for a per-move run (and through the shim:
// TestHostileThroughShim runs it again).
func TestStartFaultNamesMissingInterpreter(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"crlf":    "#!/bin/sh\r\nread b\r\necho OK\r\n",
		"missing": "#!/nonexistent/interp -x\nread b\n",
		"bare.py": "import sys\nprint('OK')\n",
		"crenv":   "#!/usr/bin/env sh\r\nread b\r\necho OK\r\n",
		"bom":     "\xEF\xBB\xBF#!/bin/sh\nread b\necho OK\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("crenv", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, prog := range []struct{ name, want string }{
		{"crlf", `cannot start ./crlf: its interpreter "/bin/sh\r" (line 1 of ./crlf) does not exist: the file has Windows line endings (CRLF); convert it (dos2unix ./crlf)`},
		{"missing", `cannot start ./missing: its interpreter /nonexistent/interp (line 1 of ./missing) does not exist`},
		{"crenv", `cannot start ./crenv: its "#!" line (line 1 of ./crenv) ends in a carriage return, so its interpreter is given "sh\r": the file has Windows line endings (CRLF); convert it (dos2unix ./crenv)`},
		{"link", `cannot start ./link: its "#!" line (line 1 of ./crenv) ends in a carriage return, so its interpreter is given "sh\r": the file has Windows line endings (CRLF); convert it (dos2unix ./crenv)`},
		{"bom", `cannot start ./bom: the file starts with a UTF-8 byte order mark (EF BB BF) before its #! line, so its #! line is not seen: save it without one (sed -i '1s/^\xEF\xBB\xBF//' bom)`},
		{"bare.py", `cannot start ./bare.py: the file has no #! line: add one (#!/usr/bin/env python3), or run it through its interpreter (python3 bare.py; in a bot block, command = ["python3", "bare.py"])`},
	} {
		for _, tc := range []struct {
			name string
			lim  drivers.Limits
		}{{"bare", drivers.Limits{}}, {"sandbox", drivers.Limits{Sandbox: &drivers.Sandbox{}}}} {
			t.Run(prog.name+"/"+tc.name, func(t *testing.T) {
				argv := []string{"./" + prog.name}
				assertStartFault(t, Spec{Bot: "b", Argv: argv, Dir: dir, Limits: tc.lim}, prog.want)
			})
		}
	}
}

// A "\r" at the end of a "#!" line that may do no harm is no start
// fault: env -S splits it off with the rest of its argument, and the
// script runs, bare and in the sandbox, for a session and for a
// per-move run.
func TestStartCRLFEnvSplitRuns(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "#!/usr/bin/env -S sh\r\nread b\nprintf '= OK\\n\\n'\n"
	if err := os.WriteFile(filepath.Join(dir, "split"), []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		lim  drivers.Limits
	}{{"bare", drivers.Limits{}}, {"sandbox", drivers.Limits{Sandbox: &drivers.Sandbox{}}}} {
		t.Run(tc.name, func(t *testing.T) {
			spec := Spec{Bot: "b", Argv: []string{"./split"}, Dir: dir, Limits: tc.lim,
				Clock: drivers.Clock{Move: drivers.Duration(5 * time.Second)}}
			s, err := Start(context.Background(), spec)
			if err != nil {
				t.Fatalf("Start = %v, want the script to run", err)
			}
			answer, err := ask(s, "x")
			s.Kill()
			if err != nil || answer != "OK" {
				t.Errorf("ask = %q, %v, want OK", answer, err)
			}
			r, err := RunOnce(context.Background(), OnceSpec{Bot: "b", Argv: spec.Argv, Dir: dir, Limits: tc.lim,
				Stdin: "x\n", Timeout: 5 * time.Second})
			if err != nil || r.Fault != nil || r.Line != "= OK" {
				t.Errorf("RunOnce = %+v, %v, want the line \"= OK\"", r, err)
			}
		})
	}
}

// An interpreter that exists here but that the sandbox does not show (a
// submitted bot's "#!" line naming a file outside its folder and the
// system's) is said to be so, not to be missing (through the shim too:
// TestHostileThroughShim runs it again).
func TestStartFaultInterpreterNotInSandbox(t *testing.T) {
	if !Machine().Sandbox {
		t.Skip("no sandbox here")
	}
	root := t.TempDir()
	dir, other := filepath.Join(root, "bot"), filepath.Join(root, "other")
	for _, d := range []string{root, dir, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	interp := filepath.Join(other, "interp")
	if err := os.WriteFile(interp, []byte("#!/bin/sh\nexec /bin/sh \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bot"), []byte("#!"+interp+"\nread b\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := "cannot start ./bot: its interpreter " + interp + " (line 1 of ./bot) exists on this machine but is not in the bot's sandbox"
	lim := drivers.Limits{Sandbox: &drivers.Sandbox{Submitted: true}}
	assertStartFault(t, Spec{Bot: "b", Argv: []string{"./bot"}, Dir: dir, Limits: lim}, want)
}

// assertStartFault starts spec as a session and once, and wants a start
// fault whose detail holds want.
func assertStartFault(t *testing.T, spec Spec, want string) {
	t.Helper()
	spec.Stderr = filepath.Join(t.TempDir(), "stderr.txt")
	spec.Clock = drivers.Clock{Move: drivers.Duration(5 * time.Second)}
	s, err := Start(context.Background(), spec)
	if err == nil {
		// Through the shim, the start fails once the shim has run.
		_, err = ask(s, "x")
		s.Kill()
	}
	var f *Fault
	if !errors.As(err, &f) || f.Kind != drivers.FaultStart || !strings.Contains(f.Detail, want) {
		t.Errorf("Start = %v, want a start fault with %q", err, want)
	}
	r, err := RunOnce(context.Background(), OnceSpec{Bot: spec.Bot, Argv: spec.Argv, Dir: spec.Dir, Limits: spec.Limits,
		Stderr: spec.Stderr, Timeout: 5 * time.Second})
	if err != nil || r.Fault == nil || r.Fault.Kind != drivers.FaultStart || !strings.Contains(r.Fault.Detail, want) {
		t.Errorf("RunOnce = %+v, %v, want a start fault with %q", r.Fault, err, want)
	}
}
