package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// waitJava prints "ready" and waits for its input to end.
const waitJava = `public class Wait {
  public static void main(String[] a) throws Exception {
    System.out.println("ready");
    System.out.flush();
    while (System.in.read() >= 0) {}
  }
}
`

// TestJVMsInPIDNamespacesOutsideSandbox: where the sandbox is missing
// (seccomp disabled here) but PID namespaces are not, each bot is PID 1
// of its own namespace; two JVMs at once both used
// /tmp/hsperfdata_<user>/1, and the second printed HotSpot's warning
// that the file is locked by another process on its output, where its
// first answer should be. Each now has a private hsperfdata folder, and
// answers; none of those folders is left mounted on the host. Both ways
// of starting a bot (spawned, through the shim) are tried.
func TestJVMsInPIDNamespacesOutsideSandbox(t *testing.T) {
	java, dir := javaClass(t, "Wait", waitJava)
	saved := Machine()
	defer func() { machine = saved }()
	t.Setenv(DisableEnv, "seccomp")
	p := probe()
	if p.Sandbox || !p.PIDNS || !p.MountNS {
		t.Skipf("needs PID and mount namespaces without the sandbox: %+v", p)
	}
	machine = p
	for _, how := range []string{"spawn", "shim"} {
		t.Run(how, func(t *testing.T) {
			t.Setenv(spawnEnv, how)
			var sessions []*Session
			defer func() {
				for _, s := range sessions {
					s.Close("")
				}
			}()
			for _, bot := range []string{"first", "second"} {
				s, err := Start(t.Context(), Spec{Bot: bot, Argv: []string{java, "-cp", dir, "Wait"}, Dir: dir,
					Stderr: filepath.Join(t.TempDir(), "stderr"), Limits: drivers.Limits{Sandbox: &drivers.Sandbox{}}})
				if err != nil {
					t.Fatal(err)
				}
				sessions = append(sessions, s)
				if !s.box.pidNS || s.box.sandboxed {
					t.Fatalf("%s: PID namespace %v, sandboxed %v; want a PID namespace outside the sandbox", bot, s.box.pidNS, s.box.sandboxed)
				}
				// The first is still running, holding its file, when
				// the second starts.
				line, err := s.ReadLine(time.Now().Add(time.Minute))
				if err != nil || line != "ready" {
					t.Errorf("%s JVM: first line %q (%v), want ready", bot, line, err)
				}
			}
		})
	}
	if perf := perfDataDir(); perf != "" {
		if mounts, err := os.ReadFile("/proc/self/mountinfo"); err == nil && strings.Contains(string(mounts), " "+perf+" ") {
			t.Errorf("%s is mounted on the host after the bots ended:\n%s", perf, mounts)
		}
	}
}

// TestPerfDataFolderOfAnotherUser: a /tmp/hsperfdata_<user> that another
// user owns, who may swap it for a symbolic link between arbiter's look
// at it and the bot's mount (/tmp is sticky: only its owner may rename
// it), is left alone; the tmpfs was mounted where the link led, and hid
// that folder from the bot.
func TestPerfDataFolderOfAnotherUser(t *testing.T) {
	p := Machine()
	if os.Getuid() != 0 || !p.PIDNS || !p.MountNS {
		t.Skipf("needs PID and mount namespaces, as root: %+v", p)
	}
	defer func(saved func() string) { perfDataDir = saved }(perfDataDir)
	dir := filepath.Join(t.TempDir(), "hsperfdata_root")
	perfDataDir = func() string { return dir }
	target := t.TempDir()
	if err := os.WriteFile(filepath.Join(target, "marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"spawn", "shim"} {
		t.Run(how, func(t *testing.T) {
			t.Setenv(spawnEnv, how)
			out, err := os.Create(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			cmd := exec.Command("/bin/ls", target)
			cmd.Stdout = out
			b, err := Prepare(cmd, drivers.Limits{Memory: 200 << 20}, drivers.Clock{Move: 5 * sec})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			// The other user swaps the folder for a link to target.
			if err := os.Rename(dir, dir+".gone"); err != nil {
				t.Fatal(err)
			}
			defer os.Rename(dir+".gone", dir)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(dir)
			if err := StartCmd(cmd, b); err != nil {
				t.Fatal(err)
			}
			if _, err := cmd.Process.Wait(); err != nil {
				t.Fatal(err)
			}
			if listed, _ := os.ReadFile(out.Name()); !strings.Contains(string(listed), "marker") {
				t.Errorf("the bot saw %s empty (%q): the perf data tmpfs was mounted where a link another user put in place of %s led", target, listed, dir)
			}
		})
	}
}
