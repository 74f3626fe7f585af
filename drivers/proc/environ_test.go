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
	if os.Getenv("PROC_TEST_BOT") == "environ" {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() { // answers with the values of the variables named
			var vals []string
			for _, k := range strings.Fields(in.Text()) {
				v, ok := os.LookupEnv(k)
				if !ok {
					v = "(unset)"
				}
				vals = append(vals, k+"="+v)
			}
			os.Stdout.WriteString("= " + strings.Join(vals, " ") + "\n\n")
		}
		os.Exit(0)
	}
}

// TestSandboxedBotEnvironment: a sandboxed bot gets the variables of
// arbiter's environment that running programs needs, its configuration's
// own, and HOME in its private /tmp; not the organiser's others (a token
// exported in the shell that runs arbiter). A bot outside the sandbox (or
// on a machine without it) gets arbiter's whole environment.
func TestSandboxedBotEnvironment(t *testing.T) {
	t.Setenv("ORGANISER_TOKEN", "secret")
	t.Setenv("LC_TIME", "C")
	ask1 := func(lim drivers.Limits) string {
		spec := botSpec(t, "environ", drivers.Clock{Move: drivers.Duration(10 * time.Second)})
		spec.Env = append(spec.Env, "MINE=1")
		spec.Limits = lim
		readable(t, spec.Dir)
		s := start(t, spec)
		defer s.Close("quit")
		got, err := ask(s, "ORGANISER_TOKEN PATH LC_TIME MINE HOME")
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	plain := ask1(drivers.Limits{})
	if want := "ORGANISER_TOKEN=secret PATH=" + os.Getenv("PATH") + " LC_TIME=C MINE=1 HOME=" + os.Getenv("HOME"); plain != want {
		t.Errorf("outside the sandbox: %q, want %q", plain, want)
	}
	want := "ORGANISER_TOKEN=(unset) PATH=" + os.Getenv("PATH") + " LC_TIME=C MINE=1 HOME=/tmp"
	if !Machine().Sandbox { // no sandbox here: the bot runs bare
		want = plain
	}
	if got := ask1(defaultLimits()); got != want {
		t.Errorf("with the default sandbox: %q, want %q", got, want)
	}
}
