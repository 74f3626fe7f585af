// Package starters holds what `arbiter init GAME` writes: for every game a
// ready tournament (tournament.hcl with the house bots and the starters)
// and starter bots in Python, C++ and Java that speak the game's protocol
// correctly and pass `arbiter check`, with a README.
package starters

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"text/template"
)

//go:embed planowanie bricks blokus auction euchre
var files embed.FS

// Languages are the starters of every game: the directory, the build and
// the command, as tournament.hcl declares them.
var Languages = []Language{
	{Dir: "python", Command: []string{"python3", "bot.py"}},
	{Dir: "cpp", Build: []string{"g++", "-O2", "-o", "bot", "bot.cpp"}, Command: []string{"./bot"}},
	{Dir: "java", Build: []string{"javac", "Bot.java"}, Command: []string{"java", "-Xmx300m", "-cp", ".", "Bot"}},
}

// Language is one starter.
type Language struct {
	Dir            string
	Build, Command []string
}

// Games lists the games that have starters.
func Games() []string {
	entries, _ := files.ReadDir(".")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Write writes game's tournament, starters and README into dir, which
// may exist but must not hold any of the files; it returns the files
// written, relative to dir.
func Write(game, dir string) ([]string, error) {
	if _, err := fs.Stat(files, game); err != nil {
		return nil, fmt.Errorf("no starters for game %q; games: %s", game, strings.Join(Games(), ", "))
	}
	var names []string
	err := fs.WalkDir(files, game, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p[len(game)+1:])
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	names = append(names, "README.md")
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return nil, fmt.Errorf("%s already exists: init writes a new tournament and overwrites nothing", filepath.Join(dir, n))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	for _, n := range names {
		var data []byte
		if n == "README.md" {
			data = readme(game)
		} else if data, err = files.ReadFile(path.Join(game, n)); err != nil {
			return nil, err
		}
		full := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return nil, err
		}
	}
	sort.Strings(names)
	return names, nil
}

// protocols says in brief how each game's bots talk to the referee.
var protocols = map[string]string{
	"planowanie": "A bot is one process for the whole game. The referee writes one command per line (`set_deck`, `set_players`, `set_game`, `set_cards`, `time_left`, `gen_declare`, `declare`, `play`, `gen_move`, `quit`); the bot answers each with `= answer` (or `? error`) and an empty line. It must follow suit when it can, and track its own hand from the `play` commands.",
	"bricks":     "A bot is one process for the whole duel. It gets the board (`7_2x3_4x5`: the size, then the filled cells column x row) and answers `OK`; then it gets `START` or the opponent's move and answers with its own, two side-by-side free cells `AxB_CxD`; `STOP` ends the duel.",
	"blokus":     "A bot is one process for the whole game. The referee writes one command per line (`set_board`, `set_player`, `set_stones`, `play`, `time_left`, `gen_move`, `quit`); the bot answers each with `= answer` (or `? error`) and an empty line. `gen_move` is answered with the cells of a stone (`row,col` separated by spaces) or `pass` when no stone fits.",
	"auction":    "A strategy is run once per round as `COMMAND <game> <letter>`, in the folder that holds `<game>/`. It reads `<game>/state` (and `<game>/log`), prints its bid, a whole number from 0 to its capital, and exits. It may keep files in `<game>/` named with its prefix (`ARBITER_PREFIX`).",
	"euchre":     "A bot is run once per decision with the decision on standard input: its hand, its team's points and tricks, the phase (`ordering`, `naming`, `discard`, `alone`, `turn`, `trick`) and the phase's lines. It prints one answer line and exits. It may keep one small file in its working directory between runs (to remember the upcard, say).",
}

var readmeTemplate = template.Must(template.New("readme").Parse(`# A {{.Game}} tournament

Written by ` + "`arbiter init {{.Game}}`" + `: a tournament (` + "`tournament.hcl`" + `) between
arbiter's built-in bots and three starter bots, in Python (` + "`python/`" + `), C++
(` + "`cpp/`" + `) and Java (` + "`java/`" + `). Each starter speaks the protocol correctly and
plays the simplest legal move: make it yours.

## The protocol in brief

{{.Protocol}}

The full rules and protocol are in arbiter's repository,
` + "`docs/protocols/{{.Game}}.md`" + `.

## Check a bot

` + "```sh" + `
arbiter check -bot python .     # a bot of tournament.hcl, by name
arbiter check -bot cpp .        # built first, as the tournament builds it
arbiter check -bot java .
arbiter check {{.Game}} -dir python -- python3 bot.py    # any command
` + "```" + `

Every case prints ` + "`ok`" + ` or ` + "`FAIL`" + ` with the reason and the exchange that
failed; the exit status is 0 only when all pass. The bot runs as in the
tournament: in the sandbox, under the game's limits, its folder
read-only.

## Talk to a bot
{{if .Session}}
` + "```sh" + `
arbiter console {{.Game}} -- python3 python/bot.py
` + "```" + `

Type protocol lines and see the answers and how long they took.
{{else}}
Run it by hand with an input of the game's format (see the protocol
above), or let ` + "`arbiter check`" + ` write the inputs for you.
{{end}}
## Run the tournament

` + "```sh" + `
arbiter run . -out results
arbiter rank results
` + "```" + `

The C++ and Java bots are built once, before their first match (their
` + "`build`" + ` in tournament.hcl); the builds' output is in ` + "`results/builds/`" + `.
A bot whose build fails loses every match with the verdict ` + "`build`" + `, and the
tournament goes on. Add your bot as another ` + "`bot`" + ` block and to the
tournament's ` + "`bots`" + `.
`))

func readme(game string) []byte {
	var b bytes.Buffer
	_ = readmeTemplate.Execute(&b, map[string]any{
		"Game": game, "Protocol": protocols[game],
		"Session": game == "planowanie" || game == "blokus" || game == "bricks",
	})
	return b.Bytes()
}
