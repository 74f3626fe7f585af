package euchre

import (
	"bufio"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/house"
)

// MemoryFile is the one file the house bots keep in their folder.
const MemoryFile = "memory"

// HouseBots lists the bots built into arbiter for Euchre, sorted by name.
// Each makes one decision per run, like every Euchre bot.
func HouseBots() []house.Bot {
	return []house.Bot{
		{Name: "random", Doc: "Gives a random valid answer in every phase; remembers the upcard so as never to name the turned-down suit.",
			Run: houseRun(random)},
		{Name: "rules", Doc: "Orders and names with enough trump strength, leads trumps as maker, follows low when its partner is winning.",
			Run: houseRun(rules)},
	}
}

// strategy makes one decision. mem is what the bot remembered from its
// previous run, and it updates it for the next.
type strategy func(s *Situation, mem *memory, rng *rand.Rand) string

// houseRun makes a strategy a process bot: one input on in, one line on
// out. Its memory file is in ARBITER_MEMORY_DIR, the folder the driver
// gives it; without it (a bot run by hand) nothing is kept. The folder
// may be shared by both positions of a team (memory = "per-bot"), so the
// file holds one line per position (ARBITER_POSITION).
//
// The file's name is made with path.Join, which is filepath.Join where
// arbiter runs ('/' separates folders): path/filepath comes late in Go's
// order of initialisation, and a house bot that imported it would let the
// configuration language's packages initialise before drivers/house/start
// runs the bot.
func houseRun(play strategy) func(in io.Reader, out io.Writer, env func(string) string) error {
	return func(in io.Reader, out io.Writer, env func(string) string) error {
		text, err := io.ReadAll(io.LimitReader(in, 1<<16))
		if err != nil {
			return err
		}
		dir := env("ARBITER_MEMORY_DIR")
		var file []byte
		if dir != "" {
			file, _ = os.ReadFile(path.Join(dir, MemoryFile))
		}
		key := "p" + env("ARBITER_POSITION") + ":"
		old := positionLine(file, key)
		answer, mem, err := decideHouse(play, string(text), []byte(old), env)
		if err != nil {
			return err
		}
		// Memory first: once its answer is read, a bot has only a short
		// grace to exit before it is killed. A memory that cannot be kept
		// is reported, but the answer still goes out.
		var memErr error
		if dir != "" && string(mem) != old {
			memErr = rewrite(path.Join(dir, MemoryFile), withPositionLine(file, key, string(mem)))
		}
		w := bufio.NewWriter(out)
		w.WriteString(answer + "\n")
		if err := w.Flush(); err != nil {
			return err
		}
		return memErr
	}
}

// rewrite replaces the contents of the file at path with data. It
// writes over the old contents and then cuts the file to data's length,
// rather than truncating it first as os.WriteFile does: on ext4 a file
// truncated to zero and written again is flushed to the disk when it is
// closed (the auto_da_alloc safeguard for files replaced by truncation),
// which cost a house bot about half a millisecond a decision.
func rewrite(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// positionLine is the line of file that starts with key, without it.
func positionLine(file []byte, key string) string {
	for l := range strings.Lines(string(file)) {
		if rest, ok := strings.CutPrefix(l, key); ok {
			return rest
		}
	}
	return ""
}

// withPositionLine is file with the line of key replaced by key+line
// (line ends in a newline), in the order the positions first wrote.
func withPositionLine(file []byte, key, line string) []byte {
	var b strings.Builder
	put := false
	for l := range strings.Lines(string(file)) {
		if strings.HasPrefix(l, key) {
			l, put = key+line, true
		}
		b.WriteString(l)
	}
	if !put {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		b.WriteString(key + line)
	}
	return []byte(b.String())
}

// decideHouse runs one decision of a house bot in process: the same path
// as a process run, without the process.
func decideHouse(play strategy, text string, mem []byte, env func(string) string) (string, []byte, error) {
	s, err := ParseInput(text)
	if err != nil {
		return "", mem, err
	}
	m := parseMemory(string(mem))
	// Seeded by the bot's seed (ARBITER_SEED, drivers.BotSeed: not the
	// deal's), the position and the input, so a match replays exactly and
	// two decisions do not repeat the same draw.
	h := fnv.New64a()
	h.Write([]byte(text))
	seed, _ := strconv.ParseUint(env("ARBITER_SEED"), 10, 64)
	pos, _ := strconv.ParseUint(env("ARBITER_POSITION"), 10, 64)
	rng := rand.New(rand.NewPCG(seed^pos<<56, h.Sum64()))
	answer := play(s, m, rng)
	return answer, []byte(m.String()), nil
}

// memory is what the house bots keep between runs: one line, far below the
// 1 KB limit.
type memory struct {
	Upcard Card   // the upcard of this hand, NoCard before the first ordering input
	Index  int    // place in the asking order (3 = dealer), -1 unknown
	Made   bool   // this bot ordered or named trump first
	Seen   []Card // cards of this hand's finished tricks
}

func parseMemory(s string) *memory {
	m := &memory{Upcard: NoCard, Index: -1}
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "up":
			if c, ok := ParseCard(v); ok {
				m.Upcard = c
			}
		case "index":
			if i, err := strconv.Atoi(v); err == nil {
				m.Index = i
			}
		case "made":
			m.Made = v == "1"
		case "seen":
			if cs, ok := ParseCards(v); ok {
				m.Seen = cs
			}
		}
	}
	return m
}

func (m *memory) String() string {
	made := "0"
	if m.Made {
		made = "1"
	}
	return "up=" + m.Upcard.String() + " index=" + strconv.Itoa(m.Index) + " made=" + made + " seen=" + FormatCards(m.Seen) + "\n"
}

// observe updates what every house bot remembers, whatever it answers.
func (m *memory) observe(s *Situation) {
	switch s.Phase {
	case Ordering:
		// Every player is asked in the ordering round of every hand: a new
		// hand starts here.
		*m = memory{Upcard: s.Upcard, Index: len(s.Decisions)}
	case Naming:
		m.Index = len(s.Decisions)
	case Trick:
		for _, c := range s.Played {
			if c != NoCard {
				m.Seen = append(m.Seen, c)
			}
		}
	}
}

// answered notes whether the bot's answer a made trump.
func (m *memory) answered(s *Situation, a string) string {
	if (s.Phase == Ordering && a == "o") || (s.Phase == Naming && a != "p") {
		m.Made = true
		for _, d := range s.Decisions {
			if d != "p" {
				m.Made = false
			}
		}
	}
	return a
}

func random(s *Situation, m *memory, rng *rand.Rand) string {
	m.observe(s)
	pick := func(options ...string) string { return options[rng.IntN(len(options))] }
	switch s.Phase {
	case Ordering:
		return m.answered(s, pick("o", "p"))
	case Naming:
		options := []string{"p"}
		for u := range Suit(4) {
			if m.Upcard == NoCard || u != m.Upcard.Suit() {
				options = append(options, u.String())
			}
		}
		return m.answered(s, pick(options...))
	case Discard:
		all := append(append([]Card{}, s.Hand...), s.Upcard)
		return all[rng.IntN(len(all))].String()
	case Alone:
		return pick("y", "n")
	case Turn:
		legal := Legal(s.Hand, s.Trump, first(s.Played))
		return legal[rng.IntN(len(legal))].String()
	}
	return ""
}

func first(played []Card) Card {
	if len(played) == 0 {
		return NoCard
	}
	return played[0]
}

// Decide runs one decision of the house bot called name in process, as
// its process would with mem as the line it remembered: it returns the
// answer and the line to remember next. ok is false when there is no such
// bot.
func Decide(name, text string, mem []byte, env func(string) string) (answer string, next []byte, ok bool, err error) {
	var play strategy
	switch name {
	case "random":
		play = random
	case "rules":
		play = rules
	default:
		return "", mem, false, nil
	}
	answer, next, err = decideHouse(play, text, mem, env)
	return answer, next, true, err
}
