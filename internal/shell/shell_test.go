package shell

import (
	"os/exec"
	"slices"
	"testing"
)

// TestWord checks that a word is left bare when the shell reads it as it
// is, and quoted so that the shell reads it back unchanged otherwise.
func TestWord(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/shared/itpw", "/shared/itpw"},
		{"m/plan.json", "m/plan.json"},
		{"0/2", "0/2"},
		{"/tmp/my conf", "'/tmp/my conf'"},
		{"/tmp/it's", `'/tmp/it'\''s'`},
		{"/tmp/$HOME/`x`", "'/tmp/$HOME/`x`'"},
		{`a"b\c`, `'a"b\c'`},
		{"*", "'*'"},
		{"", "''"},
	} {
		if got := Word(c.in); got != c.want {
			t.Errorf("Word(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestLineReadsBack checks with sh itself that each word of a line comes
// back as it was given.
func TestLineReadsBack(t *testing.T) {
	args := []string{"arbiter", "run", "/tmp/my dir/plan.json", "it's", "$HOME", "`x`", `a"b\c`, "", "*", "ünï"}
	out, err := exec.Command("sh", "-c", `for a in `+Line(args...)+`; do printf '%s\n' "$a"; done`).Output()
	if err != nil {
		t.Skipf("no sh: %v", err)
	}
	want := ""
	for _, a := range args {
		want += a + "\n"
	}
	if string(out) != want {
		t.Errorf("sh read %q back as %q", args, out)
	}
}

// TestFields checks that a line's words are split as sh splits them,
// each kept as written: a Word with a blank is one word.
func TestFields(t *testing.T) {
	line := `exec '/opt/my arbiter' run "a b"/c -shard "${SLURM_ARRAY_TASK_ID}/2" -out '/w/it'\''s dir'/s0-"${SLURM_ARRAY_TASK_ID}" x\ y  ''`
	want := []string{"exec", "'/opt/my arbiter'", "run", `"a b"/c`, "-shard", `"${SLURM_ARRAY_TASK_ID}/2"`, "-out",
		`'/w/it'\''s dir'/s0-"${SLURM_ARRAY_TASK_ID}"`, `x\ y`, "''"}
	if got := Fields(line); !slices.Equal(got, want) {
		t.Errorf("Fields(%s) = %q, want %q", line, got, want)
	}
	for _, s := range []string{"/tmp/my conf", "/tmp/it's", `a"b\c`, ""} {
		if got := Fields("exec " + Word(s) + " run"); !slices.Equal(got, []string{"exec", Word(s), "run"}) {
			t.Errorf("Fields of the word %s = %q", Word(s), got)
		}
	}
}
