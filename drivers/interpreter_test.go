package drivers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a script's "#!" line makes of its start, one row a line: the
// kernel's interpreter is the first word, a "\r" of a CRLF line included.
func TestInterpreterProblem(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "plain")
	text := filepath.Join(dir, "text")
	for _, f := range []string{notExec, text} {
		if err := os.WriteFile(f, []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(text, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, line, want string }{
		{"a binary", "\x7fELF", ""},
		{"an interpreter that exists", "#!/bin/sh\n", ""},
		{"an interpreter and its argument", "#! /bin/sh -e\n", ""},
		{"a CRLF line", "#!/bin/sh\r\n", `its interpreter "/bin/sh\r" (line 1 of ./bot) does not exist: the file has Windows line endings (CRLF); convert it (dos2unix ./bot)`},
		{"a CRLF line with env", "#!/usr/bin/env sh\r\n", `its "#!" line (line 1 of ./bot) ends in a carriage return, so its interpreter is given "sh\r": the file has Windows line endings (CRLF)`},
		{"a CRLF line with env -S", "#!/usr/bin/env -S sh\r\n", ""},
		{"a CRLF line with env -S shortened", "#!/usr/bin/env --split-str=sh\r\n", ""},
		{"a CRLF line with env and another flag", "#!/usr/bin/env -i sh\r\n", `its "#!" line (line 1 of ./bot) ends in a carriage return, so its interpreter is given "-i sh\r"`},
		{"a CRLF line with an argument", "#!/bin/sh -e\r\n", ""},
		{"a missing interpreter", "#!/nonexistent/interp\tx\n", "its interpreter /nonexistent/interp (line 1 of ./bot) does not exist"},
		{"no interpreter", "#!\n", `its "#!" line (line 1 of ./bot) names no interpreter`},
		{"a folder", "#!" + dir + "\n", "its interpreter " + dir + " (line 1 of ./bot) is a folder, not a program"},
		{"not executable", "#!" + notExec + "\n", "its interpreter " + notExec + " (line 1 of ./bot) is not executable"},
		{"no #! line", "read b\n", `the file has no #! line: add one naming its interpreter (#!/usr/bin/env python3, say), or run it through its interpreter (python3 bot; in a bot block, command = ["python3", "bot"])`},
		{"a byte order mark before #!", "\xEF\xBB\xBF#!/bin/sh\n", `the file starts with a UTF-8 byte order mark (EF BB BF) before its #! line, so its #! line is not seen: save it without one (sed -i '1s/^\xEF\xBB\xBF//' bot)`},
		{"a byte order mark and CRLF", "\xEF\xBB\xBF#!/bin/sh\r\n", `the file starts with a UTF-8 byte order mark (EF BB BF) before its #! line, so its #! line is not seen: save it without one (sed -i '1s/^\xEF\xBB\xBF//' bot), and with Unix line endings (dos2unix bot)`},
		{"not a program", "#!" + text + "\n", "its interpreter " + text + " (line 1 of ./bot) is neither a program nor a script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := filepath.Join(dir, "bot")
			if err := os.WriteFile(bot, []byte(tc.line+"echo\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			got := InterpreterProblem(bot, "./bot", nil)
			if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
				t.Errorf("InterpreterProblem = %q, want %q", got, tc.want)
			}
		})
	}
}

// A "\r" given to an interpreter other than env, with an argument, may
// or may not keep the script from starting: CRLFRisk says so, where
// InterpreterProblem says nothing.
func TestCRLFRisk(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ line, want string }{
		{"#!/bin/sh -e\r\n", `its "#!" line (line 1 of ./bot) ends in a carriage return, so its interpreter /bin/sh is given "-e\r", which most interpreters refuse (sh: "Illegal option -"): the file has Windows line endings (CRLF); convert it (dos2unix ./bot)`},
		{"#!/bin/sh -e\n", ""},
		{"#!/bin/sh\r\n", ""},
		{"#!/usr/bin/env sh\r\n", ""},
		{"#!/usr/bin/env -S sh\r\n", ""},
	} {
		bot := filepath.Join(dir, "bot")
		if err := os.WriteFile(bot, []byte(tc.line+"echo\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := CRLFRisk(bot, "./bot"); got != tc.want {
			t.Errorf("%q: CRLFRisk = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// A program that is a symbolic link is named by the file it leads to,
// the one dos2unix mends (it skips links): from the link's folder when
// the file is beside it, by its absolute path otherwise.
func TestInterpreterProblemNamesLinkTarget(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crenv"), []byte("#!/usr/bin/env sh\r\necho\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("crenv", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../crenv", filepath.Join(sub, "far")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, name, want string }{
		{filepath.Join(dir, "link"), "./link", "./crenv"},
		{filepath.Join(dir, "link"), "link", filepath.Join(dir, "crenv")},
		{filepath.Join(sub, "far"), "./sub/far", filepath.Join(dir, "crenv")},
	} {
		got := InterpreterProblem(tc.path, tc.name, nil)
		if !strings.Contains(got, "(line 1 of "+tc.want+")") || !strings.HasSuffix(got, "(dos2unix "+tc.want+")") {
			t.Errorf("%s: InterpreterProblem = %q, want it to name %s", tc.name, got, tc.want)
		}
	}
}
