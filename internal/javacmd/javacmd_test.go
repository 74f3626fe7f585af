package javacmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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
		// The words after the class, the jar or the module are the bot's
		// arguments, not the JVM's options, and an @ among them is one.
		{append([]string{"java", "-cp", ".", "Bot"}, all...), nil, all},
		{append([]string{"java", "-jar", "bot.jar"}, all...), nil, all},
		{append([]string{"java", "-m", "bot/bot.Main"}, all...), nil, all},
		{append([]string{"java", "Bot.java"}, all...), nil, all},
		{[]string{"java", "-jar", "bot.jar", "@moves.txt"}, nil, all},
		{[]string{"java", "-cp", ".", "Bot"}, []string{"JDK_JAVA_OPTIONS=@jvm.args"}, nil},
		// Of two entries of one variable the last counts.
		{[]string{"java", "-cp", ".", "Bot"}, []string{"JAVA_TOOL_OPTIONS=" + strings.Join(all, " "), "JAVA_TOOL_OPTIONS=-Xss1m"}, all},
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
		// A heap option sizes the heap whatever -XX:MaxRAM= says.
		{[]string{"java", "-Xmx300m", "-XX:MaxRAM=400m", "Bot"}, nil, "-Xmx300m"},
		// The bot's arguments are not the JVM's options.
		{[]string{"java", "-cp", ".", "Bot", "-Xmx300m"}, nil, ""},
		{[]string{"java", "-Xmx64m", "-jar", "bot.jar", "-Xmx300m"}, nil, "-Xmx64m"},
		{[]string{"java", "-Xmx64m", "-jar", "bot.jar", "@moves.txt"}, nil, "-Xmx64m"},
		{[]string{"java", "@jvm.args", "-Xmx64m", "Bot"}, nil, ""},
		{[]string{"java", "-cp", ".", "Bot"}, []string{"JDK_JAVA_OPTIONS=-Xmx1g", "JDK_JAVA_OPTIONS=-Xss1m"}, ""},
		{[]string{"java", "-XX:MaxHeapSize=64m", "Bot"}, []string{"JDK_JAVA_OPTIONS=-Xmx1g"}, "-XX:MaxHeapSize=64m"},
	} {
		if got := MaxHeap(c.args, c.env); got != c.want {
			t.Errorf("MaxHeap(%q, %q) = %q, want %q", c.args, c.env, got, c.want)
		}
	}
}

// A java command's options are the words before its class, source file,
// jar or module, after those of JAVA_TOOL_OPTIONS and JDK_JAVA_OPTIONS
// (the last entry of each); an @argfile among them makes them unknown.
func TestOptions(t *testing.T) {
	for _, c := range []struct {
		command, env, want []string
		ok                 bool
	}{
		{[]string{"java", "-Xmx64m", "-cp", ".", "Bot", "-Xss1m"}, nil, []string{"-Xmx64m", "-cp", "."}, true},
		{[]string{"java", "-p", "mods", "-m", "bot/bot.Main", "-v"}, nil, []string{"-p", "mods"}, true},
		{[]string{"java", "--module=bot/bot.Main", "-v"}, nil, nil, true},
		{[]string{"java", "--source", "17", "Bot.java", "-v"}, nil, []string{"--source", "17"}, true},
		{[]string{"java", "-d", "java.base"}, nil, []string{"-d", "java.base"}, true},
		{[]string{"java", "-Xss1m"}, []string{"JDK_JAVA_OPTIONS=-Xmx1g", "JAVA_TOOL_OPTIONS=-Xmx2g -Xss2m", "JAVA_TOOL_OPTIONS=-Xmx3g"},
			[]string{"-Xmx3g", "-Xmx1g", "-Xss1m"}, true},
		{[]string{"java", "-Xss1m", "@jvm.args", "Bot"}, nil, nil, false},
		{[]string{"java", "Bot", "@moves.txt"}, nil, nil, true},
		{[]string{"java", "Bot"}, []string{"JDK_JAVA_OPTIONS=@jvm.args"}, nil, false},
		{[]string{"python3", "-Xmx1g"}, nil, nil, false},
		{nil, nil, nil, false},
	} {
		if got, ok := Options(c.command, c.env); !slices.Equal(got, c.want) || ok != c.ok {
			t.Errorf("Options(%q, %q) = %q, %v, want %q, %v", c.command, c.env, got, ok, c.want, c.ok)
		}
	}
}

// A shell's -c script that is java's simple command is read as the java
// command (after exec too); a script with anything a shell expands, a
// list or a redirection, or that runs another program, is not.
func TestWrapped(t *testing.T) {
	for _, c := range []struct {
		command []string
		want    []string
	}{
		{[]string{"sh", "-c", "java -Xmx100m -cp . Bot"}, []string{"java", "-Xmx100m", "-cp", ".", "Bot"}},
		{[]string{"/bin/bash", "-c", `exec /usr/bin/java -cp 'my dir' "Bot" a\ b`}, []string{"/usr/bin/java", "-cp", "my dir", "Bot", "a b"}},
		{[]string{"dash", "-c", "  java   Bot  "}, []string{"java", "Bot"}},
		{[]string{"sh", "-c", "java -cp $HOME Bot"}, nil},
		{[]string{"sh", "-c", `java -cp "$HOME" Bot`}, nil},
		{[]string{"sh", "-c", "cd bot; java Bot"}, nil},
		{[]string{"sh", "-c", "java Bot > log"}, nil},
		{[]string{"sh", "-c", "JAVA_TOOL_OPTIONS=-Xmx1g java Bot"}, nil},
		{[]string{"sh", "-c", "java -cp 'lib/*' Bot"}, []string{"java", "-cp", "lib/*", "Bot"}},
		{[]string{"sh", "-c", "java -cp lib/* Bot"}, nil},
		{[]string{"sh", "-c", "python3 bot.py"}, nil},
		{[]string{"sh", "-c", "java 'Bot"}, nil},
		{[]string{"sh", "run.sh"}, nil},
		{[]string{"./run.sh"}, nil},
		{[]string{"java", "Bot"}, nil},
	} {
		if got := Wrapped(c.command); !slices.Equal(got, c.want) {
			t.Errorf("Wrapped(%q) = %q, want %q", c.command, got, c.want)
		}
	}
}

// A wrapper script of the bot's whose one command is java's simple
// command (after exec, ending in "$@" or not) is read as the java
// command, run by itself (its "#!" line a shell's, through env or not)
// or by a shell (sh run.sh); a script with another line that a shell
// runs (a variable, a cd, a second command), an expansion, another "#!"
// line or none (run by itself), or one reached through a link, is not.
func TestScript(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"run.sh":   "#!/bin/sh\n# the bot\n\nexec java -Xmx100m -cp . Bot \"$@\"\n",
		"env.sh":   "#!/usr/bin/env bash\njava -cp 'my dir' Bot\n",
		"bare.sh":  "exec java -cp . Bot\n",
		"set.sh":   "#!/bin/sh\nX=1\nexec java -cp . Bot\n",
		"cd.sh":    "#!/bin/sh\ncd bin\nexec java -cp . Bot\n",
		"two.sh":   "#!/bin/sh\njava -cp . Bot\njava -cp . Bot\n",
		"var.sh":   "#!/bin/sh\nexec java $OPTS -cp . Bot\n",
		"args.sh":  "#!/bin/sh\nexec java \"$@\" -cp . Bot\n",
		"more.sh":  "#!/bin/sh\nexec java -cp . \\\n  Bot\n",
		"py.sh":    "#!/usr/bin/python3\nexec java -cp . Bot\n",
		"flag.sh":  "#!/bin/sh -e\nexec java -cp . Bot\n",
		"crlf.sh":  "#!/bin/sh\r\nexec java -cp . Bot\r\n",
		"other.sh": "#!/bin/sh\nexec python3 bot.py\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A folder of the bot's that is a link (to another folder holding a
	// plain run.sh, here its own) is not followed, as the script itself
	// is not when it is one.
	if err := os.Symlink(".", filepath.Join(dir, "lib")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("run.sh", filepath.Join(dir, "link.sh")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		command []string
		want    []string
	}{
		{[]string{"./run.sh", "a"}, []string{"java", "-Xmx100m", "-cp", ".", "Bot", "a"}},
		{[]string{filepath.Join(dir, "run.sh")}, []string{"java", "-Xmx100m", "-cp", ".", "Bot"}},
		{[]string{"sh", "run.sh", "a", "b"}, []string{"java", "-Xmx100m", "-cp", ".", "Bot", "a", "b"}},
		{[]string{"./env.sh", "a"}, []string{"java", "-cp", "my dir", "Bot"}},
		{[]string{"bash", "./bare.sh"}, []string{"java", "-cp", ".", "Bot"}},
		{[]string{"./bare.sh"}, nil}, // no "#!": exec fails
		{[]string{"sh", "-e", "run.sh"}, nil},
		{[]string{"run.sh"}, nil}, // looked up on PATH
		{[]string{"./missing.sh"}, nil},
		{[]string{"./set.sh"}, nil},
		{[]string{"./cd.sh"}, nil},
		{[]string{"./two.sh"}, nil},
		{[]string{"./var.sh"}, nil},
		{[]string{"./args.sh"}, nil},
		{[]string{"./more.sh"}, nil},
		{[]string{"./py.sh"}, nil},
		{[]string{"./flag.sh"}, nil},
		{[]string{"./crlf.sh"}, nil},
		{[]string{"./other.sh"}, nil},
		{[]string{"./link.sh"}, nil},
		{[]string{"./lib/run.sh"}, nil},
		{[]string{"sh", "lib/run.sh"}, nil},
		{[]string{filepath.Join(dir, "lib", "run.sh")}, nil},
	} {
		got, script := Script(c.command, dir)
		if !slices.Equal(got, c.want) {
			t.Errorf("Script(%q) = %q, want %q", c.command, got, c.want)
		}
		if (script != "") != (c.want != nil) {
			t.Errorf("Script(%q) names the script %q", c.command, script)
		}
	}
	if got, _ := Launched([]string{"./run.sh"}, dir); len(got) == 0 || got[0] != "java" {
		t.Errorf("Launched(./run.sh) = %q, want its java command", got)
	}
}
