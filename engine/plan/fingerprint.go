package plan

import "io/fs"

import "strings"

// Fingerprint is a content hash of what a bot runs, recorded in the plan so
// that a results directory can tell when a bot changed between two runs
// (see package engine/fingerprint, which computes it). It is not part of
// the plan's Hash: the hash identifies the tournament, fingerprints the
// state of its bots.
type Fingerprint struct {
	// Hash is "sha256:<hex>" of Files (path, mode and content of each) and
	// Program, or for a house bot of its name and arbiter's build.
	Hash string `json:"hash"`
	// House is set for a house bot: "<driver>/<bot> of arbiter <build>".
	House string `json:"house,omitempty"`
	// Root is the absolute directory that the bot's relative dir was taken
	// from: the configuration's directory, or a saved plan's -root. It is
	// empty for a bot whose dir is absolute.
	Root string `json:"root,omitempty"`
	// Dir is the absolute directory that was hashed and that the bot runs
	// in.
	Dir string `json:"dir,omitempty"`
	// Files are the files of Dir, recursively in path order (paths
	// relative, slash separated), then the files named by the command that
	// lie outside Dir (absolute paths).
	Files []FileSum `json:"files,omitempty"`
	// Program is the file that runs in place of the program the bot's
	// command names when that is a version manager's shim (pyenv's
	// python3): in the sandbox, the interpreter its plan resolved
	// (drivers.Sandbox.Program), which the sandbox runs; outside it, the
	// one the shim chooses when the fingerprint is taken, resolved the
	// same way, which the run then runs in the shim's place (a bot's seat
	// runs Program either way: engine's runsCommand). Its file is among
	// Files, by its absolute path, and Hash covers which file it is: the
	// same command may run another interpreter when PYENV_VERSION, a
	// .python-version or the manager's global version says another.
	Program string `json:"program,omitempty"`
	// Resolved is the file of Dir (relative, slash separated) that the
	// program the bot's command names by a bare word resolved to on PATH,
	// when it lies in Dir: Files hold it as one of Dir's, which does not
	// say that it is the one that runs, and Hash covers which file it is.
	// A program resolved outside Dir is not named here: it is the file of
	// Files outside Dir by that name (see engine's compareBot), as a
	// fingerprint recorded before this field says it too, and so hashes
	// as it always did.
	Resolved string `json:"resolved,omitempty"`
	// Skipped says what was left out of Files and why, one line each.
	Skipped []string `json:"skipped,omitempty"`
	// Config are the configuration's files (its .hcl files and -var-files)
	// that lie in Dir, relative to it and slash separated. They are never
	// hashed, and because the plan records them, a run of the saved plan,
	// where the configuration need not be at hand, leaves out the same
	// files as a run of the configuration.
	Config []string `json:"config,omitempty"`
	// LeftOut are the files of Dir that a rule left out of Files (the
	// configuration's, saved plans), by relative path, with their absolute
	// paths now. Not saved: a fingerprint recorded by an arbiter that
	// still hashed such a file goes on comparing it (see
	// engine.CompareFingerprints).
	LeftOut map[string]string `json:"-"`
	// Stats are the stat signatures (fingerprint.Signature) of Files, by
	// path, taken just before each was hashed. Not saved: a run compares
	// them before and after each match, to notice cheaply a bot changed
	// while it goes on (see engine's watch).
	Stats map[string]FileStat `json:"-"`
}

// FileSum is one file of a fingerprint.
type FileSum struct {
	Path string `json:"path"`
	// Mode is the file's mode as ls shows it, like -rwxr-xr-x.
	Mode string `json:"mode"`
	// SHA256 is the hex hash of the content (of the file a link leads to).
	SHA256 string `json:"sha256,omitempty"`
	// Link is a symbolic link's target.
	Link string `json:"link,omitempty"`
}

// Arbiter identifies the build of arbiter that compiled or ran a plan: it
// referees every match and is every house bot.
type Arbiter struct {
	// Version is the main module's version ("(devel)" for a build from a
	// source tree).
	Version string `json:"version"`
	// Revision and Modified are the version control state the build was
	// made from (vcs.revision, vcs.modified).
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain that built it.
	Go string `json:"go,omitempty"`
	// Executable is "sha256:<hex>" of the arbiter executable, recorded when
	// the revision does not identify the build (no version control
	// information, or a modified tree).
	Executable string `json:"executable,omitempty"`
}

// ID is the build in one line, for messages.
func (a *Arbiter) ID() string {
	if a == nil {
		return "unknown"
	}
	id := a.Version
	if a.Revision != "" {
		id += " revision " + abbrev(a.Revision)
		if a.Modified {
			id += " (modified)"
		}
	}
	if a.Executable != "" {
		id += " executable " + abbrev(strings.TrimPrefix(a.Executable, "sha256:"))
	}
	return id
}

func abbrev(hex string) string {
	if len(hex) > 12 {
		return hex[:12]
	}
	return hex
}

// FileStat is what a stat of a file says of it, cheaply compared to tell
// that the file may have changed since (see fingerprint.Signature). The
// zero value: it could not be stat'ed.
type FileStat struct {
	Stat
	// Link is a symbolic link's target, and Target the stat of what it
	// leads to.
	Link   string
	Target Stat
}

// Stat is one stat of a file: device and inode, mode, size, and the times
// (in nanoseconds) of the last change of its content and of its status.
type Stat struct {
	Dev, Ino           uint64
	Mode               fs.FileMode
	Size, Mtime, Ctime int64
}
