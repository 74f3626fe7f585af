package config

import (
	"bufio"
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/shell"
	"github.com/arbiter-contests/arbiter/internal/userfile"
	"github.com/arbiter-contests/arbiter/tournament"
)

// BotsFrom is a `bots_from "name" { dir = "players" }` block: a directory
// of player folders in the format of the Bricks contest's original
// referee. Every sub-folder (hidden ones skipped) is a bot and must hold
// an info.txt: line 1 of
// info.txt is the launch command, run in that folder; line 2 is the
// player's nick. The bots are added to the configuration's bots under
// their folder's name made an identifier, and bots_from.NAME is the list
// of them, sorted by folder name, for a tournament's bots.
type BotsFrom struct {
	Name string
	// Dir is the absolute directory of player folders.
	Dir  string
	Bots []*Bot
	// Skip is true for invalid = "skip": a folder that is no valid player
	// is left out with a warning (Skipped) instead of being an error.
	Skip bool
	// Skipped are the folders left out, in folder order.
	Skipped []SkippedFolder
	// BuildIfPresent is build_if_present: the file, relative to a player
	// folder, whose presence says that the folder is built; "" builds
	// every folder.
	BuildIfPresent string
	DeclRange      hcl.Range
	// failed says that the block is in error (its dir, a player folder):
	// its bots are not all there.
	failed bool
}

// SkippedFolder is a player folder that bots_from { invalid = "skip" }
// left out, and why.
type SkippedFolder struct {
	Folder string // absolute
	Why    string
}

// Invalid folder policies of a bots_from block: an invalid player folder
// is an error (the default), or is left out with a warning.
var invalidPolicies = []string{"error", "skip"}

var botsFromSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "dir", Required: true}, {Name: "invalid"},
		{Name: "build"}, {Name: "build_timeout"}, {Name: "build_if_present"}},
}

// InfoFile is the file that makes a folder a player.
const InfoFile = "info.txt"

// loadBotsFrom runs after loadBots, so that a player folder named like a
// declared bot is reported as a duplicate.
func (l *loader) loadBotsFrom() hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]*BotsFrom{}
	for _, b := range l.blocks["bots_from"] {
		bf := &BotsFrom{Name: b.Labels[0], DeclRange: b.DefRange}
		if first, ok := seen[bf.Name]; ok {
			diags = append(diags, duplicate("bots_from block", bf.Name, first.DeclRange, bf.DeclRange))
			continue
		}
		seen[bf.Name] = bf
		l.botsFrom = append(l.botsFrom, bf)
		l.cfg.BotsFrom = append(l.cfg.BotsFrom, bf)
		d := l.decodeBotsFrom(bf, b)
		diags = append(diags, d...)
		// A tournament short of bots for it does not say so again.
		bf.failed = d.HasErrors()
	}
	return diags
}

// decodeBotsFrom decodes the bots_from block b into bf and reads its
// player folders.
func (l *loader) decodeBotsFrom(bf *BotsFrom, b *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	content, d := b.Body.Content(botsFromSchema)
	diags = append(diags, d...)
	decode := l.attrDecoder(content, &diags)
	var invalid string
	if a, ok := decode("invalid", &invalid); ok {
		if !slices.Contains(invalidPolicies, invalid) {
			diags = append(diags, errDiag("Invalid invalid",
				fmt.Sprintf("invalid must be \"error\" (an invalid player folder stops the configuration, the default) or \"skip\" (it is left out with a warning), not %q%s.", invalid, suggest(invalid, invalidPolicies)),
				a.Expr.Range().Ptr()))
			return diags
		}
		bf.Skip = invalid == "skip"
	}
	// The players' build is a bot block's build, given to each.
	build := &Bot{}
	if d := decodeBuild(build, content.Attributes, decode); d.HasErrors() {
		diags = append(diags, d...)
		return diags
	}
	if d := decodeBuildIfPresent(bf, build, decode); d != nil {
		diags = append(diags, d)
		return diags
	}
	a, ok := content.Attributes["dir"]
	if !ok {
		return diags
	}
	var dir string
	if d := l.decode(a, scopeBot, &dir); d.HasErrors() {
		diags = append(diags, d...)
		return diags
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(l.fileDir[b.DefRange.Filename], dir)
	}
	bf.Dir = filepath.Clean(dir)
	diags = append(diags, l.readPlayers(bf, a.Expr.Range(), build)...)
	diags = appendNonNil(diags, missingBuildFiles(bf, a.Expr.Range()))
	return diags
}

// decodeBuildIfPresent reads build_if_present, the file whose presence in
// a player folder selects it for the build: a field migrated from the
// original contests is mixed (one folder's bot.cpp, another's bot.py), and
// a build run in every folder fails, and loses every match, in the
// folders of the other languages.
func decodeBuildIfPresent(bf *BotsFrom, build *Bot, decode func(string, any) (*hcl.Attribute, bool)) *hcl.Diagnostic {
	a, ok := decode("build_if_present", &bf.BuildIfPresent)
	if !ok {
		return nil
	}
	name := bf.BuildIfPresent
	switch {
	case len(build.Build) == 0:
		return errDiag("Invalid build_if_present",
			"build_if_present names the file that selects the player folders the build runs in, but this block has no build. Give build too, or leave build_if_present out.",
			a.Expr.Range().Ptr())
	case name == "" || filepath.IsAbs(name) || !filepath.IsLocal(name):
		return errDiag("Invalid build_if_present",
			fmt.Sprintf("build_if_present is %q; give a file's path relative to a player folder and inside it, such as \"bot.cpp\": the folders that hold it are built, the others are not.", name),
			a.Expr.Range().Ptr())
	}
	return nil
}

// buildOf is the build of the player folder folder: build, or with
// build_if_present none when the folder lacks that file.
func (bf *BotsFrom) buildOf(folder string, build []string) []string {
	if bf.BuildIfPresent != "" {
		if _, err := os.Stat(filepath.Join(folder, bf.BuildIfPresent)); err != nil {
			return nil
		}
	}
	return build
}

// missingBuildFiles warns when the build of bf names a source file (a
// word with an extension that is a regular file, by a relative path, in
// some built folder) that other built folders lack: their build will
// likely fail, and they lose every match. A word without an extension
// (a make target, a program) or after an output flag (-o, --output)
// names what the build makes, not what it reads.
func missingBuildFiles(bf *BotsFrom, rng hcl.Range) *hcl.Diagnostic {
	var built []*Bot
	for _, b := range bf.Bots {
		if len(b.Build) > 0 {
			built = append(built, b)
		}
	}
	if len(built) < 2 {
		return nil
	}
	build := built[0].Build
	for i, w := range build {
		if i == 0 || w == "" || strings.HasPrefix(w, "-") || slices.Contains([]string{"-o", "--output", "-out"}, build[i-1]) ||
			!filepath.IsLocal(w) || filepath.Ext(w) == "" {
			continue
		}
		var have, lack []string
		for _, b := range built {
			if st, err := os.Stat(filepath.Join(b.Dir, w)); err == nil && st.Mode().IsRegular() {
				have = append(have, filepath.Base(b.Dir))
			} else {
				lack = append(lack, filepath.Base(b.Dir))
			}
		}
		if len(have) == 0 || len(lack) == 0 {
			continue
		}
		return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Build file missing in player folders",
			Detail: fmt.Sprintf("The build %q names %s, which is in the player folders %s of %s but not in %s: the build likely fails there, and those players get the fault build in every match. If only the folders with %s are to be built (a field of several languages), add build_if_present = %q.",
				strings.Join(build, " "), w, someFolders(have), bf.Dir, someFolders(lack), w, w),
			Subject: &rng}
	}
	return nil
}

// someFolders names folders, the first few of many.
func someFolders(names []string) string {
	if len(names) > 5 {
		return fmt.Sprintf("%s, ... (%d folders)", strings.Join(names[:5], ", "), len(names))
	}
	return strings.Join(names, ", ")
}

// readPlayers adds a bot for every player folder of bf.Dir, sorted by
// folder name, each with build's Build and BuildTimeout. Files and hidden
// folders are skipped; so are, with bf.Skip, the folders that are no
// valid player, each with a warning. Which folders those are depends on
// the folders' files only, never on the order the system lists them in.
func (l *loader) readPlayers(bf *BotsFrom, rng hcl.Range, build *Bot) (diags hcl.Diagnostics) {
	ents, err := os.ReadDir(bf.Dir)
	if err != nil {
		return hcl.Diagnostics{errDiag("Cannot read player folders",
			fmt.Sprintf("%v. dir must be a directory holding one folder per player, each with an %s.", err, InfoFile), &rng)}
	}
	// The folders' diagnostics go with the others, in folder order.
	rep := &folderReport{bf: bf, rng: rng, out: &diags}
	invalid := rep.invalid
	names := map[string]string{}
	for _, e := range ents { // os.ReadDir sorts by name
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		folder := filepath.Join(bf.Dir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			if alias, why := linkedFolder(bf.Dir, folder); alias != nil {
				alias.Subject = &rng
				diags = append(diags, alias)
			} else if why != "" {
				invalid(folder, "Invalid player folder", why,
					"Put the player's files in a folder of its own there (cp -r, not ln -s): the sandbox shows a player its own folder, and its fingerprint hashes the files in it.")
			}
			continue
		}
		if !e.IsDir() {
			continue
		}
		command, nick, problem := readInfo(folder)
		if problem != "" {
			invalid(folder, "Invalid player folder", fmt.Sprintf("Player folder %s: %s.", folder, problem),
				fmt.Sprintf("Every folder of %s must hold an %s whose line 1 is the command that starts the player and line 2 its nick.", bf.Dir, InfoFile))
			continue
		}
		info := filepath.Join(folder, InfoFile)
		if problem := nickProblem(nick); problem != "" {
			invalid(folder, "Invalid player nick", fmt.Sprintf("The nick %q on line 2 of %s %s.", nick, info, problem), "Change the nick.")
			continue
		}
		name := identifier(e.Name())
		if why := longName(folder, name); why != "" {
			invalid(folder, "Name too long", why, "Rename the folder.")
			continue
		}
		if other, ok := names[name]; ok {
			diags = append(diags, errDiag("Duplicate player",
				fmt.Sprintf("Player folders %q and %q both make the bot name %q. Rename one of them.", other, e.Name(), name), &rng))
			continue
		}
		names[name] = e.Name()
		if first := l.cfg.Bot(name); first != nil {
			diags = append(diags, duplicate("bot", name, first.DeclRange, rng))
			continue
		}
		bot := &Bot{Name: name, Command: command, Dir: folder, Nick: nick, DeclRange: rng, Submitted: true,
			Build: bf.buildOf(folder, build.Build), BuildTimeout: build.BuildTimeout}
		diags = append(diags, playerWarnings(bot, info, rng)...)
		bf.Bots = append(bf.Bots, bot)
		l.cfg.Bots = append(l.cfg.Bots, bot)
	}
	rep.finish()
	if len(bf.Bots) == 0 && !diags.HasErrors() {
		left := ""
		if len(bf.Skipped) > 0 {
			left = fmt.Sprintf(" (%d left out as invalid: see the warnings)", len(bf.Skipped))
		}
		diags = append(diags, errDiag("No player folders",
			fmt.Sprintf("%s has no valid player folder%s. Put one folder per player in it, each with an %s.", bf.Dir, left, InfoFile), &rng))
	}
	return diags
}

// folderReport reports the player folders of bf that are no valid
// player into out: an error each, or with invalid = "skip" a warning
// each, the folder left out. Past the first MaxFolderDiags the folders
// are only counted (a dir that is no field of players, like /usr/share,
// makes one for each of its folders), in one diagnostic more.
type folderReport struct {
	bf       *BotsFrom
	rng      hcl.Range
	out      *hcl.Diagnostics
	reported int
	more     int
}

func (r *folderReport) invalid(folder, summary, why, fix string) {
	if r.bf.Skip {
		r.bf.Skipped = append(r.bf.Skipped, SkippedFolder{Folder: folder, Why: why})
	}
	switch {
	case r.reported >= MaxFolderDiags:
		r.more++
		return
	case !r.bf.Skip:
		*r.out = append(*r.out, errDiag(summary, why+" "+fix, &r.rng))
	default:
		*r.out = append(*r.out, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Player folder left out",
			Detail:  fmt.Sprintf("%s It does not play (invalid = \"skip\"); the other players do. %s", why, fix),
			Subject: &r.rng})
	}
	r.reported++
}

// finish adds the count of the unreported folders, after the folders'
// own diagnostics.
func (r *folderReport) finish() {
	if r.more > 0 {
		*r.out = append(*r.out, moreFolders(r.bf, r.more, r.rng))
	}
}

// MaxFolderDiags is how many player folders of one bots_from block are
// reported one by one; the others are counted in one more diagnostic.
const MaxFolderDiags = 10

// moreFolders is the diagnostic that counts the n invalid player folders
// of bf past the first MaxFolderDiags: an error, or with invalid = "skip"
// a warning (those folders are in bf.Skipped all the same).
func moreFolders(bf *BotsFrom, n int, rng hcl.Range) *hcl.Diagnostic {
	d := errDiag("More invalid player folders",
		fmt.Sprintf("%d more folders of %s are no valid player either (the first %d are reported above). Is dir the directory of the players' folders, each with an %s?", n, bf.Dir, MaxFolderDiags, InfoFile), &rng)
	if bf.Skip {
		d.Severity = hcl.DiagWarning
		d.Summary = "More player folders left out"
		d.Detail = fmt.Sprintf("%d more folders of %s are no valid player either and do not play (the first %d are reported above).", n, bf.Dir, MaxFolderDiags)
	}
	return d
}

// playerWarnings are the warnings about a player's bot, read from the
// folder's info file info: a program not found here, files its command
// names outside its folder.
func playerWarnings(bot *Bot, info string, rng hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if d := checkProgram(bot, rng); d != nil {
		// The command is the folder's, not the block's the warning points at.
		d.Detail += fmt.Sprintf(" The command is line 1 of %s.", info)
		diags = append(diags, d)
	}
	for _, outside := range outsideFiles(bot.Command, bot.Dir) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Player file outside its folder",
			Detail: fmt.Sprintf("Line 1 of %s names %s, which is %s, outside the player's folder. In the sandbox (the default) a player sees only its own folder, the system's and the interpreters on PATH, whatever its command names, so it cannot open that file and every match it plays ends in a fault. Put the file in %s, or run its tournament with limits { sandbox = false }.",
				info, outside.word, outside.path, bot.Dir),
			Subject: &rng})
	}
	return diags
}

// linkedFolder judges the entry folder of the players' folder dir, a
// symbolic link: a link to a folder looks like a player, but neither the
// sandbox nor the fingerprint follows it into the files. Another name for
// a player folder beside it (latest -> v3) is an alias, left out with
// the warning alias (that folder plays); a link to a folder elsewhere is
// an invalid folder, why says so; a link to no folder is no player.
func linkedFolder(dir, folder string) (alias *hcl.Diagnostic, why string) {
	fi, err := os.Stat(folder)
	if err != nil || !fi.IsDir() {
		return nil, ""
	}
	target, _ := os.Readlink(folder)
	real, _ := filepath.EvalSymlinks(folder)
	realDir, _ := filepath.EvalSymlinks(dir)
	if filepath.Dir(real) == realDir {
		return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Player folder alias left out",
			Detail: fmt.Sprintf("%s is a symbolic link to %s, another folder of %s, which plays under its own name; the link does not play.", folder, target, dir)}, ""
	}
	return nil, fmt.Sprintf("Player folder %s is a symbolic link to %s, not a folder.", folder, target)
}

// checkNicks refuses two bots of tournament t with the same nick when
// t's game names players by nick in its own files (drivers.Nicknamer,
// Bricks' score.txt and duels.txt): those files could not tell them
// apart. A game that shows no nick takes any. Each bot's nick is said
// where it comes from: line 2 of its info.txt, or its bot block.
func checkNicks(t *Tournament, bots []*Bot) hcl.Diagnostics {
	if t.Game == nil {
		return nil
	}
	nn, ok := t.Game.Game.(drivers.Nicknamer)
	if !ok {
		return nil
	}
	var diags hcl.Diagnostics
	seen := map[string]*Bot{}
	done := map[*Bot]bool{}
	for _, b := range bots {
		if b == nil || done[b] {
			continue
		}
		done[b] = true
		// A bot without a nick is named in those files by its name.
		nick := cmp.Or(b.Nick, b.Name)
		first, ok := seen[nick]
		if !ok {
			seen[nick] = b
			continue
		}
		rng := b.DeclRange
		diags = append(diags, errDiag("Duplicate player nick",
			fmt.Sprintf("The nick %q %s is also the nick %s, and both play in tournament %q: %s name players by nick, so the two could not be told apart. Give each player a nick of its own.",
				nick, nickSource(b), nickSource(first), t.Name, nn.NickFiles()), &rng))
	}
	return diags
}

// nickSource says where bot b's nick is set: line 2 of its info.txt (its
// path quoted for the shell, shell.Word, as a line break in a folder's
// name would otherwise split the message), its bot block's nick, or its
// name when it has no nick.
func nickSource(b *Bot) string {
	switch {
	case b.Submitted:
		return "on line 2 of " + shell.Word(filepath.Join(b.Dir, InfoFile))
	case b.Nick == "":
		return fmt.Sprintf("of bot %q (%s), which has no nick and is named by its name", b.Name, b.DeclRange)
	}
	return fmt.Sprintf("of bot %q (%s)", b.Name, b.DeclRange)
}

// nickProblem says what makes nick unfit for the original's result
// files, which separate their fields with ':' (duels.txt, index:starting:
// following:winner:message) and '#' (a replay's header, size#nick#nick#
// legend), their columns with tabs (score.txt) and their records with
// line ends; "" when nothing does.
func nickProblem(nick string) string {
	if r, ok := lineBreaker(nick); ok {
		return fmt.Sprintf("holds the control character %U%s, which would break the lines and columns of the game's result files (duels.txt, score.txt), so they could not be read back; a nick is one line of printable characters", r, runeName(r))
	}
	switch {
	case strings.Contains(nick, ":"):
		return "holds ':', which separates the fields of duels.txt (index:starting:following:winner:message), so the file could not be read back"
	case strings.Contains(nick, "#"):
		return "holds '#', which separates the fields of a duel's replay header (size#nick#nick#...), so the replay could not be read back"
	}
	return ""
}

// lineBreaker is the first rune of s that ends or splits a line or a
// column of a line-based file: a control character (tab, line feed,
// carriage return, NUL, DEL, NEL...) or Unicode's line and paragraph
// separators.
func lineBreaker(s string) (rune, bool) {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return r, true
		}
	}
	return 0, false
}

// runeName is " (a tab)" for the control characters people type by
// mistake, "" for the others, which their code point names well enough.
func runeName(r rune) string {
	switch r {
	case '\t':
		return " (a tab)"
	case '\n':
		return " (a line feed)"
	case '\r':
		return " (a carriage return)"
	case 0:
		return " (NUL)"
	}
	return ""
}

// outsideFile is a word of a player's command that names a file outside
// its folder, and that file.
type outsideFile struct{ word, path string }

// outsideFiles are the words of command that, taken relative to the
// player's folder as the bot's start takes them (drivers.ResolveArgv),
// name existing files outside it and outside the system's folders:
// ../../bot.py, /home/x/bot.py, a program ../other/bot. A submitted
// command is shown none of them in the sandbox
// (drivers.ResolveSubmitted): another player's folder is as near as
// ../other.
func outsideFiles(command []string, folder string) []outsideFile {
	var out []outsideFile
	for i, w := range command {
		if w == "" || strings.HasPrefix(w, "-") || i == 0 && !strings.Contains(w, "/") {
			continue
		}
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(folder, w)
		}
		if drivers.Within(p, folder) || drivers.InSystem(p) {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			out = append(out, outsideFile{w, p})
		}
	}
	return out
}

// readInfo reads a player folder's info.txt: line 1 the command, line 2
// the nick (a trailing \r is dropped, so files written on Windows work).
func readInfo(folder string) (command []string, nick, problem string) {
	f, err := userfile.Open(filepath.Join(folder, InfoFile))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, "", "it has no " + InfoFile + otherCase(folder)
		}
		return nil, "", err.Error()
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, userfile.Limit+1) // the file's own bound, not the scanner's, says why it stops
	for len(lines) < 2 && sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, "", err.Error()
	}
	if len(lines) < 2 {
		return nil, "", fmt.Sprintf("its %s has %d line(s), not 2", InfoFile, len(lines))
	}
	command, err = SplitCommand(lines[0])
	switch {
	case err != nil:
		return nil, "", fmt.Sprintf("line 1 of its %s: %v", InfoFile, err)
	case len(command) == 0:
		return nil, "", fmt.Sprintf("line 1 of its %s (the command) is empty", InfoFile)
	case slices.ContainsFunc(command, func(w string) bool { return strings.ContainsRune(w, 0) }):
		return nil, "", fmt.Sprintf("line 1 of its %s (the command) holds NUL, which no program's arguments can hold: the player could never start; remove it", InfoFile)
	case strings.TrimSpace(lines[1]) == "":
		return nil, "", fmt.Sprintf("line 2 of its %s (the nick) is empty", InfoFile)
	}
	return command, strings.TrimSpace(lines[1]), ""
}

// otherCase is " (it has Info.txt ...)" when folder holds a file whose
// name is InfoFile in other letters' case, which a system that ignores
// case (the student's) took for it; else "".
func otherCase(folder string) string {
	ents, _ := os.ReadDir(folder) // sorted: the same file is named every time
	for _, e := range ents {
		if e.Name() != InfoFile && strings.EqualFold(e.Name(), InfoFile) {
			return fmt.Sprintf(" (it has %s: the name must be %s, in lower case)", e.Name(), InfoFile)
		}
	}
	return ""
}

// SplitCommand splits a launch command into words the way a shell does
// for simple quoting, without running a shell: words are separated by
// spaces and tabs; '...' keeps everything inside as it is; "..." keeps
// everything but \" and \\; outside quotes a backslash keeps the next
// character. Nothing else is special: no variables, globs or pipes.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	}
	if escaped {
		return nil, fmt.Errorf("it ends with a backslash")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// identifier makes a folder name a bot name: characters that may not
// stand in an identifier become '_', and a name that does not start with
// a letter gets "p_" in front.
func identifier(folder string) string {
	var sb strings.Builder
	for _, r := range folder {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-') {
			sb.WriteRune(r)
		} else {
			sb.WriteRune('_')
		}
	}
	name := sb.String()
	if !hclsyntax.ValidIdentifier(name) || !unicode.IsLetter(rune(name[0])) {
		name = "p_" + name
	}
	return name
}

// BotOfFolder is the bot a bots_from block made of the player folder
// called folder (its name as in the block's dir, "Zoë Müller (late)"),
// or nil: a command that takes a bot's name can say which name the
// folder became (Zo__M_ller__late_).
func (c *Config) BotOfFolder(folder string) *Bot {
	for _, bf := range c.BotsFrom {
		for _, b := range bf.Bots {
			if filepath.Base(b.Dir) == folder {
				return b
			}
		}
	}
	return nil
}

// UnknownBot says that the configuration has no bot called name, and
// what the user likely meant: the bot a bots_from folder of that name
// became, or the closest names.
func (c *Config) UnknownBot(name string) error {
	if b := c.BotOfFolder(name); b != nil {
		return fmt.Errorf("the configuration has no bot %q, but the bots_from player folder %q is the bot %q (a folder's name becomes a bot's name with every character but ASCII letters, digits, _ and - made _): use %s", name, b.Dir, b.Name, b.Name)
	}
	if s := c.skippedFolder(name); s != nil {
		return fmt.Errorf("the configuration has no bot %q: the bots_from player folder %s was left out as invalid (invalid = \"skip\"): %s", name, s.Folder,
			strings.TrimPrefix(s.Why, "Player folder "+s.Folder+": "))
	}
	var names []string
	for _, b := range c.Bots {
		names = append(names, b.Name)
	}
	return fmt.Errorf("the configuration has no bot %q%s", name, knownNames(name, names))
}

// skippedFolder is the player folder invalid = "skip" left out whose
// name, or the bot name it would have made, is name; or nil.
func (c *Config) skippedFolder(name string) *SkippedFolder {
	for _, bf := range c.BotsFrom {
		for i, s := range bf.Skipped {
			if base := filepath.Base(s.Folder); base == name || identifier(base) == name {
				return &bf.Skipped[i]
			}
		}
	}
	return nil
}

// knownNames ends a message that name is no bot of names: the name
// name is a typo of, or else the names themselves (a few).
func knownNames(name string, names []string) string {
	if s := drivers.Suggest(name, names); s != "" {
		return s
	}
	if identifier(name) != name {
		// Not a name a bot can have: perhaps a folder's, of another block.
		if s := drivers.Suggest(identifier(name), names); s != "" {
			return s
		}
	}
	switch {
	case len(names) == 0:
		return ""
	case len(names) > 10:
		return fmt.Sprintf("; its bots are %s, ... (%d in all)", strings.Join(names[:10], ", "), len(names))
	}
	return "; its bots are " + strings.Join(names, ", ")
}

// botsFromValue is bots_from as expressions see it: each block's bots as
// a list of bot references.
func (l *loader) botsFromValue() cty.Value {
	m := map[string]cty.Value{}
	for _, bf := range l.botsFrom {
		refs := make([]cty.Value, len(bf.Bots))
		for i, b := range bf.Bots {
			refs[i] = botRef(b.Name)
		}
		m[bf.Name] = cty.TupleVal(refs)
	}
	return cty.ObjectVal(m)
}

func (l *loader) botsFromNames() []string {
	var names []string
	for _, bf := range l.botsFrom {
		names = append(names, bf.Name)
	}
	sort.Strings(names)
	return names
}

// longName says why the bot name that folder makes is too long, or "".
func longName(folder, name string) string {
	if len(name) <= tournament.MaxNameBytes {
		return ""
	}
	return fmt.Sprintf("Player folder %s makes a bot name of %d bytes, but names are at most %d: arbiter names files after them (matches/<match>/seat<N>-<bot>.stderr), and a file name holds at most 255 bytes.",
		folder, len(name), tournament.MaxNameBytes)
}
