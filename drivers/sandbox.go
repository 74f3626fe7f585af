package drivers

import (
	"bytes"
	"cmp"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/arbiter-contests/arbiter/internal/javacmd"
)

// What a sandboxed bot's command needs (see Sandbox), resolved when the
// plan is made and again, for what the plan cannot know (a house bot's
// executable), when the bot starts.

// SystemDirs are the top-level folders every sandbox binds read-only
// (or links, where the machine links them: /bin -> usr/bin).
var SystemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// InSystem reports whether path lies in a folder every sandbox binds.
func InSystem(path string) bool {
	path = filepath.Clean(path) // "/usr/../home" is not in /usr
	for _, d := range SystemDirs {
		if path == d || strings.HasPrefix(path, d+"/") {
			return true
		}
	}
	return false
}

// ResolveSandbox resolves what a bot's command needs inside the sandbox beside the
// system's folders and its dir: the program a version manager's shim
// would run (pyenv's python3 runs a bash script that forks; the sandbox
// runs the interpreter itself), the installations of its interpreters
// (following symbolic links and "#!" lines), and the files and folders
// its arguments name that exist: by absolute path, or by a path relative
// to dir that leads out of it (python3 ../common/bot.py), which the bot
// resolves from its working folder to the same place. A folder that holds
// dir is not bound for a relative path ("..", which would show the bot's
// neighbours). env is the bot's environment (PATH, PYENV_VERSION); dir its
// working folder. A program that cannot be found needs nothing: starting
// it fails later with a clear fault.
func ResolveSandbox(argv []string, dir string, env []string) Sandbox {
	return resolveSandbox(argv, dir, env, false)
}

// ResolveSubmitted is ResolveSandbox for a command that came with the
// bot's submission (Sandbox.Submitted): only the interpreters the PATH
// finds are resolved. A program named by a path that leads out of dir
// needs nothing (it is not shown, so its start fails), and the
// arguments, the "#!" lines and symbolic links of dir's files add
// nothing outside dir but what the PATH finds.
func ResolveSubmitted(argv []string, dir string, env []string) Sandbox {
	return resolveSandbox(argv, dir, env, true)
}

func resolveSandbox(argv []string, dir string, env []string, submitted bool) Sandbox {
	out := Sandbox{Submitted: submitted}
	if len(argv) == 0 {
		return out
	}
	getenv := func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return os.Getenv(k)
	}
	path := lookPath(argv[0], dir, getenv("PATH"))
	if path == "" {
		return out
	}
	if submitted && strings.Contains(argv[0], "/") && !Within(path, dir) && !InSystem(path) {
		return out
	}
	if real := shimTarget(path, dir, getenv); real != "" {
		out.Program, path = real, real
	}
	reads := map[string]bool{}
	// The files of dir are its author's, whoever wrote the command: a
	// symbolic link or "#!" line of theirs leads out of dir only to what
	// the organiser's PATH finds there too (a venv's python3, linked to
	// the interpreter a shim runs), not to another bot's folder.
	onPath := func(t string) bool {
		if r := evalSymlinks(t); r != "" {
			t = r
		}
		q := lookPath(filepath.Base(t), "/", getenv("PATH"))
		if q == "" {
			return false
		}
		if evalSymlinks(q) == t {
			return true
		}
		st := shimTarget(q, dir, getenv)
		return st != "" && (st == t || evalSymlinks(st) == t)
	}
	programNeeds(path, getenv("PATH"), dir, dir, onPath, reads, 0)
	if !submitted {
		for _, a := range commandPaths(argv, dir, env) {
			if p := argPath(a, dir); p != "" && !InSystem(p) {
				if _, err := os.Stat(p); err == nil {
					reads[p] = true
				}
			}
		}
	}
	for r := range reads {
		if !Within(r, dir) {
			out.Read = append(out.Read, r)
		}
	}
	sort.Strings(out.Read)
	out.Read = outermost(out.Read)
	return out
}

// commandPaths are the arguments of argv (a command) that may name
// paths, and the paths of the bot's own CLASSPATH (of env, not
// arbiter's): a Java class path (after -cp, -classpath or --class-path,
// or --class-path=...) is a list of paths joined by ':', each of which
// the sandbox must show, as it shows a path that is a word of its own
// (java -cp /opt/lib:. Bot). Java's wildcard entry (/opt/lib/*) names
// the jars of its folder, which are shown (classPathEntries).
func commandPaths(argv []string, dir string, env []string) []string {
	lists := maps.Collect(javacmd.ClassPaths(argv))
	var out []string
	for i := 1; i < len(argv); i++ {
		if list, ok := lists[i]; ok {
			out = append(out, classPathEntries(list, dir)...)
		} else {
			out = append(out, argv[i])
		}
	}
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "CLASSPATH="); ok {
			out = append(out, classPathEntries(v, dir)...)
		}
	}
	return out
}

// classPathEntries are the paths of a class path list, relative to dir
// or absolute: its entries, and for a wildcard the jars Java takes from
// its folder (javacmd.ClassPathJar), in name order, the regular files
// among them (through a link), as the bot's fingerprint hashes them. The
// folder itself is not: its other files and its subfolders are not in
// the fingerprint, so the bot must not read them.
func classPathEntries(list, dir string) []string {
	var out []string
	for _, e := range filepath.SplitList(list) {
		folder, ok := javacmd.Wildcard(e)
		if !ok {
			out = append(out, e)
			continue
		}
		if !filepath.IsAbs(folder) {
			if dir == "" {
				continue // relative to nothing known: bound as no relative path is
			}
			folder = filepath.Join(dir, folder)
		}
		if Within(folder, dir) {
			continue // the sandbox shows dir
		}
		entries, err := os.ReadDir(folder) // in name order
		if err != nil {
			continue // Java passes over a folder that is not there
		}
		for _, f := range entries {
			jar := filepath.Join(folder, f.Name())
			if fi, err := os.Stat(jar); err == nil && fi.Mode().IsRegular() && javacmd.ClassPathJar(f.Name()) {
				out = append(out, jar)
			}
		}
	}
	return out
}

// argPath is the path an argument of a bot's command may name, made
// absolute against dir, or "" when it names nothing to bind: a flag, a
// relative path inside dir (the sandbox shows dir), or one that leads to
// a folder holding dir.
func argPath(a, dir string) string {
	switch {
	case a == "" || strings.HasPrefix(a, "-"):
		return ""
	case filepath.IsAbs(a):
		return filepath.Clean(a)
	case dir == "":
		return ""
	}
	p := filepath.Join(dir, a)
	if Within(p, dir) || Within(dir, p) {
		return ""
	}
	return p
}

// lookPath finds a program the way exec does: with a slash, relative to
// dir; else in path.
func lookPath(prog, dir, path string) string {
	if strings.Contains(prog, "/") {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(dir, prog)
		}
		if fi, err := os.Stat(prog); err == nil && !fi.IsDir() {
			return prog
		}
		return ""
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// programNeeds adds to reads what path needs: the program itself, or
// its installation (see installation), and through symbolic links and a
// "#!" line its interpreter's. A file in own (the bot's folder) leads
// nowhere but to the system's folders and what onPath trusts: its
// symbolic link and "#!" line are the bot author's word, not the
// organiser's.
func programNeeds(path, pathEnv, dir, own string, onPath func(string) bool, reads map[string]bool, depth int) {
	if depth > 4 {
		return
	}
	submitted := own != "" && Within(path, own)
	for _, p := range []string{path, evalSymlinks(path)} {
		if submitted && p != path && p != "" && !InSystem(p) && !onPath(p) {
			continue
		}
		if p == "" || InSystem(p) {
			continue
		}
		if inst := installation(p, dir); inst != "" {
			reads[inst] = true
		} else {
			reads[p] = true
		}
	}
	interp := shebang(path)
	if len(interp) == 0 {
		return
	}
	next := interp[0]
	if submitted {
		// The submission's own "#!" line: an interpreter of the system's
		// folders, or "env NAME" (a bare name, which the organiser's
		// PATH resolves); nothing it could steer elsewhere (env's flags
		// take paths: -u, -C, -S).
		switch {
		case !InSystem(next):
			if onPath(next) {
				programNeeds(next, pathEnv, dir, own, onPath, reads, depth+1)
			}
			return
		case filepath.Base(next) == "env":
			if len(interp) < 2 || strings.HasPrefix(interp[1], "-") || strings.ContainsAny(interp[1], "/=") {
				return
			}
			programNeeds(lookPath(interp[1], "/", pathEnv), pathEnv, dir, own, onPath, reads, depth+1)
			return
		}
	}
	if filepath.Base(next) == "env" {
		next = ""
		for _, w := range interp[1:] {
			if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
				next = lookPath(w, "/", pathEnv)
				break
			}
		}
	}
	if next != "" {
		programNeeds(next, pathEnv, dir, own, onPath, reads, depth+1)
	}
}

func evalSymlinks(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return r
}

// installation is the folder a program in a bin folder was installed in
// (/root/.pyenv/versions/3.11.7 for its bin/python3.11), where an
// interpreter finds its library; "" when p is not in a bin folder, or
// when that folder would show too much: the bot's dir or the home folder
// inside it, or a folder right under /, /home or /tmp.
func installation(p, dir string) string {
	bin := filepath.Dir(p)
	if filepath.Base(bin) != "bin" {
		return ""
	}
	inst := filepath.Dir(bin)
	parent := filepath.Dir(inst)
	home := os.Getenv("HOME")
	if parent == "/" || parent == "/home" || parent == "/tmp" || parent == "/var/tmp" ||
		Within(dir, inst) || home != "" && Within(home, inst) {
		return ""
	}
	return inst
}

// shebang returns the words of a script's "#!" line, nil for a binary.
func shebang(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	if n < 2 || !bytes.HasPrefix(buf, []byte("#!")) {
		return nil
	}
	line, _, _ := bytes.Cut(buf[2:n], []byte("\n"))
	return strings.Fields(string(line))
}

// shimTarget is the program a version manager's shim (pyenv, rbenv,
// nodenv: <root>/shims/<name>) runs, found the way the manager finds it:
// the <MANAGER>_VERSION variable, else a .<lang>-version file in dir or
// above, else <root>/version; "" when path is no shim or the version is
// not installed.
func shimTarget(path, dir string, getenv func(string) string) string {
	shims := filepath.Dir(path)
	root := filepath.Dir(shims)
	if filepath.Base(shims) != "shims" {
		return ""
	}
	manager := strings.TrimPrefix(filepath.Base(root), ".")
	lang := map[string]string{"pyenv": "python", "rbenv": "ruby", "nodenv": "node"}[manager]
	if lang == "" {
		return ""
	}
	version := getenv(strings.ToUpper(manager) + "_VERSION")
	for d := dir; version == "" && d != ""; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "."+lang+"-version")); err == nil {
			version = string(b)
		}
		if d == "/" {
			break
		}
	}
	if version == "" {
		b, _ := os.ReadFile(filepath.Join(root, "version"))
		version = string(b)
	}
	name := filepath.Base(path)
	for _, v := range strings.FieldsFunc(version, func(r rune) bool { return r == ':' || r == '\n' || r == ' ' || r == '\t' }) {
		if strings.HasPrefix(v, "#") {
			continue
		}
		if v == "system" {
			var rest []string
			for _, d := range filepath.SplitList(getenv("PATH")) {
				if filepath.Clean(d) != shims {
					rest = append(rest, d)
				}
			}
			return lookPath(name, "/", strings.Join(rest, string(filepath.ListSeparator)))
		}
		if strings.Contains(v, "/") || v == ".." || v == "." {
			// Not a version's name (pyenv refuses them too: a
			// .python-version could otherwise point anywhere).
			continue
		}
		p := filepath.Join(root, "versions", v, "bin", name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// IsSandboxTmp reports whether dir, its symbolic links resolved, is /tmp
// itself, which no sandboxed bot may have as its folder: the sandbox
// mounts the bot's private /tmp over it, so the bot would not see its
// files there and could never start, and a run would watch all of the
// machine's shared /tmp as the bot's files. The configuration's check
// (config.CheckSandboxDir), a saved plan's and the sandbox's own, at the
// bot's start, are this one.
func IsSandboxTmp(dir string) bool {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return filepath.Clean(dir) == "/tmp"
}

// Within reports whether path is dir or lies inside it.
func Within(path, dir string) bool {
	if dir == "" {
		return false
	}
	path, dir = filepath.Clean(path), filepath.Clean(dir) // "dir/../x" is not in dir
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// Shows reports whether a bot whose folder is dir sees path (absolute,
// its symbolic links resolved) in the sandbox s: the system's folders,
// its folder, and what s binds for its command (Read, Program).
func (s Sandbox) Shows(path, dir string) bool {
	if InSystem(path) || Within(path, dir) || s.Program != "" && path == s.Program {
		return true
	}
	for _, r := range s.Read {
		if Within(path, r) {
			return true
		}
	}
	return false
}

// Link is a symbolic link and the file it leads to; Through, when set, is
// a folder on its way that the sandbox does not show (walkShown).
type Link struct{ Path, Target, Through string }

// maxLinkWalk bounds the entries of a folder HiddenLinks looks through.
const maxLinkWalk = 10000

// HiddenLinks are the symbolic links of the folder dir (and its
// sub-folders, the first maxLinkWalk entries in name order) that lead out of it
// to an existing file that the sandbox s of a bot in dir does not show
// (Shows): the bot sees the link, but opening it fails. The files of a
// bot's folder are its author's, so a link leads only where the
// sandbox would show the bot anyway (see programNeeds).
func HiddenLinks(dir string, s Sandbox) []Link {
	var out []Link
	n := 0
	// The folder itself may be reached through a link (/home/course ->
	// /data/course): a link inside it resolves under its real path.
	real := cmp.Or(evalSymlinks(dir), dir)
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if n++; err != nil || n > maxLinkWalk {
			return filepath.SkipAll
		}
		if d.Type()&os.ModeSymlink == 0 {
			return nil
		}
		if l, ok := s.hiddenLink(p, dir, real); ok {
			out = append(out, l)
		}
		return nil
	})
	return out
}

// hiddenLink is the link at p, in the folder dir of a bot (real: dir,
// its links resolved), when it leads out of dir to an existing file
// that the bot's sandbox s does not show, or on its way through a
// folder s does not show.
func (s Sandbox) hiddenLink(p, dir, real string) (Link, bool) {
	target := evalSymlinks(p)
	switch {
	case target == "":
		return Link{}, false
	case !s.Shows(target, dir) && !Within(target, real):
		return Link{Path: p, Target: target}, true
	}
	if through := s.walkHidden(p, dir); through != "" {
		return Link{Path: p, Target: target, Through: through}, true
	}
	return Link{}, false
}

// CommandLinks are the symbolic links of the folder dir that command
// names, as a file or as a folder on a file's way (bot.py, lib/x.jar
// with lib a link; its program by a path with a slash, its arguments
// and the paths inside them, see WordPaths), which lead out of dir to
// what the sandbox s of a bot in dir does not show (as HiddenLinks
// finds them, without looking through the whole folder).
func CommandLinks(command []string, dir string, s Sandbox) []Link {
	dir = filepath.Clean(dir)
	real := cmp.Or(evalSymlinks(dir), dir)
	seen := map[string]bool{}
	var out []Link
	for i, w := range command {
		if i == 0 && !strings.Contains(w, "/") {
			continue // looked up on PATH, not in dir
		}
		for _, p := range WordPaths(w) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			for ; p != dir && Within(p, dir) && !seen[p]; p = filepath.Dir(p) {
				seen[p] = true
				if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					continue
				}
				if l, ok := s.hiddenLink(p, dir, real); ok {
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// WordPaths are the paths that a word of a bot's command may name: the
// word, the value it gives after its first "=" (--model=dir/w.bin,
// -Dlib=native), and the entries of a list joined by ':' in either
// (-cp bin:lib/x.jar, -javaagent:agent.jar), a Java wildcard entry
// (lib/*) by its folder. A word may name no file at all: only a path
// that is there counts for what looks at them. An option whose value
// follows its letter in one word (-Ilib) is not read: its value cannot
// be told from a flag (-cp would name "p").
func WordPaths(w string) []string {
	forms := []string{w}
	if _, v, ok := strings.Cut(w, "="); ok {
		forms = append(forms, v)
	}
	out := []string{w}
	for _, f := range forms {
		for _, e := range filepath.SplitList(f) {
			if dir, ok := javacmd.Wildcard(e); ok {
				e = dir
			}
			if e != "" && e != w {
				out = append(out, e)
			}
		}
	}
	return out
}

// walkHidden is the first folder that the link at path passes through on
// its way, as the kernel walks its text, that the sandbox s of a bot in
// dir does not show (bot.py -> ../a/../c/real.py goes through ../a,
// another player's folder, which is not there in the sandbox, though the
// file it ends at is); "" when it shows them all. A folder on the way must
// be shown, or lie on the way to what is (onTheWay).
func (s Sandbox) walkHidden(path, dir string) string {
	text, err := os.Readlink(path)
	if err != nil {
		return ""
	}
	cur := filepath.Dir(path)
	if filepath.IsAbs(text) {
		cur = "/"
	}
	parts := strings.Split(text, "/")
	for i, c := range parts {
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
		default:
			cur = filepath.Join(cur, c)
		}
		if i == len(parts)-1 {
			break // the end of the walk: the target, judged by Shows
		}
		if !s.Shows(cur, dir) && !s.onTheWay(cur, dir) {
			return cur
		}
	}
	return ""
}

// onTheWay reports whether the folder path is one above something the
// sandbox s of a bot in dir shows (its folder, what it binds for the
// command): the sandbox's root holds those folders on the way to it.
func (s Sandbox) onTheWay(path, dir string) bool {
	if Within(dir, path) || s.Program != "" && Within(s.Program, path) {
		return true
	}
	for _, r := range s.Read {
		if Within(r, path) {
			return true
		}
	}
	return false
}

// outermost drops the paths of a sorted list that lie inside another.
func outermost(paths []string) []string {
	var out []string
	for _, p := range paths {
		if len(out) > 0 && Within(p, out[len(out)-1]) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// WithBotDir is l with the bot's dir among what its sandbox may read
// (when it has one): a per-move game runs its bots in the game's
// folders, not in their dirs, which the sandbox holds only when told.
func (l Limits) WithBotDir(dir string) Limits {
	if sb := l.Sandbox; sb != nil {
		c := *sb
		c.Read = append(slices.Clone(sb.Read), dir)
		l.Sandbox = &c
	}
	return l
}
