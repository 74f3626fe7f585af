package proc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

func init() {
	if os.Getenv("PROC_TEST_BOT") == "ids" {
		runIDs()
		os.Exit(0)
	}
	// A test binary that TestSandboxUnderUmask runs under an organiser's
	// umask: set before anything (the probe) starts.
	if u := os.Getenv("PROC_TEST_UMASK"); u != "" {
		m, _ := strconv.ParseUint(u, 8, 32)
		syscall.Umask(int(m))
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
			for _, k := range []string{"Uid:", "Gid:", "Groups:", "CapEff:", "CapBnd:", "Umask:"} {
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
// the thread that execs it; its umask is arbiter's (the organiser's) less
// what would hide its files from another uid (077 becomes 022), although
// the sandbox's root was built without one.
func TestSandboxIdentity(t *testing.T) {
	if !Machine().Sandbox || os.Getuid() != 0 {
		t.Skipf("needs the sandbox as root (uid %d; sandbox: %s)", os.Getuid(), Machine().Why["sandbox"])
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
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	want := fmt.Sprintf("Umask: %04o|", umask&^0o055) +
		"Uid: 65534 65534 65534 65534|Gid: 65534 65534 65534 65534|Groups:|CapEff: 0000000000000000|CapBnd: 0000000000000000"
	if got != want {
		t.Errorf("the bot's ids: %q, want %q", got, want)
	}
}

// TestSandboxUnderUmask: the organiser's umask (077, 027) changes nothing
// of the sandbox: the folders its root is built of get their modes
// whatever it is, so the probe finds the sandbox and a bot in it is the
// sandbox's uid. Before, the folders made on the way to a bound program
// were 0700 under umask 077, the sandbox's uid could not start it, and
// bots ran outside the sandbox as root. Each case runs TestSandboxIdentity
// in a test binary of its own, started under the umask (a umask is the
// whole process's), spawned and through the shim.
func TestSandboxUnderUmask(t *testing.T) {
	if !Machine().Sandbox || os.Getuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs the tests as root with the sandbox, but here it is not (uid %d): %s", os.Getuid(), Machine().Why["sandbox"])
		}
		t.Skip("needs the sandbox as root")
	}
	for _, c := range []struct{ name, umask, spawn string }{
		{"077/spawned", "077", ""}, {"027/spawned", "027", ""}, {"077/shim", "077", "shim"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestSandboxIdentity$", "-test.v", "-test.count", "1")
			cmd.Env = append(os.Environ(), "PROC_TEST_UMASK="+c.umask, spawnEnv+"="+c.spawn)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "--- PASS: TestSandboxIdentity") {
				t.Fatalf("under umask %s, TestSandboxIdentity did not pass (%v):\n%s", c.umask, err, out)
			}
		})
	}
}
