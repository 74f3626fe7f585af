package drivers

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The files and folders a bot's arguments name are bound in its sandbox,
// by absolute path or by a relative one that leads out of its dir; not
// what lies in its dir (the sandbox shows it) nor a folder holding it
// (that would show the bot's neighbours).
func TestResolveSandboxBindsArguments(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "bot")
	for _, d := range []string{dir, filepath.Join(root, "common")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(dir, "x.py"), filepath.Join(root, "common", "lib.py"), filepath.Join(root, "abs.py")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		arg  string
		want []string
	}{
		{"a relative path out of its dir", "../common/lib.py", []string{filepath.Join(root, "common", "lib.py")}},
		{"a relative folder out of its dir", "../common", []string{filepath.Join(root, "common")}},
		{"an absolute path", filepath.Join(root, "abs.py"), []string{filepath.Join(root, "abs.py")}},
		{"a file in its dir", "x.py", nil},
		{"its dir", ".", nil},
		{"the folder that holds its dir", "..", nil},
		{"a path that does not exist", "../nothing.py", nil},
		{"a flag", "-u", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ResolveSandbox([]string{"/usr/bin/python3", tc.arg}, dir, nil).Read
			if !slices.Equal(got, tc.want) {
				t.Errorf("ResolveSandbox(python3 %s).Read = %q, want %q", tc.arg, got, tc.want)
			}
		})
	}
}

// A Java class path is a list of paths joined by ':' (after -cp,
// -classpath, --class-path or in --class-path=, and the bot's own
// CLASSPATH): each path out of the bot's dir is shown, as a path that is
// an argument of its own is; a submitted command's still are not.
func TestResolveSandboxBindsClassPath(t *testing.T) {
	root := t.TempDir()
	dir, lib, jar := filepath.Join(root, "bot"), filepath.Join(root, "lib"), filepath.Join(root, "x.jar")
	for _, d := range []string{dir, lib} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Java's wildcard lib/* takes the files of lib whose names end in .jar
	// or .JAR, not the other files, nor a subfolder's, nor a folder so
	// named: the sandbox shows those jars (in name order), not lib, whose
	// other files the bot's fingerprint does not hash. A link to a jar is
	// the jar.
	for _, d := range []string{filepath.Join(lib, "sub"), filepath.Join(lib, "d.jar")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{jar, filepath.Join(lib, "b.JAR"), filepath.Join(lib, "a.jar"), filepath.Join(lib, "notes.txt"), filepath.Join(lib, "sub", "c.jar")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(jar, filepath.Join(lib, "l.jar")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(lib, "sub"), filepath.Join(lib, "s.jar")); err != nil {
		t.Fatal(err)
	}
	jars := []string{filepath.Join(lib, "a.jar"), filepath.Join(lib, "b.JAR"), filepath.Join(lib, "l.jar")}
	for _, tc := range []struct {
		name string
		args []string
		env  []string
		want []string
	}{
		{"-cp", []string{"-cp", lib + ":.", "Bot"}, nil, []string{lib}},
		{"-classpath", []string{"-classpath", ".:" + jar + ":" + lib, "Bot"}, nil, []string{lib, jar}},
		{"--class-path", []string{"--class-path", lib + ":../lib", "Bot"}, nil, []string{lib}},
		{"--class-path=", []string{"--class-path=" + jar + ":.", "Bot"}, nil, []string{jar}},
		{"CLASSPATH", []string{"Bot"}, []string{"CLASSPATH=" + lib + ":."}, []string{lib}},
		{"a wildcard shows its folder's jars", []string{"-cp", lib + "/*:.", "Bot"}, nil, jars},
		{"a relative wildcard out of its dir", []string{"-cp", "../lib/*", "Bot"}, nil, jars},
		{"CLASSPATH's wildcard", []string{"Bot"}, []string{"CLASSPATH=" + lib + "/*"}, jars},
		{"a wildcard of a folder that is not there", []string{"-cp", root + "/nolib/*", "Bot"}, nil, nil},
		{"a colon elsewhere is one path", []string{"-Dx=1", lib + ":.", "Bot"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argv := append([]string{"/bin/sh"}, tc.args...)
			if got := ResolveSandbox(argv, dir, tc.env).Read; !slices.Equal(got, tc.want) {
				t.Errorf("ResolveSandbox(%q).Read = %q, want %q", argv, got, tc.want)
			}
			if got := ResolveSubmitted(argv, dir, tc.env).Read; len(got) > 0 {
				t.Errorf("ResolveSubmitted(%q).Read = %q, want nothing", argv, got)
			}
		})
	}
}

// A submitted command (a bots_from player's info.txt) is shown nothing
// outside its folder that it names itself: not the files its arguments
// name, nor a program, an absolute "#!" interpreter or a symbolic link
// that leads out of its folder (to another player's, say); the same
// command written by the organiser is.
func TestResolveSubmittedShowsNothingItNames(t *testing.T) {
	root := t.TempDir()
	dir, other := filepath.Join(root, "players", "a"), filepath.Join(root, "players", "b")
	for _, d := range []string{dir, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, src string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte(src), mode); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(other, "bot.py")
	write(secret, "print(1)\n", 0o644)
	interp := filepath.Join(other, "interp")
	write(interp, "#!/bin/sh\n", 0o755)
	write(filepath.Join(dir, "script"), "#!"+interp+"\n", 0o755)
	if err := os.Symlink(secret, filepath.Join(dir, "link.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(interp, filepath.Join(dir, "linkbin")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		argv []string
		// organiser: the organiser's words are followed. A "#!" line or
		// a link of the bot's folder is its author's either way.
		organiser bool
	}{
		{"an absolute argument", []string{"/usr/bin/python3", secret}, true},
		{"a relative argument", []string{"/usr/bin/python3", "../b/bot.py"}, true},
		{"a program out of its folder", []string{interp}, true},
		{"a program out of its folder, relative", []string{"../b/interp"}, true},
		{"a #! interpreter out of its folder", []string{"./script"}, false},
		{"a link out of its folder", []string{"./linkbin"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ResolveSubmitted(tc.argv, dir, nil); len(got.Read) != 0 || got.Program != "" || !got.Submitted {
				t.Errorf("ResolveSubmitted(%q) = %+v, want nothing to read, marked submitted", tc.argv, got)
			}
			if got := ResolveSandbox(tc.argv, dir, nil); (len(got.Read) > 0) != tc.organiser {
				t.Errorf("ResolveSandbox(%q).Read = %q, want something bound: %v", tc.argv, got.Read, tc.organiser)
			}
		})
	}
	// A link to what the PATH finds (a venv's python3 linked to the
	// interpreter) is followed: the organiser's PATH vouches for it.
	tools := filepath.Join(root, "tools")
	if err := os.MkdirAll(filepath.Join(tools, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(tools, "bin", "interp9"), "#!/bin/sh\n", 0o755)
	if err := os.Symlink(filepath.Join(tools, "bin", "interp9"), filepath.Join(dir, "venvbin")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + filepath.Join(tools, "bin") + ":/usr/bin:/bin"}
	for _, got := range []Sandbox{ResolveSubmitted([]string{"./venvbin"}, dir, env), ResolveSandbox([]string{"./venvbin"}, dir, env)} {
		if !slices.Equal(got.Read, []string{tools}) {
			t.Errorf("a link to a program on PATH: Read = %q, want %q", got.Read, []string{tools})
		}
	}
}

// What a submission's own files could steer: a "#!" line through env's
// flags (-S -u PATH names a path env never runs), a path that climbs out
// of the system's folders (/usr/../), a .python-version naming a folder
// rather than a version. None binds the other player's folder.
func TestResolveSubmittedIsNotSteered(t *testing.T) {
	root := t.TempDir()
	dir, other := filepath.Join(root, "players", "a"), filepath.Join(root, "players", "b")
	for _, d := range []string{dir, filepath.Join(other, "bin"), filepath.Join(root, ".pyenv", "shims"), filepath.Join(root, ".pyenv", "versions")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, src string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte(src), mode); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(other, "bin", "python3")
	write(victim, "#!/bin/sh\n", 0o755)
	write(filepath.Join(dir, "envflags"), "#!/usr/bin/env -S -u "+victim+" python3\n", 0o755)
	write(filepath.Join(dir, "dotdot"), "#!/usr/.."+victim+"\n", 0o755)
	shim := filepath.Join(root, ".pyenv", "shims", "python3")
	write(shim, "#!/bin/sh\n", 0o755)
	write(filepath.Join(dir, ".python-version"), "../../players/b\n", 0o644)
	for _, tc := range []struct {
		name string
		argv []string
	}{
		{"env's flags", []string{"./envflags"}},
		{"a path out of /usr", []string{"./dotdot"}},
		{"a .python-version that names a folder", []string{"python3", "bot.py"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ResolveSubmitted(tc.argv, dir, []string{"PATH=" + filepath.Dir(shim) + ":/usr/bin:/bin"})
			for _, r := range append(got.Read, got.Program) {
				if r != "" && Within(r, other) {
					t.Errorf("ResolveSubmitted(%q) = %+v: shows the other player's %s", tc.argv, got, r)
				}
			}
		})
	}
}
