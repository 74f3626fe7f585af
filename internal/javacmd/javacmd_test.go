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
		// The launcher's options whose value is the next word (java
		// --help, --help-extra): the value is not the class.
		{[]string{"java", "-p", "mods", "Bot"}, "Bot"},
		{[]string{"java", "--module-path", "mods", "Bot"}, "Bot"},
		{[]string{"java", "--upgrade-module-path", "mods", "Bot"}, "Bot"},
		{[]string{"java", "--add-modules", "jdk.incubator.vector", "Bot"}, "Bot"},
		{[]string{"java", "--enable-native-access", "ALL-UNNAMED", "Bot"}, "Bot"},
		{[]string{"java", "--limit-modules", "java.base", "Bot"}, "Bot"},
		{[]string{"java", "--add-reads", "m=ALL-UNNAMED", "Bot"}, "Bot"},
		{[]string{"java", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "Bot"}, "Bot"},
		{[]string{"java", "--patch-module", "java.base=patch", "Bot"}, "Bot"},
		{[]string{"java", "--add-modules=jdk.incubator.vector", "Bot"}, "Bot"},
		{[]string{"java", "--enable-native-access", "ALL-UNNAMED", "-Xss1m", "Bot"}, "Bot"},
		// Describes a module and exits: no class runs.
		{[]string{"java", "-d", "java.base"}, ""},
		{[]string{"java", "--describe-module", "java.base"}, ""},
		{[]string{"python3", "Bot"}, ""},
		{[]string{"java"}, ""},
	} {
		if got := MainClass(c.command, dir); got != c.want {
			t.Errorf("MainClass(%q) = %q, want %q", c.command, got, c.want)
		}
	}
}

func TestClassPath(t *testing.T) {
	for _, c := range []struct {
		env []string
		abs bool
	}{
		{nil, false},
		{[]string{"CLASSPATH=."}, false},
		{[]string{"CLASSPATH=/abs/classes"}, true},
		{[]string{"CLASSPATH=lib:/opt/bot.jar"}, true},
		{[]string{"CLASSPATH=/abs", "CLASSPATH=."}, false}, // the last counts
		{[]string{"MYCLASSPATH=/abs"}, false},
	} {
		if got := AbsoluteClassPath(EnvClassPath(c.env)); got != c.abs {
			t.Errorf("AbsoluteClassPath(EnvClassPath(%q)) = %v, want %v", c.env, got, c.abs)
		}
	}
}
