package proc

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// compatBot is a Go bot that answers a write's first line and, as
// golost, loses the rest ("lost"), or, as gosleep, reads both lines of
// the write and sleeps on the second ("sleep"); "probe" exits at once.
const compatBot = `package main

import (
	"os"
	"strings"
	"time"
)

func main() {
	reply := func() { os.Stdout.WriteString("= first\n\n") }
	buf := make([]byte, 4096)
	switch os.Args[1] {
	case "lost":
		for {
			if n, err := os.Stdin.Read(buf); n == 0 || err != nil {
				return
			}
			reply()
		}
	case "sleep":
		for n, lines := 0, 0; lines < 2; {
			k, err := os.Stdin.Read(buf[n:])
			if err != nil {
				return
			}
			lines += strings.Count(string(buf[n:n+k]), "\n")
			n += k
		}
		reply()
		time.Sleep(time.Hour)
	}
}
`

// compatGOARCH is the 32-bit architecture whose processes this one's
// kernel runs in compat mode, numbering their calls its own way.
var compatGOARCH = map[string]string{"amd64": "386", "arm64": "arm"}[runtime.GOARCH]

// A 32-bit bot (i386 under amd64, arm under arm64) numbers its system
// calls as its own architecture does in /proc/TID/syscall: one blocked
// in a read of its input is waiting for it, not busy with the command
// (read is close in amd64's numbering), and one that read the command and
// sleeps on it is still slow.
func TestCompatBotInput(t *testing.T) {
	bin := buildCompatBot(t)
	for _, tc := range []struct {
		mode string
		want drivers.Input
	}{
		{"lost", drivers.InputWaiting},
		{"sleep", drivers.InputTaken},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			spec := botSpec(t, tc.mode, drivers.Clock{})
			spec.Argv = []string{bin, tc.mode}
			assertSecondInput(t, spec, tc.want)
		})
	}
}

// buildCompatBot builds compatBot for compatGOARCH, skipping the test
// where there is none or the kernel cannot run its programs.
func buildCompatBot(t *testing.T) string {
	if compatGOARCH == "" {
		t.Skipf("no 32-bit architecture runs in compat mode under %s here", runtime.GOARCH)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module compatbot\n\ngo 1.21\n", "main.go": compatBot} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "bot")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOARCH="+compatGOARCH, "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the %s bot: %v\n%s", compatGOARCH, err, out)
	}
	if err := exec.Command(bin, "probe").Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.Exited() {
			t.Fatalf("the %s bot: %v", compatGOARCH, err)
		}
		t.Skipf("this kernel does not run %s programs: %v", compatGOARCH, err)
	}
	return bin
}
