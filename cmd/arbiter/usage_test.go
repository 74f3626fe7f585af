package main

import (
	"bytes"
	"encoding/json"
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

// commonFlagsOf are the flags the usage text's paragraph on common flags
// gives each command: its sentences "validate, plan ... and check also
// take -var NAME=VALUE, ...".
func commonFlagsOf(t *testing.T) map[string]map[string]bool {
	text := strings.Join(strings.Fields(usage[strings.Index(usage, "PATH is"):]), " ")
	sentence := regexp.MustCompile(`\b((?:[a-z]+, )*[a-z]+(?: and [a-z]+)?) also take ([^;]*?)(?:;|\. )`)
	flagName := regexp.MustCompile(`(?:^|\s)-([a-z][a-z0-9-]*)`)
	of := map[string]map[string]bool{}
	for _, m := range sentence.FindAllStringSubmatch(text, -1) {
		for _, cmd := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ' ' }) {
			if cmd == "and" {
				continue
			}
			if of[cmd] == nil {
				of[cmd] = map[string]bool{}
			}
			for _, f := range flagName.FindAllStringSubmatch(m[2], -1) {
				of[cmd][f[1]] = true
			}
		}
	}
	if len(of) == 0 {
		t.Fatal("the usage text's paragraph on common flags names no command")
	}
	return of
}

// cliRows are the rows of docs/cli.md's table of commands that show
// command cmd ("| `arbiter cmd ...`"), and the paragraph after the table,
// on the flags many commands take.
func cliRows(t *testing.T, cmd string) (rows, common string) {
	b, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	var r strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "| `arbiter ") && regexp.MustCompile("`arbiter "+cmd+"[ `]").MatchString(line) {
			r.WriteString(line + "\n")
		}
	}
	text := string(b)
	if i := strings.Index(text, "\nPATH is "); i >= 0 {
		common = text[i:]
		if j := strings.Index(common, "\n\n"); j >= 0 {
			common = common[:j]
		}
	}
	return r.String(), common
}

// Every flag of every command is in the usage text (its own lines, or the
// paragraph on the common flags) and in docs/cli.md (the command's row of
// its table, or its paragraph on common flags), and "-h" prints each
// default once; every flag the usage text gives a command is one of its
// flags.
func TestUsageNamesEveryFlag(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`)
	named := regexp.MustCompile(`(?:\[|\s)-([a-z][a-z0-9-]*)`)
	common := commonFlagsOf(t)
	for _, cmd := range []string{"validate", "plan", "run", "merge", "slurm", "replay", "rank", "report", "serve", "bot", "fmt", "doctor", "check", "console", "init"} {
		var out, errb bytes.Buffer
		if code := run([]string{cmd, "-h"}, &out, &errb); code != 0 {
			t.Errorf("arbiter %s -h: exit %d", cmd, code)
		}
		own := usageOf(cmd)
		if own == "" {
			t.Errorf("the usage text has no line for arbiter %s", cmd)
		}
		rows, commonDocs := cliRows(t, cmd)
		if rows == "" {
			t.Errorf("docs/cli.md's table has no row for arbiter %s", cmd)
		}
		takes := map[string]bool{}
		for _, m := range flagLine.FindAllStringSubmatch(errb.String(), -1) {
			name := m[1]
			takes[name] = true
			if commonFlags[name] {
				if !common[cmd][name] {
					t.Errorf("arbiter %s takes -%s, but the usage text's paragraph on common flags does not say so", cmd, name)
				}
				if !regexp.MustCompile("`" + cmd + "`[^.]*`-" + name + `\b`).MatchString(strings.Join(strings.Fields(commonDocs), " ")) {
					t.Errorf("arbiter %s takes -%s, but docs/cli.md's paragraph on common flags does not say so", cmd, name)
				}
				continue
			}
			if !regexp.MustCompile(`\[-` + name + `\b|\s-` + name + `\b`).MatchString(own) {
				t.Errorf("arbiter %s takes -%s, but its usage lines do not name it:\n%s", cmd, name, own)
			}
			if !regexp.MustCompile("-" + name + `\b`).MatchString(rows) {
				t.Errorf("arbiter %s takes -%s, but its row of docs/cli.md does not name it", cmd, name)
			}
		}
		for _, m := range named.FindAllStringSubmatch(own, -1) {
			if !takes[m[1]] {
				t.Errorf("the usage lines of arbiter %s name -%s, which it does not take", cmd, m[1])
			}
		}
		for name := range common[cmd] {
			if !takes[name] {
				t.Errorf("the usage text's paragraph on common flags gives arbiter %s -%s, which it does not take", cmd, name)
			}
		}
		if regexp.MustCompile(`\(default: [^)]*\) \(default `).MatchString(errb.String()) {
			t.Errorf("arbiter %s -h prints a default twice:\n%s", cmd, errb.String())
		}
	}
}

// No command is a usage error (exit 2, the usage on stderr), as an
// unknown one is, and so is a flag a command does not take or cannot
// parse (exit 2, the command's flags on stderr); asking for help is not
// (exit 0, on stdout).
func TestUsageExitStatus(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		says string
	}{
		{nil, 2, "Usage:"}, {[]string{"nosuch"}, 2, "Usage:"},
		{[]string{"run", "-bogus"}, 2, "Usage of arbiter run:"},
		{[]string{"replay", "-j", "x"}, 2, "Usage of arbiter replay:"},
		{[]string{"rank", "-log-level", "loud"}, 2, "Usage of arbiter rank:"},
		{[]string{"-h"}, 0, "Usage:"}, {[]string{"--help"}, 0, "Usage:"}, {[]string{"help"}, 0, "Usage:"},
	} {
		var out, errb bytes.Buffer
		code := run(tt.args, &out, &errb)
		where := &out
		if tt.code != 0 {
			where = &errb
		}
		if code != tt.code || !strings.Contains(where.String(), tt.says) {
			t.Errorf("arbiter %q: exit %d, stdout %q, stderr %q; want exit %d and %q on %s",
				tt.args, code, out.String(), errb.String(), tt.code, tt.says, map[int]string{0: "stdout", 2: "stderr"}[tt.code])
		}
	}
}

// Flags that a command would not use with the others given are a usage
// error (exit 2) that names them, as an unknown flag is: rank's three
// forms (DIR, DIR -vs A,B, -pgn FILE) each take their own flags, -json
// already holds what -crosstable and -los add; run's -stage goes with
// -shard, console's -seat with -from; check's and console's -dir and
// -sandbox with a COMMAND, their -rebuild and configuration flags with
// -bot; -root goes with a saved plan, -var, -var-file and -tournament
// with a configuration, run's -shard not with -match, replay's -round
// not with MATCH ids. So is a flag's value out of its range (-j 0,
// -seat -1, -sprt 5,0). Every combination the usage text gives is taken.
func TestFlagsThatDoNotGoTogether(t *testing.T) {
	dir := filepath.Join("..", "..", "engine", "testdata", "field12")
	pgn := filepath.Join(t.TempDir(), "field12.pgn")
	conf := filepath.Join("..", "..", "examples", "bricks")
	saved := filepath.Join(t.TempDir(), "plan.json") // refused before it is read
	missing := filepath.Join(t.TempDir(), "no-such-results")
	for _, tt := range []struct {
		args []string
		says string // "" for a combination that is taken (exit 0)
	}{
		{[]string{"rank", "-pgn", pgn, "-vs", "a,b", "-los"}, "-vs and -los go with a results directory, not with -pgn FILE"},
		{[]string{"rank", "-pgn", pgn, "-export-pgn", "x.pgn"}, "-export-pgn goes with a results directory"},
		{[]string{"rank", "-pgn", pgn, "-sprt", "0,10"}, "-sprt goes with a results directory"},
		{[]string{"rank", dir, "-sprt", "0,10", "-advantage", "5", "-drawelo", "1", "-prior", "9"}, "-advantage, -drawelo and -prior go with -pgn FILE"},
		{[]string{"rank", dir, "-sprt", "0,10"}, "-sprt goes with -vs A,B"},
		{[]string{"rank", dir, "-vs", "bot-10,bot-11", "-crosstable", "-los"}, "-crosstable and -los go with the standings, not with the head-to-head of -vs A,B"},
		{[]string{"rank", dir, "-json", "-crosstable"}, "-crosstable goes with the text standings; -json always prints the crosstable"},
		{[]string{"rank", dir, "-json", "-los"}, "-los goes with the text standings"},
		{[]string{"rank", dir, "-prior", "2"}, "-prior goes with -pgn FILE"}, // the default, given
		{[]string{"run", filepath.Join("..", "..", "examples", "bricks"), "-stage", "1"}, "-stage goes with -shard"},
		{[]string{"console", "bricks", "-seat", "1", "--", "cat"}, "-seat goes with -from"},
		{[]string{"console", "bricks", "-from", "m", "--", "cat"}, "-from needs -seat"},
		{[]string{"console", "-bot", "a", "-sandbox=false", "."}, "-sandbox goes with a COMMAND"},
		{[]string{"console", "bricks", "-rebuild", "--", "cat"}, "-rebuild goes with -bot"},
		{[]string{"check", "bricks", "-rebuild", "--", "cat"}, "-rebuild goes with -bot"},
		{[]string{"check", "-bot", "a", "-dir", "/tmp", "."}, "-dir goes with a COMMAND"}, // it was left unused
		{[]string{"check", "-bot", "a", "-sandbox=false", "."}, "-sandbox goes with a COMMAND"},
		{[]string{"check", "bricks", "-var", "n=1", "--", "cat"}, "-var goes with -bot NAME"},
		{[]string{"check", "bricks", "-tournament", "t", "--", "cat"}, "-tournament goes with -bot NAME"},
		{[]string{"console", "bricks", "-var-file", "v.hcl", "--", "cat"}, "-var-file goes with -bot NAME"},
		{[]string{"run", conf, "-root", "."}, "-root is for a saved plan"},
		{[]string{"validate", conf, "-root", "."}, "-root is for a saved plan"},
		{[]string{"slurm", conf, "-out", "o", "-shards", "2", "-root", "."}, "-root is for a saved plan"},
		{[]string{"check", "-bot", "simple", "-root", ".", conf}, "-root is for a saved plan"},
		{[]string{"check", "bricks", "-root", ".", "--", "cat"}, "-root goes with -bot NAME and a saved plan"},
		{[]string{"console", "bricks", "-root", ".", "--", "cat"}, "-root goes with -bot NAME and a saved plan"},
		{[]string{"run", saved, "-var", "n=1"}, "is a saved plan, already compiled: -var, -var-file and -tournament apply to an HCL configuration only"},
		{[]string{"validate", saved, "-tournament", "t"}, "is a saved plan, already compiled"},
		{[]string{"run", conf, "-shard", "0/2", "-match", "r001-g01-s1"}, "-shard and -match do not go together"},
		{[]string{"run", conf, "-shard", "0"}, `-shard "0": expected K/N`},
		{[]string{"run", conf, "-shard", "0/2", "-stage", "1"}, "-stage 1 needs the plan.json of the results directory"},
		{[]string{"run", conf, "-j", "0"}, "-j must be at least 1"},
		{[]string{"replay", dir, "-j", "0", "r001"}, "-j must be at least 1"},
		{[]string{"replay", dir, "r001", "-round", "1"}, "-round goes without MATCH ids"},
		{[]string{"replay", dir, "-round", "-1"}, "-round -1: a round is 1, 2, ..."}, // it replayed nothing, exit 0
		{[]string{"replay", dir, "-round", "0"}, "-round 0: a round is 1, 2, ..."},
		{[]string{"replay", dir, "r001", "-round", "0"}, "-round 0: a round is 1, 2, ..."}, // it replayed r001
		{[]string{"slurm", conf, "-out", "o", "-shards", "0"}, "-shards and -cpus are at least 1"},
		{[]string{"slurm", conf, "-out", "o", "-shards", "2", "-cpus", "0"}, "-shards and -cpus are at least 1"},
		{[]string{"rank", dir, "-pgn", pgn}, "give either -pgn FILE or a results directory, not both"},
		{[]string{"rank", dir, "-vs", "bot-10"}, "-vs takes two bot names"},
		{[]string{"rank", dir, "-vs", "bot-10,bot-11", "-sprt", "0,x"}, `-sprt "0,x": "x" is not a number`},
		{[]string{"rank", dir, "-vs", "bot-10,bot-11", "-sprt", "5,0"}, "sprt: elo0 (5) must be less than elo1 (0)"},
		// Flag values are checked before the directory is read: a
		// missing one would exit 1 first.
		{[]string{"rank", missing, "-vs", "bot-10"}, "-vs takes two bot names"},
		{[]string{"rank", missing, "-vs", "a,b", "-sprt", "5,0"}, "sprt: elo0 (5) must be less than elo1 (0)"},
		{[]string{"rank", missing, "-vs", "a,b", "-sprt", "0,x"}, `-sprt "0,x": "x" is not a number`},
		{[]string{"rank", missing, "-vs", "a,b", "-sprt-model", "elo"}, `-sprt-model "elo": must be`},
		{[]string{"check", "-bot", "simple", conf, "--", "cat"}, "give a bot by -bot NAME or by -- COMMAND, not both"},
		{[]string{"console", "bricks", "-from", "m", "-seat", "-2", "--", "cat"}, "-seat -2: a seat is 0, 1, ..."},
		{[]string{"rank", dir, "-export-pgn", pgn, "-crosstable", "-los"}, ""},
		{[]string{"rank", dir, "-json"}, ""},
		{[]string{"rank", dir, "-json", "-crosstable=false", "-los=false"}, ""}, // a switch given as false asks for nothing
		{[]string{"rank", dir, "-json=false", "-crosstable", "-los"}, ""},
		{[]string{"rank", "-pgn", pgn, "-crosstable=false", "-los=false"}, ""},
		{[]string{"rank", dir, "-vs", "bot-10,bot-11", "-crosstable=false"}, ""},
		{[]string{"rank", dir, "-vs", "bot-10,bot-11", "-sprt", "0,10", "-json"}, ""},
		{[]string{"rank", "-pgn", pgn, "-advantage", "0", "-drawelo", "90", "-prior", "1", "-json"}, ""},
	} {
		var out, errb bytes.Buffer
		code := run(tt.args, &out, &errb)
		if tt.says == "" {
			if code != 0 {
				t.Errorf("arbiter %q: exit %d, stderr %q; want exit 0", tt.args, code, errb.String())
			}
			continue
		}
		if code != 2 || !strings.Contains(errb.String(), tt.says) || out.Len() > 0 {
			t.Errorf("arbiter %q: exit %d, stdout %q, stderr %q; want exit 2 and %q on stderr alone", tt.args, code, out.String(), errb.String(), tt.says)
		}
	}
}

// A duration flag of zero or less is a usage error (exit 2) naming the
// flag, before anything starts: check's -move 0 would otherwise turn its
// per-answer limit off, as an HCL clock's "0s" is refused.
func TestDurationFlagsPositive(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"check -move 0", "-move must be a positive duration"},
		{"check -move -1s", "-move must be a positive duration (500ms, 5s, 2m), not -1s"},
		{"check -timeout 0s", "-timeout must be a positive duration"},
		{"console -move 0", "-move must be a positive duration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(strings.Fields(tc.name)[:1], "bricks")
			args = append(append(args, strings.Fields(tc.name)[1:]...), "--", "/nonexistent/bot")
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != 2 {
				t.Errorf("exit %d, want 2; stderr: %s", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr = %q, want %q", stderr.String(), tc.want)
			}
		})
	}
}

// validate -json prints a refusal of flags that do not go together as
// it prints any refusal, one JSON object on stdout, and exits 2 as
// validate without -json does.
func TestValidateJSONUsageError(t *testing.T) {
	conf := filepath.Join("..", "..", "examples", "bricks")
	saved := filepath.Join(t.TempDir(), "plan.json")
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"validate", "-json", conf, "-root", "."}, "-root is for a saved plan"},
		{[]string{"validate", "-json", saved, "-var", "n=1"}, "is a saved plan, already compiled"},
	} {
		var out, errb bytes.Buffer
		code := run(tt.args, &out, &errb)
		var res struct {
			Valid       bool
			Diagnostics []struct{ Detail string }
		}
		err := json.Unmarshal(out.Bytes(), &res)
		if code != 2 || err != nil || res.Valid || len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Detail, tt.says) || errb.Len() > 0 {
			t.Errorf("arbiter %q: exit %d, stdout %q (%v), stderr %q; want exit 2 and one diagnostic %q on stdout alone", tt.args, code, out.String(), err, errb.String(), tt.says)
		}
	}
}
