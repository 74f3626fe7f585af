package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// AsNobody is a command that runs the tests run matches of a copy of the
// running test binary as uid 65534, in a folder of the test's (dir) that
// it may use, with a /tmp of its own and env besides. Root reads and
// writes every folder, so a test of what arbiter does with a folder it
// cannot read (a bot of arbiter's own uid took its permissions away) runs
// itself so when the tests run as root.
func AsNobody(t testing.TB, run string, env ...string) (cmd *exec.Cmd, dir string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for d := filepath.Dir(dir); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	exe, _ := os.Executable()
	bin := filepath.Join(dir, filepath.Base(exe))
	b, err := os.ReadFile(exe)
	if err == nil {
		err = os.WriteFile(bin, b, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o777)
	os.Chmod(tmp, 0o777)
	cmd = exec.Command(bin, "-test.run", run, "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append([]string{"TMPDIR=" + tmp, "PATH=/usr/bin:/bin", "HOME=" + tmp}, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	return cmd, dir
}
