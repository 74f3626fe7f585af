package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// hogJava keeps 100 MiB live and makes 8 GiB of garbage in 4 MiB arrays:
// a JVM that sizes its heap from the machine's memory, not from the
// bot's limit, goes over a limit of 200 MiB long before it collects.
const hogJava = `public class Hog {
  public static void main(String[] a) {
    byte[][] live = new byte[100][];
    for (int i = 0; i < 100; i++) live[i] = new byte[1 << 20];
    long sum = 0;
    for (int i = 0; i < 2000; i++) { byte[] g = new byte[4 << 20]; g[i % 100] = 1; sum += g[0]; }
    System.out.println("OK " + sum + " " + live.length);
  }
}
`

// javaBot compiles hogJava in a new folder and gives the java launcher
// and that folder; it skips the test without java and javac, or where
// the sandbox or the cgroup counter of limit is missing.
func javaBot(t *testing.T, limit string) (java, dir string) {
	t.Helper()
	m := Machine()
	if !m.Sandbox || !countedByCgroup(m, limit) {
		t.Skipf("no sandbox, or %s is not counted by a cgroup here", limit)
	}
	return javaClass(t, "Hog", hogJava)
}

// javaClass compiles src, the Java class name, in a new folder and gives
// the java launcher and that folder; it skips the test without java and
// javac.
func javaClass(t *testing.T, name, src string) (java, dir string) {
	t.Helper()
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("no java on the PATH")
	}
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("no javac on the PATH")
	}
	dir = t.TempDir()
	file := filepath.Join(dir, name+".java")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(javac, "-d", dir, file).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return java, dir
}

// runHog runs argv, the JVM of javaBot's dir, once in the sandbox under
// lim.
func runHog(t *testing.T, argv []string, dir string, lim drivers.Limits) Reply {
	t.Helper()
	sb := drivers.ResolveSandbox(argv, dir, nil)
	lim.Sandbox = &sb
	r, err := RunOnce(context.Background(), OnceSpec{Bot: "hog", Argv: argv, Dir: dir, Timeout: time.Minute,
		Limits: lim, Stderr: filepath.Join(dir, "stderr")})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestJVMOverMemoryLimitIsTold: in the sandbox a JVM cannot see its
// memory limit (no cgroup files), sizes its heap from the machine's
// memory and is killed at the limit while it makes garbage: the memory
// fault says so and gives the -Xmx to put in the command. A JVM run by
// a shell's -c script that is java's command (javacmd.Wrapped), with
// exec or without (the shell then waits for it), or by a wrapper script
// of its folder whose one command is java's (javacmd.Script), is told
// the same.
func TestJVMOverMemoryLimitIsTold(t *testing.T) {
	java, dir := javaBot(t, drivers.LimitMemory)
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n# the bot\nexec "+java+" -cp . Hog \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, argv := range [][]string{
		{java, "-cp", ".", "Hog"},
		{"/bin/sh", "-c", java + " -cp . Hog"},
		{"/bin/sh", "-c", "exec " + java + " -cp . Hog"},
		{"./run.sh"},
		{"/bin/sh", "run.sh"},
	} {
		r := runHog(t, argv, dir, drivers.Limits{Memory: 200 << 20})
		if r.Fault == nil || r.Fault.Kind != drivers.FaultMemory {
			t.Fatalf("%q: reply %+v (fault %v), want a memory fault", argv, r, r.Fault)
		}
		for _, want := range []string{"a JVM cannot see this limit in the sandbox", `"-Xmx150m"`} {
			if !strings.Contains(r.Fault.Detail, want) {
				t.Errorf("%q: fault %q: want it to say %s", argv, r.Fault.Detail, want)
			}
		}
	}
}

// TestJVMOverProcessLimitIsTold: a default JVM's own threads go over a
// small process limit (Auction's 16): the processes fault names the
// options that keep them within it.
func TestJVMOverProcessLimitIsTold(t *testing.T) {
	java, dir := javaBot(t, drivers.LimitProcesses)
	r := runHog(t, []string{java, "-cp", ".", "Hog"}, dir, drivers.Limits{Processes: 16})
	if r.Fault == nil || r.Fault.Kind != drivers.FaultProcesses {
		t.Fatalf("reply %+v (fault %v), want a processes fault", r, r.Fault)
	}
	want := `"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1"`
	if !strings.Contains(r.Fault.Detail, want) {
		t.Errorf("fault %q: want it to name %s", r.Fault.Detail, want)
	}
}

// TestJVMMemoryHintNamesWhatTheCommandGives: a command's -Xmx is its
// heap, to make smaller; its -XX:MaxRAM= is the memory the JVM takes
// itself to have, a quarter of which is its heap by default, not a heap;
// the bot's own arguments after its class are neither.
func TestJVMMemoryHintNamesWhatTheCommandGives(t *testing.T) {
	for _, c := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"java", "-Xmx300m", "-cp", ".", "Bot"}, `the JVM's heap (-Xmx300m)`, "MaxRAM"},
		{[]string{"java", "-XX:MaxRAM=400m", "-cp", ".", "Bot"}, "what -XX:MaxRAM=400m says and by default makes its heap a quarter of it", "the JVM's heap ("},
		{[]string{"java", "-cp", ".", "Bot", "-Xmx300m"}, "give the JVM a maximum heap well under the limit", "-Xmx300m"},
		{[]string{"sh", "-c", "exec java -Xmx300m -cp . Bot"}, `the JVM's heap (-Xmx300m)`, "MaxRAM"},
	} {
		b := &Box{lim: drivers.Limits{Memory: 200 << 20}}
		path := "/usr/bin/java"
		if c.args[0] == "sh" {
			path = "/bin/sh"
		}
		b.noteJVM(&shimConfig{Path: path, Args: c.args}, nil)
		hint := b.jvmMemoryHint()
		if !strings.Contains(hint, c.want) || strings.Contains(hint, c.not) || !strings.Contains(hint, `"-Xmx150m"`) {
			t.Errorf("%q: hint %q, want it to say %q and -Xmx150m, not %q", c.args, hint, c.want, c.not)
		}
	}
}

// The JVM's error files a run removes are those it wrote in the bot's
// dir during the run, regular files only: not a file of that name the
// bot had before (a Euchre bot may so name its memory file, written a
// move ago), not a link or a folder, and nothing outside the dir, whose
// name is no pattern.
func TestJVMErrorFilesRemovedAreTheRunsOnly(t *testing.T) {
	for _, name := range []string{"seat", "seat[a]"} {
		t.Run(name, func(t *testing.T) { testJVMErrorFilesRemoved(t, name) })
	}
}

func testJVMErrorFilesRemoved(t *testing.T, name string) {
	root := t.TempDir()
	dir, sibling := filepath.Join(root, name), filepath.Join(root, "seata")
	write := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(sibling, "hs_err_pid7.log"))
	write(filepath.Join(dir, "hs_err_pid8.log")) // the bot's, before the run
	write(filepath.Join(dir, "hs_err_pid12.log"))
	before := jvmErrorFiles(dir)
	// The run: the JVM's file, one written over by another (a new
	// inode), a link and a folder of the name.
	write(filepath.Join(dir, "hs_err_pid11.log"))
	write(filepath.Join(dir, "new"))
	if err := os.Rename(filepath.Join(dir, "new"), filepath.Join(dir, "hs_err_pid12.log")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(root, "target"))
	if err := os.Symlink(filepath.Join(root, "target"), filepath.Join(dir, "hs_err_pid9.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "hs_err_pid10.log"), 0o755); err != nil {
		t.Fatal(err)
	}
	removeJVMErrorFiles(dir, before)
	for path, kept := range map[string]bool{
		filepath.Join(sibling, "hs_err_pid7.log"): true,
		filepath.Join(dir, "hs_err_pid8.log"):     true,
		filepath.Join(dir, "hs_err_pid9.log"):     true,
		filepath.Join(root, "target"):             true,
		filepath.Join(dir, "hs_err_pid10.log"):    true,
		filepath.Join(dir, "hs_err_pid11.log"):    false,
		filepath.Join(dir, "hs_err_pid12.log"):    false,
	} {
		if _, err := os.Lstat(path); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", path, err == nil, kept)
		}
	}
	// Without a look before the run (its dir unreadable then), nothing goes.
	write(filepath.Join(dir, "hs_err_pid13.log"))
	removeJVMErrorFiles(dir, nil)
	if _, err := os.Lstat(filepath.Join(dir, "hs_err_pid13.log")); err != nil {
		t.Errorf("removed without a look before the run: %v", err)
	}
}
