package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// commonFlags are the flags the usage text's last paragraph names for
// the commands that load a configuration or log, rather than each line.
var commonFlags = map[string]bool{"var": true, "var-file": true, "tournament": true, "log-level": true, "log-json": true}

// usageOf is the usage text's lines of command cmd: every line from
// "  arbiter CMD" to the next command's.
func usageOf(cmd string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(usage, "\n") {
		if strings.HasPrefix(line, "  arbiter ") {
			in = strings.HasPrefix(line, "  arbiter "+cmd+" ")
		} else if !strings.HasPrefix(line, "   ") {
			in = false
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// Every flag of every command is in the usage text (its own lines, or the
// paragraph on the common flags) and in the docs, and "-h" prints each
// default once.
func TestUsageNamesEveryFlag(t *testing.T) {
	var docs strings.Builder
	files, _ := filepath.Glob("../../docs/*.md")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(b)
	}
	flagLine := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`)
	for _, cmd := range []string{"validate", "plan", "run", "merge", "slurm", "replay", "rank", "report", "serve", "bot", "fmt", "doctor", "check", "console", "init"} {
		var out, errb bytes.Buffer
		if code := run([]string{cmd, "-h"}, &out, &errb); code != 0 {
			t.Errorf("arbiter %s -h: exit %d", cmd, code)
		}
		own := usageOf(cmd)
		if own == "" {
			t.Errorf("the usage text has no line for arbiter %s", cmd)
		}
		for _, m := range flagLine.FindAllStringSubmatch(errb.String(), -1) {
			name := m[1]
			if commonFlags[name] {
				if !regexp.MustCompile(`(?s)\b` + cmd + `\b.*also take.*-` + name + `\b`).MatchString(usage[strings.Index(usage, "PATH is"):]) {
					t.Errorf("arbiter %s takes -%s, but the usage text's paragraph on common flags does not say so", cmd, name)
				}
			} else if !regexp.MustCompile(`\[-` + name + `\b|\s-` + name + `\b`).MatchString(own) {
				t.Errorf("arbiter %s takes -%s, but its usage lines do not name it:\n%s", cmd, name, own)
			}
			if !regexp.MustCompile("-" + name + `\b`).MatchString(docs.String()) {
				t.Errorf("arbiter %s takes -%s, which no page of docs/ names", cmd, name)
			}
		}
		if regexp.MustCompile(`\(default: [^)]*\) \(default `).MatchString(errb.String()) {
			t.Errorf("arbiter %s -h prints a default twice:\n%s", cmd, errb.String())
		}
	}
}

// No command is a usage error (exit 2, the usage on stderr), as an
// unknown one is; asking for help is not (exit 0, on stdout).
func TestUsageExitStatus(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
	}{
		{nil, 2}, {[]string{"nosuch"}, 2},
		{[]string{"-h"}, 0}, {[]string{"--help"}, 0}, {[]string{"help"}, 0},
	} {
		var out, errb bytes.Buffer
		code := run(tt.args, &out, &errb)
		where := &out
		if tt.code != 0 {
			where = &errb
		}
		if code != tt.code || !strings.Contains(where.String(), "Usage:") {
			t.Errorf("arbiter %q: exit %d, stdout %q, stderr %q; want exit %d and the usage on %s",
				tt.args, code, out.String(), errb.String(), tt.code, map[int]string{0: "stdout", 2: "stderr"}[tt.code])
		}
	}
}
