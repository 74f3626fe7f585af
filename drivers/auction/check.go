package auction

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/conform"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/shell"
	"github.com/arbiter-contests/arbiter/tournament"
)

// CheckCases is the conformance suite of Auction strategies (../shared/
// games/auction.md): the bot is run once per case with a state and a log
// written the way the referee writes them, and its bid is judged by the
// rules; the last case plays a whole small game. The boards are the
// cases' own; the file rules (count, bytes, prefixes), the idle rounds
// and the move limit are the checked game's (see rules).
func (Driver) CheckCases() []drivers.CheckCase {
	return []drivers.CheckCase{
		{Name: "first-round", Doc: "bids a whole number from 0 to its capital in the first round (3 players, 5 × 5, capital 40)", Run: checkRound(3, 1, 0, 40)},
		{Name: "mid-game", Doc: "bids within its capital after 12 rounds, reading state and log, as player C", Run: checkRound(3, 2, 12, 40)},
		{Name: "no-capital", Doc: "bids 0 when its capital is 0", Run: checkNoCapital},
		{Name: "last-cell", Doc: "bids within its capital when one cell is left", Run: checkRound(2, 0, 24, 40)},
		{Name: "files", Doc: "changes neither state nor log and keeps its own files only in the game folder, named with its prefix, within the game's count and bytes", Run: checkFiles},
		{Name: "clock", Doc: "answers within the move limit (clock { move }: the contest's 1 s unless the configuration sets another)", Run: checkClock},
		{Name: "game", Doc: "plays a whole game on 4 × 3 against two players bidding 1 and 2, every bid valid", Run: checkGame},
	}
}

// checkGameName is the game folder's name in the cases.
const checkGameName = "check"

// rules are the settings and the move limit the cases hold the bot to:
// those of the game it is checked for (arbiter check -bot: its
// configuration's), or else the contest's defaults, exactly those a
// game block that sets nothing gives a tournament (DefaultSettings).
func rules(opt drivers.CheckOptions) (Settings, time.Duration) {
	s := DefaultSettings()
	if g, ok := opt.Game.(*Game); ok {
		s = g.settings
	}
	move := time.Duration(opt.Clock.Move)
	if move <= 0 {
		move = DefaultMove // as play does for a clock without a move limit
	}
	return s, move
}

// after plays rounds of a game of players on 5 × 5 with capital, the
// others bidding little so that the bot's own bid decides.
func after(players, rounds, capital int) (*Position, []byte) {
	p := NewPosition(Board{Cols: 5, Rows: 5, Capital: capital}, players, 3)
	var log []byte
	for r := 1; r <= rounds; r++ {
		state := p.State()
		bids := make([]int, players)
		for i := range bids {
			bids[i] = (r + i) % 4
		}
		log = AppendLogRound(log, r, state, bids, p.Settle(bids))
	}
	return p, log
}

// bid runs the bot as seat with p and log and judges its bid; the bot
// may keep files (folder is its seat folder, made by the caller or here).
func bid(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder, f *seatFolder, p *Position, log []byte, seat int) (int, proc.Reply, error) {
	if err := f.prepare(p.State(), log); err != nil {
		return 0, proc.Reply{}, err
	}
	for _, l := range strings.Split(strings.TrimSpace(string(p.State())), "\n") {
		rec.Event("note", f.name+"/state: "+l)
	}
	argv := append(drivers.ResolveArgv(bot.Command, bot.Dir), f.name, string(Letter(seat)))
	line, reply, err := conform.Once(ctx, bot, opt, rec, argv, f.cwd, "", "ARBITER_PREFIX="+f.prefix, "ARBITER_BOT_DIR="+bot.Dir)
	if err != nil {
		return 0, reply, err
	}
	b, problem := ParseBid(line, p.Capital[seat])
	if problem != "" {
		return 0, reply, conform.Failf("%s (player %c; a bid is a whole number from 0 to your capital)", problem, Letter(seat))
	}
	problems, err := f.check()
	if err != nil {
		return 0, reply, err
	}
	if len(problems) > 0 {
		return 0, reply, conform.Failf("%s%s", strings.Join(problems, "; "), prefixHint(bot, opt, f))
	}
	return b, reply, nil
}

// prefixHint is what ends a failure in which the bot made files without
// the prefix it was checked with (f.unprefixed): how to give check the
// prefix the files share, and a tournament too. A strategy written to
// the Fibot rules names its files after its program (tym42 keeps
// tym42tmp), while a bot given to check by its command is named bot and
// has the prefix "bot", as a tournament would give a bot of that name.
// The prefix is not guessed from the program's name: a tournament gives
// the bot its name as its prefix, not its program's, and a check that
// passed with a guess would hide the failure of every match.
func prefixHint(bot drivers.Seat, opt drivers.CheckOptions, f *seatFolder) string {
	if len(f.unprefixed) == 0 || slices.ContainsFunc(bot.Env, func(kv string) bool { return strings.HasPrefix(kv, "ARBITER_PREFIX=") }) {
		return ""
	}
	shared := sharedPrefix(bot.Command, f.unprefixed)
	p := cmp.Or(shared, "PREFIX")
	env := shell.Word("ARBITER_PREFIX=" + p) // as typed in a shell
	origin := "the name check gives a bot given by its command, as a tournament gives a bot its name"
	named := ""
	if tournament.ValidName(p) {
		named = fmt.Sprintf("a bot named %s or ", p)
	}
	way := fmt.Sprintf("arbiter check -env %s, and in a tournament %sthe game's files { prefixes = { NAME = %q } }", env, named, p)
	if s, _ := rules(opt); opt.Game != nil {
		origin = "its name, as the tournament gives it"
		if _, ok := s.Files.Prefixes[bot.Bot]; ok {
			origin = "its entry in the game's files { prefixes }"
		}
		way = fmt.Sprintf("arbiter check -env %s, and in the tournament the game's files { prefixes = { %s = %q } }", env, bot.Bot, p)
	}
	share := ""
	if shared != "" {
		share = fmt.Sprintf("; the files it made share the prefix %q", shared)
	}
	return fmt.Sprintf(" (its prefix is %q, %s%s: if its files are named with another prefix, give it: %s)", f.prefix, origin, share, way)
}

// sharedPrefix is the prefix the file names share: the name of a file of
// command (tym42 of ./tym42 or tym42.py) that starts them all, else the
// longest start two or more of them have in common; "" when none is.
func sharedPrefix(command, names []string) string {
	startsAll := func(p string) bool {
		if p == "" || p == "state" || p == "log" || prefixProblem(p) != "" {
			return false
		}
		for _, n := range names {
			if !strings.HasPrefix(n, p) {
				return false
			}
		}
		return true
	}
	for _, w := range command {
		base := filepath.Base(w)
		if p := strings.TrimSuffix(base, filepath.Ext(base)); startsAll(p) {
			return p
		}
	}
	if len(names) < 2 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		i := 0
		for i < len(p) && i < len(n) && p[i] == n[i] {
			i++
		}
		p = p[:i]
	}
	if startsAll(p) {
		return p
	}
	return ""
}

func folder(bot drivers.Seat, opt drivers.CheckOptions) (*seatFolder, func(), error) {
	tmp, err := os.MkdirTemp("", "arbiter-check-auction-")
	if err != nil {
		return nil, nil, err
	}
	// A sandboxed bot (as check runs it) has another uid, which must pass
	// through: MkdirTemp makes the folder for its owner alone.
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	// The bot's prefix is the one the game gives it (files { prefixes },
	// or its name), as the referee gives it, unless the command line
	// names one (arbiter check -env ARBITER_PREFIX=tym42).
	s, _ := rules(opt)
	prefix := s.Prefix(bot.Bot)
	for _, kv := range bot.Env {
		if v, ok := strings.CutPrefix(kv, "ARBITER_PREFIX="); ok {
			prefix = v
		}
	}
	if problem := prefixProblem(prefix); problem != "" {
		// A tournament refuses such a prefix; a check with it would pass
		// what no match can play.
		os.RemoveAll(tmp)
		return nil, nil, fmt.Errorf("the prefix %q (ARBITER_PREFIX) %s: a tournament refuses it", prefix, problem)
	}
	f, err := newSeatFolder(filepath.Join(tmp, "cwd"), checkGameName, prefix, s.Files)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	return f, func() { os.RemoveAll(tmp) }, nil
}

func checkRound(players, seat, rounds, capital int) func(context.Context, drivers.Seat, drivers.CheckOptions, drivers.Recorder) error {
	return func(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
		f, done, err := folder(bot, opt)
		if err != nil {
			return err
		}
		defer done()
		p, log := after(players, rounds, capital)
		_, _, err = bid(ctx, bot, opt, rec, f, p, log, seat)
		return err
	}
}

func checkNoCapital(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	f, done, err := folder(bot, opt)
	if err != nil {
		return err
	}
	defer done()
	p, log := after(2, 3, 40)
	p.Capital[1] = 0
	_, _, err = bid(ctx, bot, opt, rec, f, p, log, 1)
	return err
}

func checkFiles(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	f, done, err := folder(bot, opt)
	if err != nil {
		return err
	}
	defer done()
	p, log := after(2, 0, 40)
	for r := 1; r <= 3; r++ {
		b, _, err := bid(ctx, bot, opt, rec, f, p, log, 0)
		if err != nil {
			return fmt.Errorf("%w (round %d)", err, r)
		}
		state := p.State()
		bids := []int{b, 1}
		log = AppendLogRound(log, r, state, bids, p.Settle(bids))
	}
	return nil
}

// CheckClock says which case judges time, for check's output.
func (Driver) CheckClock(opt drivers.CheckOptions) string {
	whose := opt.Whose("the contest's 1 s, a tournament's without a clock block")
	_, move := rules(opt)
	return fmt.Sprintf("the clock case judges a bid by the move limit, %s: %v; the other cases wait up to %v (-move) for each run",
		whose, move, time.Duration(opt.Move))
}

func checkClock(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	f, done, err := folder(bot, opt)
	if err != nil {
		return err
	}
	defer done()
	p, log := after(4, 5, 1000)
	_, reply, err := bid(ctx, bot, opt, rec, f, p, log, 3)
	if _, move := rules(opt); err == nil && reply.Used > move {
		err = conform.Failf("took %s to bid, over the move limit of %s (in a tournament a late bid is an overrun, a later one a bid of 0)%s",
			reply.Used.Round(time.Millisecond), move, reply.LateNote())
	}
	return err
}

func checkGame(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	f, done, err := folder(bot, opt)
	if err != nil {
		return err
	}
	defer done()
	s, _ := rules(opt)
	p := NewPosition(Board{Cols: 4, Rows: 3, Capital: 30}, 3, 9)
	var log []byte
	idle := 0
	for r := 1; len(p.Queue) > 0 && idle < s.IdleRounds; r++ {
		b, _, err := bid(ctx, bot, opt, rec, f, p, log, 0)
		if err != nil {
			return fmt.Errorf("%w (round %d)", err, r)
		}
		state := p.State()
		bids := []int{b, min(1, p.Capital[1]), min(2, p.Capital[2])}
		sale := p.Settle(bids)
		if sale.Winner < 0 {
			idle++
		} else {
			idle = 0
		}
		log = AppendLogRound(log, r, state, bids, sale)
	}
	return nil
}
