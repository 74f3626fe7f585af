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

// A class path is the word after -cp, -classpath or --class-path, or
// the value of --class-path=; any other word is none.
func TestClassPathList(t *testing.T) {
	for _, c := range []struct {
		prev, a, want string
		ok            bool
	}{
		{"-cp", "/opt/x.jar:.", "/opt/x.jar:.", true},
		{"-classpath", "lib/*", "lib/*", true},
		{"--class-path", ".", ".", true},
		{"", "--class-path=/opt/x.jar:.", "/opt/x.jar:.", true},
		{"-Xmx64m", "--class-path=", "", true},
		{"", "-cp", "", false},
		{"-jar", "bot.jar", "", false},
		{"--class-path=.", "Bot", "", false},
	} {
		if got, ok := ClassPath(c.prev, c.a); got != c.want || ok != c.ok {
			t.Errorf("ClassPath(%q, %q) = %q, %v, want %q, %v", c.prev, c.a, got, ok, c.want, c.ok)
		}
	}
}

// Java's wildcard entry names the jars of its folder.
func TestWildcard(t *testing.T) {
	for _, c := range []struct {
		entry, dir string
		ok         bool
	}{
		{"lib/*", "lib", true},
		{"/usr/share/java/*", "/usr/share/java", true},
		{"*", "", true},
		{"/*", "/", true},
		{"lib", "", false},
		{"lib/*.jar", "", false},
		{"x.jar", "", false},
	} {
		if dir, ok := Wildcard(c.entry); dir != c.dir || ok != c.ok {
			t.Errorf("Wildcard(%q) = %q, %v, want %q, %v", c.entry, dir, ok, c.dir, c.ok)
		}
	}
	for name, want := range map[string]bool{"a.jar": true, "b.JAR": true, "c.zip": false, "jar": false} {
		if ClassPathJar(name) != want {
			t.Errorf("ClassPathJar(%q) = %v", name, !want)
		}
	}
}
