package proc

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

func init() {
	if os.Getenv("PROC_TEST_BOT") == "ids" {
		runIDs()
		os.Exit(0)
	}
}

// runIDs answers every command with its Uid, Gid, Groups and CapEff
// lines of /proc/self/status, joined by "|".
func runIDs() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		b, _ := os.ReadFile("/proc/self/status")
		var keep []string
		for _, l := range strings.Split(string(b), "\n") {
			for _, k := range []string{"Uid:", "Gid:", "Groups:", "CapEff:", "CapBnd:"} {
				if strings.HasPrefix(l, k) {
					keep = append(keep, strings.Join(strings.Fields(l), " "))
				}
			}
		}
		os.Stdout.WriteString("= " + strings.Join(keep, "|") + "\n\n")
	}
}

// TestSandboxIdentity: a bot in the default sandbox started by arbiter as
// root is the sandbox's uid and gid through and through (real, effective,
// saved and file system ids), in no supplementary group, with no
// capability and an empty bounding set, although the shim switched only
// the thread that execs it.
func TestSandboxIdentity(t *testing.T) {
	if !Machine().Sandbox || os.Getuid() != 0 {
		t.Skip("needs the sandbox as root")
	}
	spec := botSpec(t, "ids", drivers.Clock{Move: drivers.Duration(10 * time.Second)})
	readable(t, spec.Dir)
	spec.Limits = defaultLimits()
	s := start(t, spec)
	defer s.Close("quit")
	got, err := ask(s, "ids")
	if err != nil {
		t.Fatal(err)
	}
	want := "Uid: 65534 65534 65534 65534|Gid: 65534 65534 65534 65534|Groups:|CapEff: 0000000000000000|CapBnd: 0000000000000000"
	if got != want {
		t.Errorf("the bot's ids: %q, want %q", got, want)
	}
}
