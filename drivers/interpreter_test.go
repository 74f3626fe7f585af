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
