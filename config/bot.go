package config

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

// Bot is a `bot "name"` block: either a house bot built into arbiter or a
// command (argv, no shell) run in a working directory.
type Bot struct {
	Name string
	// House is "<driver>/<bot>" for a built-in bot, else empty.
	House string
	// Command is the argv of an external bot.
	Command []string
	// Dir is the absolute working directory (default: the directory of the
	// file that declares the bot).
	Dir string
	// DirRange is where dir was set (DeclRange without it).
	DirRange hcl.Range
	// Env is added to the bot's environment.
	Env map[string]string
	// Nick is the bot's display name in game-specific outputs (e.g. the
	// nick of an original referee's score sheet); empty means Name.
	Nick      string
	DeclRange hcl.Range
	Limits    *Limits // nil without a limits block
	// Build is the argv run once in Dir before the bot's first match
	// (javac, make, g++), under the bot's limits; BuildTimeout caps it.
	Build        []string
	BuildTimeout time.Duration
	// Submitted is true for a bot whose command came with its submission
	// (a bots_from player folder's info.txt): in the sandbox it sees
	// nothing outside its folder that the command names
	// (drivers.Sandbox.Submitted).
	Submitted bool
}

// DefaultBuildTimeout caps a build when the bot block sets no build_timeout.
const DefaultBuildTimeout = 10 * time.Minute

func botRef(name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"bot": cty.StringVal(name)})
}

var botSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "house"}, {Name: "command"}, {Name: "dir"}, {Name: "env"}, {Name: "nick"},
		{Name: "build"}, {Name: "build_timeout"},
	},
	Blocks: []hcl.BlockHeaderSchema{LimitsBlock},
}

func (l *loader) loadBots() hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]*Bot{}
	for _, b := range l.blocks["bot"] {
		bot, d := l.decodeBotBlock(b)
		diags = append(diags, d...)
		if first, ok := seen[bot.Name]; ok {
			diags = append(diags, duplicate("bot", bot.Name, first.DeclRange, bot.DeclRange))
			continue
		}
		seen[bot.Name] = bot
		l.cfg.Bots = append(l.cfg.Bots, bot)
	}
	return diags
}

// attrDecoder decodes the attributes of content in a bot's scope, each
// into dst when present: the attribute and whether it decoded cleanly;
// its diagnostics go to diags.
func (l *loader) attrDecoder(content *hcl.BodyContent, diags *hcl.Diagnostics) func(name string, dst any) (*hcl.Attribute, bool) {
	return func(name string, dst any) (*hcl.Attribute, bool) {
		a, ok := content.Attributes[name]
		if !ok {
			return nil, false
		}
		d := l.decode(a, scopeBot, dst)
		*diags = append(*diags, d...)
		return a, !d.HasErrors()
	}
}

func (l *loader) decodeBotBlock(b *hcl.Block) (*Bot, hcl.Diagnostics) {
	bot := &Bot{Name: b.Labels[0], DeclRange: b.DefRange, DirRange: b.DefRange, Dir: l.fileDir[b.DefRange.Filename]}
	content, diags := b.Body.Content(botSchema)
	decode := l.attrDecoder(content, &diags)
	houseAttr, hasHouse := decode("house", &bot.House)
	cmdAttr, hasCmd := decode("command", &bot.Command)
	var dir string
	dirAttr, hasDir := decode("dir", &dir)
	if hasDir {
		bot.DirRange = dirAttr.Expr.Range()
		if dir == "" {
			diags = append(diags, errDiag("Invalid bot directory", "dir is empty; leave it out to use the directory of this file.", dirAttr.Expr.Range().Ptr()))
			hasDir = false
		} else if strings.ContainsRune(dir, 0) {
			diags = append(diags, errDiag("Invalid bot directory", fmt.Sprintf("dir %q holds NUL, which no path on any system can hold: the bot could never start. Remove the \\u0000.", dir), dirAttr.Expr.Range().Ptr()))
			hasDir = false
		} else if filepath.IsAbs(dir) {
			bot.Dir = filepath.Clean(dir)
		} else {
			bot.Dir = filepath.Join(bot.Dir, dir)
		}
	}
	if a, ok := decode("env", &bot.Env); ok {
		diags = append(diags, l.checkEnv(a, bot.Env, scopeBot)...)
	}
	if a, ok := decode("nick", &bot.Nick); ok && strings.TrimSpace(bot.Nick) == "" {
		diags = append(diags, errDiag("Invalid nick", "nick is empty; leave it out to use the bot's name.", a.Expr.Range().Ptr()))
	} else if problem := nickProblem(bot.Nick); ok && problem != "" {
		diags = append(diags, errDiag("Invalid nick", fmt.Sprintf("The nick %q %s. Change the nick.", bot.Nick, problem), a.Expr.Range().Ptr()))
	}
	diags = append(diags, decodeBuild(bot, content.Attributes, decode)...)
	var ld hcl.Diagnostics
	bot.Limits, ld = l.limitsOf(content.Blocks, scopeBot)
	diags = append(diags, ld...)

	switch {
	case houseAttr != nil && cmdAttr != nil:
		diags = append(diags, errDiag("Conflicting bot settings",
			fmt.Sprintf("Bot %q sets both house and command. A bot is either built in (house) or a program (command): remove one.", bot.Name), cmdAttr.NameRange.Ptr()))
	case houseAttr == nil && cmdAttr == nil:
		diags = append(diags, errDiag("Missing bot command",
			fmt.Sprintf("Bot %q has neither command nor house. Add command = [\"program\", \"arg\"] (run without a shell), or house = \"<game>/<bot>\" for a built-in bot.", bot.Name), b.DefRange.Ptr()))
	case hasCmd && len(bot.Command) == 0:
		diags = append(diags, errDiag("Missing bot command",
			fmt.Sprintf("The command of bot %q is empty. Give the program and its arguments, e.g. [\"python3\", \"bot.py\"].", bot.Name), cmdAttr.Expr.Range().Ptr()))
	case hasCmd && strings.TrimSpace(bot.Command[0]) == "":
		diags = append(diags, errDiag("Missing bot command",
			fmt.Sprintf("The program of bot %q (the first element of command) is empty.", bot.Name), cmdAttr.Expr.Range().Ptr()))
	case hasCmd && nulArg(cmdAttr, bot.Command) != nil:
		diags = append(diags, nulArg(cmdAttr, bot.Command))
	case hasHouse:
		diags = append(diags, l.checkHouse(bot.House, houseAttr.Expr.Range())...)
	case hasDir && houseAttr == nil:
		// A missing directory is said once: the program in it, and its
		// build, are missing for that reason.
		if d := checkDir(bot, dir, dirAttr.Expr.Range()); d != nil {
			diags = append(diags, d)
		} else if hasCmd {
			diags = appendNonNil(diags, checkProgram(bot, cmdAttr.Expr.Range()))
		}
	case hasCmd:
		diags = appendNonNil(diags, checkProgram(bot, cmdAttr.Expr.Range()))
	}
	return bot, diags
}

func appendNonNil(diags hcl.Diagnostics, d *hcl.Diagnostic) hcl.Diagnostics {
	if d == nil {
		return diags
	}
	return append(diags, d)
}

// nulArg refuses the first element of a command (or build) list that
// holds NUL: no process can be started with it, so every match of the
// bot would end in a start fault. It points at the element when the list
// is written out, else at the whole expression; nil when none holds NUL.
func nulArg(a *hcl.Attribute, args []string) *hcl.Diagnostic {
	for i, arg := range args {
		if !strings.ContainsRune(arg, 0) {
			continue
		}
		rng := a.Expr.Range()
		if list, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok && len(list.Exprs) == len(args) {
			rng = list.Exprs[i].Range()
		}
		return errDiag("Invalid "+a.Name,
			fmt.Sprintf("Element %d of %s, %q, holds NUL, which no program's arguments can hold: the bot could never start. Remove the \\u0000.", i+1, a.Name, arg), &rng)
	}
	return nil
}

// checkDir warns when the bot's working directory is not a directory on
// this machine: every match of the bot would end in a start fault. Only a
// warning, like a missing program: a checkout or a copy may make the
// directory before the run, or the run may be on another machine.
func checkDir(bot *Bot, dir string, rng hcl.Range) *hcl.Diagnostic {
	info, err := os.Stat(bot.Dir)
	var problem string
	switch {
	case err == nil && info.IsDir():
		return nil
	case err == nil:
		problem = "is not a directory"
	case os.IsNotExist(err):
		problem = "does not exist here"
	default:
		problem = fmt.Sprintf("cannot be read here (%v)", err)
	}
	where := fmt.Sprintf("%q", dir)
	if dir != bot.Dir {
		where += fmt.Sprintf(" (%s)", bot.Dir)
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Bot directory not found",
		Detail: fmt.Sprintf("Bot %q runs in the directory %s, which %s; its matches will end in a start fault. Create it before the run, or fix dir (a relative dir is relative to the folder of the file that declares the bot, as named: a symbolic link's own folder).%s",
			bot.Name, where, problem, linkHint(bot.DeclRange.Filename, bot.Dir)),
		Subject: &rng}
}

// CheckSandboxDir refuses a bot that would run in the sandbox with /tmp
// itself as its dir: the sandbox mounts the bot's private /tmp over it,
// so the bot could never see its files, and a run would watch all of the
// machine's shared /tmp as the bot's files. Outside the sandbox it may
// run there.
func CheckSandboxDir(bot *Bot) *hcl.Diagnostic {
	if bot.House != "" || !drivers.IsSandboxTmp(bot.Dir) {
		return nil
	}
	why := "runs in /tmp itself"
	if bot.DirRange == bot.DeclRange {
		why = "runs in /tmp itself, the directory of its file (it sets no dir)"
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Bot directory is /tmp",
		Detail: fmt.Sprintf("Bot %q %s. In the sandbox (the default) a bot has a private /tmp mounted over it, so it would not see its files there and could never start. "+
			"Put the bot in a folder of its own, e.g. dir = \"/tmp/%s\", or run it outside the sandbox (sandbox = false in its limits block).", bot.Name, why, bot.Name),
		Subject: bot.DirRange.Ptr()}
}

// evalOr is p with its symbolic links resolved, or p.
func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// checkProgram warns when the bot's program cannot be found on this
// machine: every match of the bot would end in a start fault. Only a
// warning, because plans may be made on another machine than the one that
// runs them. A bot with a build may make its program in its dir, so a
// program of its dir that is not there yet is not warned of; one that is
// there is checked all the same (its "#!" line, a "\r" or a byte order
// mark are the file's, which a build that makes something else does not
// mend). A program that is there and a known interpreter has the file
// it runs checked too (checkScript).
func checkProgram(bot *Bot, rng hcl.Range) *hcl.Diagnostic {
	prog := bot.Command[0]
	onPath := !strings.ContainsRune(prog, '/')
	var err error
	path := prog
	if onPath {
		path, err = exec.LookPath(prog)
	} else {
		if !filepath.IsAbs(prog) {
			path = filepath.Join(bot.Dir, prog)
		}
		_, err = os.Stat(path)
	}
	if err == nil {
		if d := checkExecutable(bot, path, rng); d != nil {
			return d
		}
		if d := checkInterpreter(bot, path, nil, rng); d != nil {
			return d
		}
		return checkScript(bot, rng)
	}
	if !onPath && len(bot.Build) > 0 {
		return nil
	}
	if _, inDir := os.Stat(filepath.Join(bot.Dir, prog)); onPath && (inDir == nil || len(bot.Build) > 0) {
		// The program is (or its build will be) in the bot's dir, but
		// without a slash exec looks for it on PATH only.
		return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Program looked up on PATH",
			Detail: fmt.Sprintf("Bot %q runs %q, a program named without a slash, which is looked up on PATH, not in the bot's dir, and is not on PATH here; its matches will end in a start fault. Name a program of the bot's dir with a slash: command = [\"./%s\", ...].",
				bot.Name, prog, prog),
			Subject: &rng}
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Program not found",
		Detail:  fmt.Sprintf("Bot %q runs %q, which is not found here (%v); its matches will end in a start fault. Install it or fix the command.", bot.Name, bot.Command[0], err),
		Subject: &rng}
}

// checkExecutable warns when the bot's program, found at path, is a
// directory or a file this user may not execute (access(2)): exec
// refuses either, so every match of the bot would end in a start fault.
// A build may make it one that runs.
func checkExecutable(bot *Bot, path string, rng hcl.Range) *hcl.Diagnostic {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	switch {
	case fi.IsDir():
		return cannotStart(bot, "it is a directory, not a program; name the program in it, or its interpreter and script ("+interpreterHint(bot, "python3", "main.py")+")", rng)
	case unix.Access(path, unix.X_OK) != nil:
		return cannotStart(bot, fmt.Sprintf("it is not executable (mode %v); make it executable (chmod +x %s), or name its interpreter before it (%s)", fi.Mode().Perm(), shell.Word(hintPath(path)), interpreterHint(bot, "sh", bot.Command[0])), rng)
	}
	return nil
}

// cannotStart is the warning that the bot's program cannot start, why.
func cannotStart(bot *Bot, why string, rng hcl.Range) *hcl.Diagnostic {
	end := "."
	if len(bot.Build) > 0 {
		end = " unless its build makes it a program that runs."
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Program cannot start",
		Detail:  fmt.Sprintf("Bot %q runs %q, which cannot start here: %s. Its matches will end in a start fault%s", bot.Name, bot.Command[0], why, end),
		Subject: &rng}
}

// interpreterHint is how to run script with interpreter, in the bot's
// words: a bots_from player's info.txt line 1, or a command attribute.
func interpreterHint(bot *Bot, interpreter, script string) string {
	if bot.Submitted {
		return fmt.Sprintf("%s %s on line 1 of %s", interpreter, script, shell.Word(hintPath(filepath.Join(bot.Dir, InfoFile))))
	}
	return fmt.Sprintf("command = [%q, %q]", interpreter, script)
}

// hintPath is path as the user can type it where arbiter runs: relative
// to the working directory when it lies in it, else absolute.
func hintPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return abs
}

// CheckSandboxProgram warns when the bot's program runs in the sandbox
// sb as another user than this one (SandboxUID, when arbiter runs as
// root) who may not execute it, nor read it when it is a "#!" script:
// the file's owner bits count when that user owns it, its other bits
// otherwise. A program this user may not run either was warned of at
// load (checkExecutable).
func CheckSandboxProgram(bot *Bot, sb *drivers.Sandbox) *hcl.Diagnostic {
	if sb == nil || bot.House != "" || len(bot.Command) == 0 || os.Geteuid() != 0 {
		return nil
	}
	path := drivers.ProgramPath(bot.Command[0], bot.Dir)
	fi, err := os.Stat(path)
	if path == "" || err != nil || fi.IsDir() || unix.Access(path, unix.X_OK) != nil {
		return nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	need, bits, whose := os.FileMode(0o1), "o", "others"
	if st.Uid == proc.SandboxUID {
		need, bits, whose = 0o100, "u", "its owner"
	}
	what := "x"
	if _, script := drivers.ReadShebang(path); script {
		need, what = need|need<<2, "rx"
	}
	if fi.Mode().Perm()&need == need {
		return nil
	}
	return cannotStart(bot, fmt.Sprintf("the sandbox runs it as uid %d, who may not run it (mode %v, which %s need %s for); make it runnable by %s (chmod %s+%s %s)",
		proc.SandboxUID, fi.Mode().Perm(), whose, what, whose, bits, what, shell.Word(hintPath(path))), bot.DeclRange)
}

// checkInterpreter warns when the bot's program, the script at path, cannot
// start for its "#!" line (drivers.InterpreterProblem): its interpreter
// does not exist here (a Windows line ending puts a "\r" at its end), or
// the bot's sandbox, when shows is not nil, does not hold it.
func checkInterpreter(bot *Bot, path string, shows func(string) bool, rng hcl.Range) *hcl.Diagnostic {
	why := drivers.InterpreterProblem(path, bot.Command[0], shows)
	if why == "" && shows == nil {
		return crlfRisk(bot, path, rng)
	}
	if why == "" {
		return nil
	}
	end := "."
	if len(bot.Build) > 0 && strings.ContainsRune(bot.Command[0], '/') {
		end = " unless its build rewrites the file."
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Program cannot start",
		Detail:  fmt.Sprintf("Bot %q runs %q, which cannot start here: %s. Its matches will end in a start fault%s", bot.Name, bot.Command[0], why, end),
		Subject: &rng}
}

// crlfRisk warns when the bot's program, the script at path, gives its
// interpreter an argument ending in "\r" (drivers.CRLFRisk): most refuse
// it, but it is run all the same, so its matches end in a crash, not a
// start fault.
func crlfRisk(bot *Bot, path string, rng hcl.Range) *hcl.Diagnostic {
	why := drivers.CRLFRisk(path, bot.Command[0])
	if why == "" {
		return nil
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Program may not start",
		Detail:  fmt.Sprintf("Bot %q runs %q, which may not start: %s. If its interpreter refuses it, its matches end in a crash.", bot.Name, bot.Command[0], why),
		Subject: &rng}
}

// CheckSandboxInterpreter is checkInterpreter for the bot's sandbox sb:
// it warns of an interpreter that exists here but is not shown in the
// sandbox (checkProgram warned of one that does not exist at all).
func CheckSandboxInterpreter(bot *Bot, sb *drivers.Sandbox) *hcl.Diagnostic {
	if sb == nil || bot.House != "" || len(bot.Command) == 0 {
		return nil
	}
	path := drivers.ProgramPath(bot.Command[0], bot.Dir)
	if path == "" || drivers.InterpreterProblem(path, bot.Command[0], nil) != "" {
		return nil
	}
	shows := func(p string) bool { return sb.Shows(p, bot.Dir) || sb.Shows(evalOr(p), bot.Dir) }
	return checkInterpreter(bot, path, shows, bot.DeclRange)
}

// checkHouse checks that "<driver>/<bot>" names a built-in bot.
func (l *loader) checkHouse(house string, rng hcl.Range) hcl.Diagnostics {
	driverName, botName, _ := strings.Cut(house, "/")
	var known []string
	if l.opts.Driver != nil {
		if drv, ok := l.opts.Driver(driverName); ok {
			for _, hb := range drv.HouseBots() {
				if hb.Name == botName {
					return nil
				}
				known = append(known, driverName+"/"+hb.Name)
			}
		} else {
			for _, d := range l.opts.DriverNames {
				if drv, ok := l.opts.Driver(d); ok {
					for _, hb := range drv.HouseBots() {
						known = append(known, d+"/"+hb.Name)
					}
				}
			}
		}
	}
	sort.Strings(known)
	return hcl.Diagnostics{errDiag("Unknown house bot",
		fmt.Sprintf("There is no built-in bot %q%s. Built-in bots: %s.", house, suggest(house, known), listOrNone(known)), &rng)}
}

// decodeBuild reads build and build_timeout.
func decodeBuild(bot *Bot, attrs hcl.Attributes, decode func(string, any) (*hcl.Attribute, bool)) hcl.Diagnostics {
	var diags hcl.Diagnostics
	bot.BuildTimeout = DefaultBuildTimeout
	if a, ok := decode("build", &bot.Build); ok {
		switch {
		case len(bot.Build) == 0 || strings.TrimSpace(bot.Build[0]) == "":
			diags = append(diags, errDiag("Invalid build", "build is empty; give the program and its arguments, e.g. [\"javac\", \"Bot.java\"], or leave it out.", a.Expr.Range().Ptr()))
		case attrs["house"] != nil:
			diags = append(diags, errDiag("Invalid build", fmt.Sprintf("Bot %q is built into arbiter (house); only a command bot has a build.", bot.Name), a.NameRange.Ptr()))
		default:
			diags = appendNonNil(diags, nulArg(a, bot.Build))
		}
	}
	var timeout string
	if a, ok := decode("build_timeout", &timeout); ok {
		d, err := time.ParseDuration(timeout)
		if err != nil || d <= 0 {
			diags = append(diags, errDiag("Invalid build_timeout", fmt.Sprintf("build_timeout is %q; give a duration like \"5m\".", timeout), a.Expr.Range().Ptr()))
		} else {
			bot.BuildTimeout = d
		}
	}
	return diags
}
