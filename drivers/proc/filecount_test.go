package proc

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// TestSandboxFileCountExact: a sandboxed bot whose dir and program lie
// under /tmp gets exactly its file_count in its private /tmp. The folders
// the sandbox makes there to mount the bot's dir on are arbiter's: they
// neither take the bot's room nor count against it.
func TestSandboxFileCountExact(t *testing.T) {
	if !Machine().Sandbox {
		t.Skipf("no sandbox here: %s", Machine().Why["sandbox"])
	}
	const limit = 10
	for _, n := range []int{limit, limit + 1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			lim := defaultLimits()
			lim.Files, lim.FileCount = 10e6, limit
			want := []string{""}
			if n > limit {
				want = []string{drivers.FaultFiles}
			}
			runHostile(t, hostileCase{
				name: "files", py: fmt.Sprintf(`made = 0
for i in range(%d):
    try:
        open(os.path.join(os.environ["ARBITER_FILES"], "f%%d" %% i), "w").close()
        made += 1
    except OSError as e:
        reply("failed at %%d: %%s" %% (i, e))
        sys.stdin.readline()
        sys.exit(0)
reply("made %%d" %% made)
sys.stdin.readline()
`, n), limits: lim, clock: drivers.Clock{Move: 5 * sec}, within: 10 * time.Second, want: want,
				setup: func(t *testing.T, spec *Spec) {
					readable(t, spec.Dir)
					readable(t, spec.Argv[1])
				},
				check: func(t *testing.T, s *Session, answers []string) {
					if n <= limit && (len(answers) != 1 || answers[0] != fmt.Sprintf("made %d", n)) {
						t.Errorf("answers %q, want it to make its %d files", answers, n)
					}
					if n > limit && len(answers) > 0 && strings.HasPrefix(answers[0], "failed at") && !strings.Contains(answers[0], fmt.Sprint(limit)) {
						t.Errorf("answers %q: the bot was refused a file under its limit", answers)
					}
				},
			})
		})
	}
}
