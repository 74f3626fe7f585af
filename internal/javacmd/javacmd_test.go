package javacmd

import (
	"os"
	"path/filepath"
	"slices"
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
// the value of --class-path=; any other word is none, and so is the
// program's.
func TestClassPaths(t *testing.T) {
	type at struct {
		i    int
		list string
	}
	for _, c := range []struct {
		command []string
		want    []at
	}{
		{[]string{"java", "-cp", "/opt/x.jar:.", "Bot"}, []at{{2, "/opt/x.jar:."}}},
		{[]string{"java", "-classpath", "lib/*", "Bot"}, []at{{2, "lib/*"}}},
		{[]string{"kotlin", "--class-path", ".", "Bot"}, []at{{2, "."}}},
		{[]string{"java", "--class-path=/opt/x.jar:.", "Bot"}, []at{{1, "/opt/x.jar:."}}},
		{[]string{"java", "-Xmx64m", "--class-path=", "-cp", "a:b", "Bot"}, []at{{2, ""}, {4, "a:b"}}},
		{[]string{"--class-path=x", "-cp"}, nil},
		{[]string{"java", "-jar", "bot.jar"}, nil},
		{[]string{"java", "--class-path=.", "Bot"}, []at{{1, "."}}},
		{nil, nil},
	} {
		var got []at
		for i, list := range ClassPaths(c.command) {
			got = append(got, at{i, list})
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("ClassPaths(%q) = %v, want %v", c.command, got, c.want)
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

func TestMissingThreadFlags(t *testing.T) {
	all := ThreadFlags
	for _, c := range []struct {
		command, env, want []string
	}{
		{[]string{"java", "-cp", ".", "Bot"}, nil, all},
		{[]string{"/usr/lib/jvm/bin/java", "-XX:+UseSerialGC", "-cp", ".", "Bot"}, nil, all[1:]},
		{append(append([]string{"java"}, all...), "-cp", ".", "Bot"), nil, nil},
		{[]string{"java", "-cp", ".", "Bot"}, []string{"JAVA_TOOL_OPTIONS=-XX:+UseSerialGC -XX:TieredStopAtLevel=1", "JDK_JAVA_OPTIONS=-XX:CICompilerCount=1"}, nil},
		{[]string{"java", "@jvm.args", "Bot"}, nil, nil},
		{[]string{"python3", "bot.py"}, nil, nil},
	} {
		if got := MissingThreadFlags(c.command, c.env); !slices.Equal(got, c.want) {
			t.Errorf("MissingThreadFlags(%q, %q) = %q, want %q", c.command, c.env, got, c.want)
		}
	}
}

func TestMaxHeap(t *testing.T) {
	for _, c := range []struct {
		args, env []string
		want      string
	}{
		{[]string{"java", "-cp", ".", "Bot"}, nil, ""},
		{[]string{"java", "-Xmx300m", "-cp", ".", "Bot"}, nil, "-Xmx300m"},
		{[]string{"java", "-cp", ".", "Bot"}, []string{"JAVA_TOOL_OPTIONS=-XX:MaxRAM=400m"}, "-XX:MaxRAM=400m"},
		{[]string{"java", "-XX:MaxHeapSize=64m", "Bot"}, []string{"JDK_JAVA_OPTIONS=-Xmx1g"}, "-XX:MaxHeapSize=64m"},
	} {
		if got := MaxHeap(c.args, c.env); got != c.want {
			t.Errorf("MaxHeap(%q, %q) = %q, want %q", c.args, c.env, got, c.want)
		}
	}
}
