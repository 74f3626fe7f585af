package javacmd

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMainClass(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bot.jar"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		command []string
		want    string
	}{
		{[]string{"java", "Bot"}, "Bot"},
		{[]string{"/usr/bin/java", "-Xmx64m", "Bot", "arg"}, "Bot"},
		{[]string{"java", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "Bot"}, "Bot"},
		{[]string{"java", "-cp", ".", "Bot"}, ""},
		{[]string{"java", "--class-path=.", "Bot"}, ""},
		{[]string{"java", "-jar", "bot.jar"}, ""},
		{[]string{"java", "Bot.java"}, ""},
		{[]string{"java", "bot.jar"}, ""},
		{[]string{"java", "pkg/Bot"}, ""},
		// An argument file holds options and maybe the class: unknown.
		{[]string{"java", "@args", "Bot"}, ""},
		{[]string{"python3", "Bot"}, ""},
		{[]string{"java"}, ""},
	} {
		if got := MainClass(c.command, dir); got != c.want {
			t.Errorf("MainClass(%q) = %q, want %q", c.command, got, c.want)
		}
	}
}
