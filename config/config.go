package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/userfile"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Config is a loaded, validated configuration directory (or file).
type Config struct {
	// Root is the absolute directory of the configuration: relative paths
	// in bot blocks and file() are resolved against it.
	Root string
	// Files holds the parsed sources, for printing diagnostics with context.
	Files map[string]*hcl.File

	Variables map[string]*Variable
	Locals    map[string]cty.Value
	Decks     []*Deck
	Bots      []*Bot
	// BotsFrom are the bots_from blocks, in the order of the files.
	BotsFrom    []*BotsFrom
	Games       []*Game
	Tournaments []*Tournament
	// Unchecked names the tournament blocks left undecoded because
	// Options.Tournament chose another.
	Unchecked []string
	// Unread names the files of the configuration's directory that look
	// like configuration but were not read for their name's ending
	// (tournament.hcl.txt, t.HCL): a configuration missing a block says
	// where it may be.
	Unread []string
}

// Options are the inputs of a load beside the files themselves.
type Options struct {
	// Vars are -var name=value pairs, in command-line order.
	Vars []string
	// VarFiles are -var-file paths.
	VarFiles []string
	// Environ is the environment searched for ARBITER_VAR_<name>
	// (os.Environ() when nil).
	Environ []string
	// Driver finds the driver of a game block.
	Driver func(name string) (drivers.Driver, bool)
	// DriverNames lists the known drivers, for error messages.
	DriverNames []string
	// Tournament, when set, is the one tournament a command uses
	// (-tournament): the other tournament blocks are not decoded, so that
	// a mistake in one of them does not stop the others (their names are
	// kept in Config.Unchecked).
	Tournament string
}

var rootSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "deck", LabelNames: []string{"name"}},
		{Type: "bot", LabelNames: []string{"name"}},
		{Type: "bots_from", LabelNames: []string{"name"}},
		{Type: "game", LabelNames: []string{"driver", "name"}},
		{Type: "tournament", LabelNames: []string{"name"}},
	},
}

// Load reads path (a directory of *.hcl files loaded together, or one
// file) and returns the configuration with every diagnostic found.
func Load(path string, opts Options) (*Config, hcl.Diagnostics) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, hcl.Diagnostics{errDiag("Invalid configuration path", err.Error(), nil)}
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, hcl.Diagnostics{errDiag("Configuration not found",
			fmt.Sprintf("Cannot read %s: %v. Give a directory of .hcl files or one .hcl file.", path, err), nil)}
	}
	files := []string{abs}
	root := filepath.Dir(abs)
	var diags hcl.Diagnostics
	var unread []string
	if info.IsDir() {
		root = abs
		matches := DirFiles(abs)
		diags = append(diags, folderWarnings(abs)...)
		unread = unreadFiles(abs)
		if len(matches) == 0 {
			return nil, append(diags, NoFiles(path))
		}
		files = matches
	}

	parser := hclparse.NewParser()
	var bodies []hcl.Body
	for _, f := range files {
		name := f
		if rel, err := filepath.Rel(mustGetwd(), f); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		src, err := userfile.ReadFile(f)
		if err != nil {
			diags = append(diags, errDiag("Cannot read file", readProblem(f, err), nil))
			continue
		}
		if d := EncodingProblem(src, name); d != nil {
			diags = append(diags, d)
			continue
		}
		file, d := parser.ParseHCL(src, name)
		diags = append(diags, d...)
		if file != nil {
			bodies = append(bodies, file.Body)
		}
	}
	cfg := &Config{Root: root, Files: parser.Files(), Locals: map[string]cty.Value{}, Unread: unread}
	if diags.HasErrors() {
		return cfg, diags
	}
	l := &loader{cfg: cfg, opts: opts, fileDir: map[string]string{}}
	for _, f := range files {
		name := f
		if rel, err := filepath.Rel(mustGetwd(), f); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		l.fileDir[name] = filepath.Dir(f)
	}
	diags = append(diags, l.load(bodies)...)
	diags = dropFollowOns(diags)
	sortDiags(diags)
	return cfg, diags
}

// DirFiles lists the configuration files of the directory dir, sorted:
// its *.hcl files, but those an editor or the user keeps out of sight,
// as Terraform skips them: hidden files (".old.hcl", and Emacs's lock
// ".#t.hcl", a symbolic link to nowhere while the file is being edited),
// Emacs's autosaves ("#t.hcl#") and backups ("t.hcl~"), and folders
// (folderWarnings names them). `arbiter fmt` formats the same files.
func DirFiles(dir string) []string {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
	matches = slices.DeleteFunc(matches, func(f string) bool {
		st, err := os.Stat(f)
		return IgnoredFile(filepath.Base(f)) || err == nil && st.IsDir()
	})
	sort.Strings(matches)
	return matches
}

// folderWarnings are the warnings of the folders of dir named like a
// configuration file (x.hcl/), which are not read.
func folderWarnings(dir string) hcl.Diagnostics {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
	sort.Strings(matches)
	var diags hcl.Diagnostics
	for _, f := range matches {
		if st, err := os.Stat(f); err == nil && st.IsDir() && !IgnoredFile(filepath.Base(f)) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Folder skipped",
				Detail: fmt.Sprintf("%s is a folder, not a file: it is not read. The configuration is the .hcl files of %s; rename the folder if nothing in it is meant to be.", f, dir)})
		}
	}
	return diags
}

// unreadFiles are the files of dir whose name holds ".hcl" in any case
// but which are not read, for their ending (t.hcl.txt, t.HCL, t.hcl.bak),
// sorted.
func unreadFiles(dir string) []string {
	ents, _ := os.ReadDir(dir) // sorted by name
	var out []string
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() && !IgnoredFile(name) && !strings.HasSuffix(name, ".hcl") && strings.Contains(strings.ToLower(name), ".hcl") {
			out = append(out, name)
		}
	}
	return out
}

// isAre is "a is" or "a, b are".
func isAre(names []string) string {
	if len(names) == 1 {
		return names[0] + " is"
	}
	return strings.Join(names, ", ") + " are"
}

// readProblem says why the configuration file f could not be read: err,
// or, for a symbolic link to nothing, the link and where it points.
func readProblem(f string, err error) string {
	if target, lerr := os.Readlink(f); lerr == nil && os.IsNotExist(err) {
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(f), target)
		}
		return fmt.Sprintf("%s is a symbolic link to %s, which does not exist. Point the link at the file, or remove it.", f, target)
	}
	return err.Error()
}

// NoFiles is the error of a directory, given as path, that has no
// configuration files (DirFiles): Load's, and arbiter fmt's, which
// formats the files Load would load. It names the files that look like
// configuration but end otherwise (tournament.hcl.txt, t.HCL).
func NoFiles(path string) *hcl.Diagnostic {
	detail := fmt.Sprintf("The directory %s has no .hcl files (hidden files, editors' lock files and backups are skipped: names starting with \".\" or \"#\", or ending in \"~\"). Put the tournament's configuration in files ending in .hcl.", path)
	if unread := unreadFiles(path); len(unread) > 0 {
		detail = fmt.Sprintf("The directory %s has no .hcl files: its %s not read, as only files ending in .hcl are. Rename %s to end in .hcl.", path, isAre(unread), itThem(unread))
	}
	return errDiag("No configuration files", detail, nil)
}

// itThem is "it" for one name, "them" for more.
func itThem(names []string) string {
	if len(names) == 1 {
		return "it"
	}
	return "them"
}

// IgnoredFile reports whether a directory's file called name is left
// out of its configuration (see DirFiles).
func IgnoredFile(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~")
}

// followOnMark is the Extra of an error that follows from another one
// already reported (a reference to a misspelt block, a value computed
// from a variable without a value): it stops what depends on it, but is
// not shown, since fixing the first error fixes it.
type followOnMark struct{}

// followOn is an error that follows from one already reported.
func followOn(subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Value not known",
		Detail:  "This depends on a value that is in error itself; fix the errors above first.",
		Subject: subject, Extra: followOnMark{}}
}

// dropFollowOns leaves out the errors that follow from others, unless
// they are the only ones (which would be a bug: then they are shown,
// rather than a configuration with errors said to be valid).
func dropFollowOns(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	cause := false
	for _, d := range diags {
		if _, ok := d.Extra.(followOnMark); ok {
			continue
		}
		cause = cause || d.Severity == hcl.DiagError
		out = append(out, d)
	}
	if !cause {
		return diags
	}
	return out
}

// sortDiags orders diagnostics by file and position, so that output does
// not depend on the order in which the loader happened to find them.
func sortDiags(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		case a.Start.Line != b.Start.Line:
			return a.Start.Line < b.Start.Line
		}
		return a.Start.Column < b.Start.Column
	})
}

func mustGetwd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "/"
	}
	return wd
}

// loader carries the state of one Load through its stages: variables,
// locals, decks, bots, games, tournaments, each able to refer to the ones
// before it.
type loader struct {
	cfg     *Config
	opts    Options
	fileDir map[string]string // file name as in ranges -> absolute directory

	blocks map[string][]*hcl.Block
	// misspelt are the blocks of an unsupported type close to a
	// supported one ("gmae"), by the type meant, already reported: a
	// reference to what they declare is not reported again.
	misspelt map[string][]*hclsyntax.Block
	// rejected are the labels of the blocks already reported and left
	// out (a missing or extra label, an invalid name, an unknown game
	// driver), by block type: a reference to what they declare is not
	// reported again as undeclared.
	rejected map[string][][]string
	botsFrom []*BotsFrom
	// stages are the stage names of the tournament being decoded.
	stages []string
	// javaWarned are the bots checkJava warned of already.
	javaWarned map[*Bot]bool
	// jvmWarned are the bots warned of the JVM options a small process
	// limit needs (checkThreads, or checkJava's fix) already.
	jvmWarned map[*Bot]bool
}

func (l *loader) load(bodies []hcl.Body) hcl.Diagnostics {
	var diags hcl.Diagnostics
	l.blocks = map[string][]*hcl.Block{}
	l.misspelt = map[string][]*hclsyntax.Block{}
	l.rejected = map[string][][]string{}
	labels := map[string]int{}
	var types []string
	for _, b := range rootSchema.Blocks {
		types = append(types, b.Type)
		labels[b.Type] = len(b.LabelNames)
	}
	for _, body := range bodies {
		content, d := body.Content(rootSchema)
		diags = append(diags, d...)
		if sb, ok := body.(*hclsyntax.Body); ok && d.HasErrors() {
			for _, b := range sb.Blocks {
				if n, ok := labels[b.Type]; ok && len(b.Labels) != n {
					l.rejected[b.Type] = append(l.rejected[b.Type], b.Labels)
				} else if meant := closest(b.Type, types); meant != "" && meant != b.Type {
					l.misspelt[meant] = append(l.misspelt[meant], b)
				}
			}
		}
		for _, b := range content.Blocks {
			if d := checkLabels(b); d != nil {
				diags = append(diags, d)
				l.rejected[b.Type] = append(l.rejected[b.Type], b.Labels)
				continue
			}
			l.blocks[b.Type] = append(l.blocks[b.Type], b)
		}
	}
	diags = append(diags, l.loadVariables()...)
	diags = append(diags, l.loadLocals()...)
	diags = append(diags, l.loadDecks()...)
	diags = append(diags, l.loadBots()...)
	diags = append(diags, l.loadBotsFrom()...)
	diags = append(diags, l.loadGames()...)
	diags = append(diags, l.loadTournaments()...)
	l.explainVars(diags, bodies)
	return diags
}

// Tournament returns the tournament called name, or the only one when
// name is empty.
func (c *Config) Tournament(name string) (*Tournament, error) {
	if name == "" {
		switch len(c.Tournaments) {
		case 0:
			if len(c.Unread) > 0 {
				return nil, fmt.Errorf("the configuration declares no tournament; add a tournament block (the directory's %s not read: only files ending in .hcl are)", isAre(c.Unread))
			}
			return nil, fmt.Errorf("the configuration declares no tournament; add a tournament block")
		case 1:
			return c.Tournaments[0], nil
		}
		var names []string
		for _, t := range c.Tournaments {
			names = append(names, t.Name)
		}
		return nil, fmt.Errorf("the configuration declares %d tournaments (%s); choose one with -tournament NAME", len(names), strings.Join(names, ", "))
	}
	var names []string
	for _, t := range c.Tournaments {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	names = append(names, c.Unchecked...)
	slices.Sort(names)
	return nil, fmt.Errorf("no tournament %q in the configuration; it declares: %s", name, listOrNone(names))
}

// Bot returns the bot called name.
func (c *Config) Bot(name string) *Bot {
	for _, b := range c.Bots {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// checkLabels requires block names to be identifiers that start with a
// letter: they are used in references (bot.NAME), match transcripts and
// file names. (HCL would take "_x" too, but a name is a bot's name in
// standings and games' files, and bots_from makes every name start with
// a letter.)
func checkLabels(b *hcl.Block) *hcl.Diagnostic {
	for i, label := range b.Labels {
		if !ValidName(label) {
			return errDiag("Invalid name",
				fmt.Sprintf("%q cannot name a %s: use letters, digits, underscores and dashes, starting with a letter.%s", label, b.Type, composedHint(label)),
				b.LabelRanges[i].Ptr())
		}
		if len(label) > tournament.MaxNameBytes {
			return nameTooLong(b.Type, label, b.LabelRanges[i])
		}
	}
	return nil
}

// composedHint is what to say of a name holding a combining mark (an
// "e" followed by U+0301 rather than "é", as macOS and some editors save
// text): the mark is what makes it invalid, though it looks like a
// letter. "" for other names.
func composedHint(name string) string {
	i := strings.IndexFunc(name, func(r rune) bool { return unicode.Is(unicode.Mn, r) })
	if i < 0 {
		return ""
	}
	r := []rune(name[i:])[0]
	nfc := norm.NFC.String(name)
	if !ValidName(nfc) {
		return fmt.Sprintf(" It holds the combining mark %U, a character of its own after a letter.", r)
	}
	return fmt.Sprintf(" It holds the combining mark %U after a letter (the decomposed form some editors and systems save) rather than the composed letter: the composed form (NFC) %q is valid; write that, in the block and in every reference to it.", r, nfc)
}

// nameTooLong refuses a name longer than tournament.MaxNameBytes.
func nameTooLong(kind, name string, rng hcl.Range) *hcl.Diagnostic {
	return errDiag("Name too long",
		fmt.Sprintf("This %s name has %d bytes (%.20s...), but names are at most %d: arbiter names files after them (a bot's stderr is matches/<match>/seat<N>-<bot>.stderr, a tournament's results go to results/<tournament>), and a file name holds at most 255 bytes. Shorten it.",
			kind, len(name), name, tournament.MaxNameBytes),
		&rng)
}

// ValidName reports whether name can name a block (a bot, a deck, a
// game, a tournament, a variable): letters, digits, underscores and
// dashes, starting with a letter (tournament.ValidName, the rule a saved
// plan's names are held to), and an HCL identifier, so that bot.NAME
// refers to it.
func ValidName(name string) bool {
	return tournament.ValidName(name) && hclsyntax.ValidIdentifier(name)
}

func errDiag(summary, detail string, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject}
}

// duplicate reports a second declaration, pointing at the first one.
func duplicate(kind, name string, first, again hcl.Range) *hcl.Diagnostic {
	return errDiag("Duplicate "+kind,
		fmt.Sprintf("A %s named %q was already declared at %s. Rename or remove one of them.", kind, name, first.String()),
		again.Ptr())
}
