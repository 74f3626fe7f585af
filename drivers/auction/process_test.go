package auction

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// The test binary doubles as the bots (internal/testbot), so every bot
// here is a real process: testbot.HouseName(NAME) is `arbiter bot
// auction/NAME`, and a mode of testBot is a misbehaving bot; "fixed"
// bids its first argument.
func TestMain(m *testing.M) {
	testbot.HouseBots(HouseBots())
	for _, mode := range []string{"copy", "writestate", "quota", "bigfile", "manyfiles", "keeper", "outside", "crash", "silent", "hang", "linger", "garbage", "empty", "fifo", "setuid", "reserve", "afterbid"} {
		testbot.Register(mode, func(args []string) int {
			testBot(mode, args)
			return 0
		})
	}
	testbot.Register("fixed", func(args []string) int {
		testBot("fixed:"+args[0], args[1:])
		return 0
	})
	testbot.Main(m)
}

func testBot(mode string, args []string) {
	game := args[0]
	prefix := os.Getenv("ARBITER_PREFIX")
	state, _ := os.ReadFile(filepath.Join(game, "state"))
	switch {
	case mode == "copy": // shows what it read on stderr, bids 0
		os.Stderr.Write(state)
		fmt.Println(0)
	case strings.HasPrefix(mode, "fixed:"):
		fmt.Println(strings.TrimPrefix(mode, "fixed:"))
	case mode == "writestate": // shows what it read, then vandalises state and log; bids 1
		log, _ := os.ReadFile(filepath.Join(game, "log"))
		os.Stderr.Write(state)
		os.Stderr.Write(log)
		os.WriteFile(filepath.Join(game, "state"), []byte("1 1 1\nA\nA 0\n\n"), 0o644)
		f, _ := os.OpenFile(filepath.Join(game, "log"), os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString("forged\n")
		f.Close()
		fmt.Println(1)
	case mode == "quota": // one file more than allowed, and a file of its own kept
		for i := range 11 {
			os.WriteFile(filepath.Join(game, fmt.Sprintf("%s%d", prefix, i)), []byte("x"), 0o644)
		}
		fmt.Println(1)
	case mode == "bigfile": // 400 MiB in one file, a MiB at a time, during its move
		proctest.WriteMiBs(filepath.Join(game, prefix+"big"), 400)
		fmt.Println(1)
	case mode == "manyfiles": // 80 files of 5 MiB, each within the bytes limit
		for i := range 80 {
			proctest.WriteMiBs(filepath.Join(game, fmt.Sprintf("%s%d", prefix, i)), 5)
		}
		fmt.Println(1)
	case mode == "reserve": // bids 0; 300 MiB of disk reserved in a file that stays empty
		if f, err := os.Create(filepath.Join(game, prefix+"blocks")); err == nil {
			fmt.Fprintln(os.Stderr, "fallocate:", unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, 300<<20))
			f.Close()
		}
		fmt.Println(0)
	case mode == "afterbid": // bids 0, then writes 40 files of 1 MiB in its grace
		fmt.Println(0)
		for i := range 40 {
			proctest.WriteMiBs(filepath.Join(game, fmt.Sprintf("%s%d", prefix, i)), 1)
		}
	case mode == "keeper": // one file within the limits, appended every round
		f, _ := os.OpenFile(filepath.Join(game, prefix+"memo"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		f.WriteString("round\n")
		f.Close()
		fmt.Println(0)
	case mode == "outside": // files outside its prefix and outside the game folder
		os.WriteFile(filepath.Join(game, "notmine"), []byte("x"), 0o644)
		os.WriteFile("stray", []byte("x"), 0o644)
		fmt.Println(1)
	case mode == "crash":
		os.Exit(3)
	case mode == "silent":
	case mode == "hang": // never answers; leaves a setsid grandchild
		cmd := testbot.Command("linger", args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Start()
		time.Sleep(time.Hour)
	case mode == "linger":
		time.Sleep(time.Hour)
	case mode == "garbage":
		fmt.Println("a lot of money")
	case mode == "empty":
		fmt.Println()
	case mode == "setuid": // a set-user-ID copy of itself among its files
		exe, _ := os.ReadFile("/proc/self/exe")
		os.WriteFile(filepath.Join(game, prefix+"suid"), exe[:100], 0o755)
		syscall.Chmod(filepath.Join(game, prefix+"suid"), 0o4755)
		fmt.Println(1)
	case mode == "fifo": // state and its own file become FIFOs, which nobody writes
		os.Remove(filepath.Join(game, "state"))
		syscall.Mkfifo(filepath.Join(game, "state"), 0o644)
		syscall.Mkfifo(filepath.Join(game, prefix+"pipe"), 0o644)
		fmt.Println(1)
	}
}

// recorder keeps a match's transcript in memory.
type recorder struct {
	mu     sync.Mutex
	events []recorded
	recv   map[int][]string
}

type recorded struct {
	kind string
	data any
}

func (r *recorder) Sent(int, string) {}
func (r *recorder) Received(seat int, line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.recv == nil {
		r.recv = map[int][]string{}
	}
	r.recv[seat] = append(r.recv[seat], line)
}
func (r *recorder) Event(kind string, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, recorded{kind, data})
}

func (r *recorder) defaults() []DefaultEvent {
	var out []DefaultEvent
	for _, e := range r.events {
		if d, ok := e.data.(DefaultEvent); ok {
			out = append(out, d)
		}
	}
	return out
}

func (r *recorder) end() EndEvent {
	for _, e := range r.events {
		if d, ok := e.data.(EndEvent); ok {
			return d
		}
	}
	return EndEvent{}
}

// seat is a bot for a test match: "house:NAME" for a house bot, a mode of
// testBot otherwise, or "/nonexistent".
type seat struct{ bot, mode string }

// newMatch makes a match of real processes; every process carries
// AUCTION_MARK=<mark>, so the test can look for leftovers.
func newMatch(t testing.TB, seed uint64, seats ...seat) (*drivers.Match, *recorder, string) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	mark := hex.EncodeToString(b[:])
	rec := &recorder{}
	dir := t.TempDir()
	m := &drivers.Match{ID: "test", Seed: seed, Round: 1, Dir: dir, Record: rec,
		Clock: drivers.Clock{Move: drivers.Duration(5 * time.Second)}}
	for i, s := range seats {
		st := drivers.Seat{Bot: s.bot, Nick: s.bot, Dir: dir,
			Stderr: filepath.Join(dir, fmt.Sprintf("seat%d-%s.stderr", i, s.bot)),
			Env:    []string{"ARBITER_SEED=" + strconv.FormatUint(seed, 10), "ARBITER_SEAT=" + strconv.Itoa(i), "AUCTION_MARK=" + mark}}
		switch {
		case strings.HasPrefix(s.mode, "house:"):
			st.Command = testbot.Argv(t, testbot.HouseName(strings.TrimPrefix(s.mode, "house:")))
		case strings.HasPrefix(s.mode, "/"):
			st.Command = []string{s.mode}
		case strings.HasPrefix(s.mode, "fixed:"):
			st.Command = testbot.Argv(t, "fixed", strings.TrimPrefix(s.mode, "fixed:"))
		case strings.HasPrefix(s.mode, "slow:"): // slow:DURATION:BID
			d, bid, _ := strings.Cut(strings.TrimPrefix(s.mode, "slow:"), ":")
			st.Command = testbot.Argv(t, "slow", d, bid)
		default:
			st.Command = testbot.Argv(t, s.mode)
		}
		m.Seats = append(m.Seats, st)
	}
	return m, rec, mark
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var testSettings = Settings{IdleRounds: 10, Files: FileLimits{Count: 10, Bytes: 1000}}

// TestBotsReadTheSpecState: the state file every bot reads is the one of
// auction.md, byte for byte, for the same position.
func TestBotsReadTheSpecState(t *testing.T) {
	m, _, mark := newMatch(t, 1, seat{"a", "copy"}, seat{"b", "copy"}, seat{"c", "copy"})
	s := testSettings
	s.IdleRounds = 1
	if _, err := play(context.Background(), m, s, Board{Name: "spec", Cols: 4, Rows: 3}, examplePosition(t)); err != nil {
		t.Fatal(err)
	}
	for _, st := range m.Seats {
		if got := readFile(t, st.Stderr); got != exampleState {
			t.Errorf("bot %s read:\n%s\nwant:\n%s", st.Bot, got, exampleState)
		}
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}

// TestVandalIsCaughtAndIsolated: a bot that overwrites state and log gets
// a files default every round, while the others, bidding at the same time,
// read the true state; the vandal itself reads the true state next round.
func TestVandalIsCaughtAndIsolated(t *testing.T) {
	m, rec, mark := newMatch(t, 1, seat{"vandal", "writestate"}, seat{"b", "copy"}, seat{"c", "copy"})
	s := testSettings
	s.IdleRounds = 2
	out, err := play(context.Background(), m, s, Board{Name: "spec", Cols: 4, Rows: 3}, examplePosition(t))
	if err != nil {
		t.Fatal(err)
	}
	// Round 1 is unsold (the vandal's 1 counts as 0), so round 2 auctions
	// the rest of the queue with [4,1] at its end.
	round2 := strings.Replace(exampleState, "[4,1]; [2,2]; [1,2]; [3,2]; [4,3];", "[2,2]; [1,2]; [3,2]; [4,3]; [4,1];", 1)
	log1 := "round 1\n" + exampleState + "bids A 0 B 0 C 0\nunsold [4,1]\n\n"
	for i, st := range m.Seats {
		want := exampleState + round2
		if i == 0 {
			want = exampleState + round2 + log1
		}
		if got := readFile(t, st.Stderr); got != want {
			t.Errorf("bot %s read:\n%s\nwant:\n%s", st.Bot, got, want)
		}
	}
	if out.Seats[0].Defaults != 2 || out.Seats[1].Defaults != 0 || out.Seats[2].Defaults != 0 {
		t.Errorf("defaults %d %d %d, want 2 0 0", out.Seats[0].Defaults, out.Seats[1].Defaults, out.Seats[2].Defaults)
	}
	for _, d := range rec.defaults() {
		if d.Seat != 0 || d.Kind != FilesKind || !strings.Contains(d.Detail, "state") || !strings.Contains(d.Detail, "log") {
			t.Errorf("default %+v, want a files default of seat 0 naming state and log", d)
		}
	}
	if log := readFile(t, filepath.Join(m.Dir, "game", "log")); strings.Contains(log, "forged") || !strings.HasPrefix(log, log1) {
		t.Errorf("the referee's log:\n%s", log)
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}

// TestFIFOInTheGameFolder: a bot that leaves FIFOs in its game folder
// (state replaced by one, and one with its prefix) gets a files default
// each round; the referee, reading them, does not wait for a writer.
func TestFIFOInTheGameFolder(t *testing.T) {
	m, rec, _ := newMatch(t, 1, seat{"fifo", "fifo"}, seat{"b", "copy"}, seat{"c", "copy"})
	s := testSettings
	s.IdleRounds = 2
	done := make(chan error, 1)
	var out *drivers.Outcome
	go func() {
		var err error
		out, err = play(context.Background(), m, s, Board{Name: "spec", Cols: 4, Rows: 3}, examplePosition(t))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the match hangs on the FIFO the bot left in its game folder")
	}
	if out.Seats[0].Defaults == 0 || out.Seats[1].Defaults != 0 || out.Seats[2].Defaults != 0 {
		t.Errorf("defaults %d %d %d, want some for the FIFO's bot and none for the others", out.Seats[0].Defaults, out.Seats[1].Defaults, out.Seats[2].Defaults)
	}
	for _, d := range rec.defaults() {
		if d.Seat != 0 || d.Kind != FilesKind || !strings.Contains(d.Detail, "state") {
			t.Errorf("default %+v, want a files default of seat 0 naming state", d)
		}
	}
}

// TestSetIDFile: a set-user-ID file among a bot's own files is a files
// default, and is removed: it would be left on the host.
func TestSetIDFile(t *testing.T) {
	m, rec, _ := newMatch(t, 1, seat{"suid", "setuid"}, seat{"b", "copy"}, seat{"c", "copy"})
	s := testSettings
	s.IdleRounds = 2
	out, err := play(context.Background(), m, s, Board{Name: "spec", Cols: 4, Rows: 3}, examplePosition(t))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range rec.defaults() {
		found = found || d.Seat == 0 && d.Kind == FilesKind && strings.Contains(d.Detail, "set-user-ID")
	}
	if !found || out.Seats[0].Defaults == 0 {
		t.Errorf("no files default for the set-user-ID file: %+v", rec.defaults())
	}
	filepath.WalkDir(m.Dir, func(path string, e os.DirEntry, err error) error {
		if err == nil && setID(e) {
			t.Errorf("%s is left set-user-ID", path)
		}
		return nil
	})
}

// TestFileQuota: a bot over its file count gets a files default and loses
// its files; one within the limits keeps its file from round to round; a
// bot that writes outside its prefix or its game folder gets a default and
// the files are removed.
func TestFileQuota(t *testing.T) {
	m, rec, mark := newMatch(t, 1, seat{"q", "quota"}, seat{"k", "keeper"}, seat{"o", "outside"})
	s := testSettings
	s.IdleRounds = 3
	out, err := play(context.Background(), m, s, Board{Name: "b", Cols: 3, Rows: 3, Capital: 10}, NewPosition(Board{Cols: 3, Rows: 3, Capital: 10}, 3, 7))
	if err != nil {
		t.Fatal(err)
	}
	if out.Seats[0].Defaults != 3 || out.Seats[1].Defaults != 0 || out.Seats[2].Defaults != 3 {
		t.Errorf("defaults %d %d %d, want 3 0 3", out.Seats[0].Defaults, out.Seats[1].Defaults, out.Seats[2].Defaults)
	}
	for _, d := range rec.defaults() {
		want := map[int]string{0: "over its limit of 10 files", 2: `notmine, which does not start with its prefix "o"`}[d.Seat]
		if d.Kind != FilesKind || want == "" || !strings.Contains(d.Detail, want) {
			t.Errorf("default %+v, want a files default saying %q", d, want)
		}
		if d.Seat == 2 && !strings.Contains(d.Detail, "stray beside the game folder") {
			t.Errorf("default %+v does not name the stray file", d)
		}
	}
	for letter, want := range map[string][]string{"A": {"log", "state"}, "B": {"kmemo", "log", "state"}, "C": {"log", "state"}} {
		ents, _ := os.ReadDir(filepath.Join(m.Dir, "seats", letter, "game"))
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("seat %s's game folder holds %v, want %v", letter, names, want)
		}
	}
	if got := readFile(t, filepath.Join(m.Dir, "seats", "B", "game", "kmemo")); got != "round\nround\nround\n" {
		t.Errorf("the keeper's own file holds %q, want three rounds", got)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "seats", "C", "stray")); err == nil {
		t.Error("the stray file beside the game folder was not removed")
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}

// TestMisbehavingBots: crashing, hanging, silent and garbage-printing bots
// and invalid bids count as 0 and are recorded; the match goes on to its
// end; no process is left behind.
func TestMisbehavingBots(t *testing.T) {
	m, rec, mark := newMatch(t, 3,
		seat{"crash", "crash"}, seat{"hang", "hang"}, seat{"garbage", "garbage"}, seat{"empty", "empty"},
		seat{"negative", "fixed:-4"}, seat{"huge", "fixed:7"}, seat{"silent", "silent"}, seat{"good", "fixed:3"},
		seat{"missing", "/nonexistent/bot"})
	// Long enough for 9 processes to start on a busy machine; the hanging
	// bot sleeps for an hour.
	m.Clock.Move = drivers.Duration(2 * time.Second)
	b := Board{Name: "tiny", Cols: 2, Rows: 1, Capital: 6}
	out, err := play(context.Background(), m, testSettings, b, NewPosition(b, len(m.Seats), 3))
	if err != nil {
		t.Fatal(err)
	}
	end := rec.end()
	if end.Reason != "sold out" || end.Rounds != 2 || end.Cells[7] != 2 || end.Left[7] != 0 {
		t.Fatalf("end %+v: want the good bot to buy both cells for 3 each", end)
	}
	wantKind := map[int]string{0: "crash", 1: "time", 2: "illegal", 3: "illegal", 4: "illegal", 5: "illegal", 6: "protocol", 8: "start"}
	count := map[int]int{}
	for _, d := range rec.defaults() {
		count[d.Seat]++
		if d.Kind != wantKind[d.Seat] {
			t.Errorf("default of seat %d: %s (%s), want %s", d.Seat, d.Kind, d.Detail, wantKind[d.Seat])
		}
	}
	for i, r := range out.Seats {
		want := 2
		if i == 7 {
			want = 0
		}
		if r.Defaults != want || count[i] != want {
			t.Errorf("seat %d: %d defaults, %d default events, want %d", i, r.Defaults, count[i], want)
		}
		if r.AllDefaults != (i != 7) {
			t.Errorf("seat %d: all_defaults %v, want %v (every bid replaced but the good bot's)", i, r.AllDefaults, i != 7)
		}
		wantPlace := 5.5 // places 2..9 shared
		if i == 7 {
			wantPlace = 1
		}
		if r.Place != wantPlace {
			t.Errorf("seat %d placed %g, want %g", i, r.Place, wantPlace)
		}
		wantFault := ""
		if i == 8 {
			wantFault = drivers.FaultStart
		}
		if r.Fault != wantFault {
			t.Errorf("seat %d fault %q (%s), want %q", i, r.Fault, r.Detail, wantFault)
		}
	}
	if r := out.Seats[1]; r.TimeMS < 2*2000 {
		t.Errorf("the hanging bot was charged %dms for 2 time-outs of 2s", r.TimeMS)
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}

// TestIdleLimit: a game where nobody ever outbids the others ends after
// idle_rounds rounds without a sale.
func TestIdleLimit(t *testing.T) {
	m, rec, mark := newMatch(t, 1, seat{"a", "fixed:2"}, seat{"b", "fixed:2"})
	s := testSettings
	s.IdleRounds = 4
	b := Board{Name: "b", Cols: 3, Rows: 3, Capital: 10}
	if _, err := play(context.Background(), m, s, b, NewPosition(b, 2, 1)); err != nil {
		t.Fatal(err)
	}
	if end := rec.end(); end.Reason != "idle" || end.Rounds != 4 || end.Places[0] != 1.5 || end.Places[1] != 1.5 {
		t.Errorf("end %+v, want idle after 4 rounds, both sharing places 1 and 2", end)
	}
	if got := readFile(t, filepath.Join(m.Dir, "game", "results")); got != "1.5 A 0 0 10\n1.5 B 0 0 10\n" {
		t.Errorf("results file %q", got)
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}

// TestHouseBotGameReplays: a whole game between the four house bots, as
// processes, through Game.Play; the same seed plays the same game again.
func TestHouseBotGameReplays(t *testing.T) {
	g := &Game{settings: Settings{Boards: []Board{{Name: "small", Cols: 5, Rows: 5, Capital: 40}}, IdleRounds: 10,
		Files: FileLimits{Count: 10, Bytes: 10_000_000}}}
	var logs []string
	for range 2 {
		m, rec, mark := newMatch(t, 2008, seat{"random", "house:random"}, seat{"share", "house:share"},
			seat{"square", "house:square"}, seat{"neighbour", "house:neighbour"})
		m.Variant = "small"
		out, err := g.Play(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		places := map[float64]bool{}
		for i, r := range out.Seats {
			if r.Defaults != 0 || r.Fault != "" {
				t.Errorf("house bot %d: %d defaults, fault %q %s; %v", i, r.Defaults, r.Fault, r.Detail, rec.defaults())
			}
			places[r.Place] = true
		}
		if len(rec.recv[0]) == 0 {
			t.Error("no bid was recorded in the transcript")
		}
		logs = append(logs, readFile(t, filepath.Join(m.Dir, "game", "log")))
		for _, f := range []string{"game/state", "game/results", "seats/C/game/squaretmp"} {
			if _, err := os.Stat(filepath.Join(m.Dir, f)); err != nil {
				t.Errorf("no %s: %v", f, err)
			}
		}
		proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
	}
	if logs[0] != logs[1] {
		t.Error("the same seed played two different games")
	}
}
