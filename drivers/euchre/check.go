package euchre

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/conform"
	core "github.com/arbiter-contests/arbiter/drivers/house/euchre"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// CheckCases is the conformance suite of Euchre bots (../shared/games/
// euchre.md): every phase's input written as the referee writes it, the
// bowers' edge cases, the move limit, and a whole game beside the house
// bot rules. The memory file's limit and the move limit are the checked
// game's (see rules).
func (Driver) CheckCases() []drivers.CheckCase {
	return []drivers.CheckCase{
		{Name: "ordering", Doc: "answers o or p in the ordering round", Run: phase(Ordering, "9c,js,ah,qd,kh", "th", "p")},
		{Name: "naming", Doc: "after an ordering round of upcard th, answers p or a suit that is not hearts (the turned-down suit) in the naming round", Run: checkNaming},
		{Name: "discard", Doc: "as dealer, discards a card of its hand or the upcard", Run: phase(Discard, "9c,js,ah,qd,kh", "ts")},
		{Name: "alone", Doc: "answers y or n when asked to go alone", Run: phase(Alone, "jh,jd,ah,kh,9s", "h", "n")},
		{Name: "lead", Doc: "leads a card of its hand", Run: phase(Turn, "9c,js,ah,qd,kh", "s", "")},
		{Name: "follow-suit", Doc: "with one club, follows a club lead with it (a hand with one legal card)", Run: phase(Turn, "js,qd,kh,9c,td", "h", "ac")},
		{Name: "left-bower", Doc: "follows a trump lead (hearts) with the jack of diamonds, the left bower, its only trump", Run: phase(Turn, "9c,qs,jd,ks,ts", "h", "ah,9h")},
		{Name: "bower-not-led", Doc: "follows a diamond lead with its queen of diamonds, not the jack (the left bower is a heart when hearts are trump)", Run: phase(Turn, "jd,qd,9c,ks,ts", "h", "9d")},
		{Name: "last-card", Doc: "plays its last card in the fifth trick", Run: phase(Turn, "kd", "c", "9s,p,as")},
		{Name: "trick", Doc: "reads the end of a trick and exits cleanly (its output is ignored)", Run: checkTrick},
		{Name: "clock", Doc: "answers a decision within the move limit (clock { move }: 1 s unless the configuration sets another)", Run: checkClock},
		{Name: "game", Doc: "plays a whole game to 3 points as team 0, beside the house bot rules as team 1, every answer valid", Run: checkGame},
	}
}

// rules are the settings and the move limit the cases hold the bot to:
// those of the game it is checked for (arbiter check -bot: its
// configuration's), or else the defaults a game block that sets nothing
// gives a tournament.
func rules(opt drivers.CheckOptions) (Settings, time.Duration) {
	s := DefaultSettings()
	if g, ok := opt.Game.(*Game); ok {
		s = g.settings
	}
	move := time.Duration(opt.Clock.Move)
	if move <= 0 {
		move = time.Duration(DefaultMove)
	}
	return s, move
}

// position is the folder and environment of one position of the bot, as
// the driver gives them.
type checkPos struct {
	argv []string
	dir  string
	env  []string
}

func newCheckPos(bot drivers.Seat, p int) (checkPos, func(), error) {
	dir, err := os.MkdirTemp("", "arbiter-check-euchre-")
	if err != nil {
		return checkPos{}, nil, err
	}
	// A sandboxed bot (as check runs it) has another uid, which must
	// enter it: MkdirTemp makes the folder for its owner alone.
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return checkPos{}, nil, err
	}
	return checkPosIn(bot, p, dir), func() { os.RemoveAll(dir) }, nil
}

// checkPosIn is position p of the bot with dir as its memory folder.
func checkPosIn(bot drivers.Seat, p int, dir string) checkPos {
	return checkPos{argv: drivers.ResolveArgv(bot.Command, bot.Dir), dir: dir, env: []string{
		"ARBITER_POSITION=" + strconv.Itoa(p), "ARBITER_MEMORY_DIR=" + dir, "ARBITER_BOT_DIR=" + bot.Dir}}
}

// decide runs the bot on input and judges its answer for ph.
func (cp checkPos) decide(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder,
	ph Phase, input string, judge func(string) string) (string, error) {
	a, _, err := cp.decideTimed(ctx, bot, opt, rec, ph, input, judge)
	return a, err
}

// decideTimed is decide that also returns the run's reply: the time it
// took, and its LateNote.
func (cp checkPos) decideTimed(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder,
	ph Phase, input string, judge func(string) string) (string, proc.Reply, error) {
	s, _ := rules(opt)
	line, reply, err := conform.OnceWith(ctx, bot, opt, rec, conform.OnceRules{Exiting: s.CrashAfterAnswer, MaxOutput: MaxAnswer},
		cp.argv, cp.dir, input, cp.env...)
	if ph == Trick {
		// The trick's output is ignored, but its run is held to the
		// memory rule as the referee holds every run.
		if err = trickFault(err, reply.Fault, time.Duration(opt.Move)); err == nil {
			err = memoryRule(cp.dir, s)
		}
		return "", reply, err
	}
	if err != nil {
		return "", reply, err
	}
	a := Normalize(line)
	if a == "" {
		return "", reply, conform.Failf("printed an empty line; the %s phase needs an answer", ph)
	}
	if problem := judge(a); problem != "" {
		return a, reply, conform.Failf("%s", debugHint(problem, a))
	}
	return a, reply, memoryRule(cp.dir, s)
}

// memoryRule is the failure of a bot whose memory folder dir breaks the
// rule after a run (checkMemory), or nil.
func memoryRule(dir string, s Settings) error {
	p, err := checkMemory(dir, s)
	if err != nil {
		return err
	}
	if p != "" {
		return conform.Failf("%s", p)
	}
	return nil
}

// trickFault is err, of a trick's run whose fault was f, as the referee
// judges a trick: its output is ignored, so printing nothing or a line
// too long for an answer is no failure (nil), and a crash is said to be
// one rather than a missing answer, which the phase does not want; nor is
// a run that neither exited nor printed a line within move told that it
// printed no answer or did not flush.
func trickFault(err error, f *proc.Fault, move time.Duration) error {
	switch {
	case f == nil:
		return err
	case f.Kind == drivers.FaultProtocol || f.Kind == drivers.FaultOutput:
		return nil
	case f.Kind == drivers.FaultCrash:
		return conform.Failf("crashed: %s (a trick needs no answer, but the bot must exit cleanly)", f.Detail)
	case f.Kind == drivers.FaultTime:
		return conform.Failf("did not exit within %s (see -move): a trick needs no answer, but the bot must exit "+
			"(or print a line) in time; it may be waiting for more input than the trick's lines, or still computing", move)
	}
	return err
}

func cardsOf(s string) []Card {
	c, _ := ParseCards(s)
	return c
}

// phase is a case of one decision: the hand, then the phase's lines.
func phase(ph Phase, hand string, lines ...string) func(context.Context, drivers.Seat, drivers.CheckOptions, drivers.Recorder) error {
	return func(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
		cp, done, err := newCheckPos(bot, 1)
		if err != nil {
			return err
		}
		defer done()
		h := cardsOf(hand)
		var judge func(string) string
		switch ph {
		case Ordering:
			judge = checkOrder
		case Discard:
			up, _ := ParseCard(lines[0])
			judge = func(a string) string { return checkDiscard(a, h, up) }
		case Alone:
			judge = checkAlone
		case Turn:
			trump, _ := ParseSuit(lines[0])
			trick := cardsOf(lines[1])
			first := NoCard
			if len(trick) > 0 {
				first = trick[0]
			}
			legal := Legal(h, trump, first)
			judge = func(a string) string { return checkPlay(a, h, legal, trump, first) }
		}
		_, err = cp.decide(ctx, bot, opt, rec, ph, Input(h, 3, 1, ph, lines...), judge)
		return err
	}
}

func checkNaming(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	hearts, _ := ParseSuit("h")
	cp, done, err := newCheckPos(bot, 3)
	if err != nil {
		return err
	}
	defer done()
	h := cardsOf("9c,js,ah,qd,kh")
	if _, err := cp.decide(ctx, bot, opt, rec, Ordering, Input(h, 0, 0, Ordering, "th", "p,p"), checkOrder); err != nil {
		return err
	}
	_, err = cp.decide(ctx, bot, opt, rec, Naming, Input(h, 0, 0, Naming, "p,p"), func(a string) string {
		if p := checkName(a, hearts); p != "" {
			return p + " (only the ordering round's input shows the upcard: keep it in your memory file)"
		}
		return ""
	})
	return err
}

func checkTrick(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	cp, done, err := newCheckPos(bot, 0)
	if err != nil {
		return err
	}
	defer done()
	_, err = cp.decide(ctx, bot, opt, rec, Trick, Input(nil, 2, 3, Trick, "2", "s", "9s,js,ks,as"), nil)
	return err
}

// CheckClock says which case judges time, for check's output.
func (Driver) CheckClock(opt drivers.CheckOptions) string {
	whose := opt.Whose("the default, a tournament's without a clock block")
	_, move := rules(opt)
	return fmt.Sprintf("the clock case judges a decision by the move limit, %s: %v, the process's start included; the other cases wait up to %v (-move) for each run",
		whose, move, time.Duration(opt.Move))
}

// checkClock times one decision, a card to lead, against the move limit:
// in a tournament a later answer gets the phase's default.
func checkClock(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	cp, done, err := newCheckPos(bot, 1)
	if err != nil {
		return err
	}
	defer done()
	h := cardsOf("9c,js,ah,qd,kh")
	spades, _ := ParseSuit("s")
	_, reply, err := cp.decideTimed(ctx, bot, opt, rec, Turn, Input(h, 3, 1, Turn, "s", ""), func(a string) string {
		return checkPlay(a, h, h, spades, NoCard) // any card of the hand leads
	})
	if _, move := rules(opt); err == nil && reply.Used > move {
		err = conform.Failf("took %s to answer, over the move limit of %s (in a tournament the answer would get the phase's default)%s",
			reply.Used.Round(time.Millisecond), move, reply.LateNote())
	}
	return err
}

func checkGame(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	pos, done, err := gamePositions(bot, opt)
	if err != nil {
		return err
	}
	defer done()
	mem := [4][]byte{}
	var first error
	decide := func(ctx context.Context, p int, ph Phase, input string) (string, string) {
		if Team(p) == 1 {
			a, m, _, err := core.Decide("rules", input, mem[p], func(k string) string {
				if k == "ARBITER_POSITION" {
					return strconv.Itoa(p)
				}
				return ""
			})
			mem[p] = m
			if err != nil {
				return "", err.Error()
			}
			return a, ""
		}
		if first != nil {
			return "", "stopped"
		}
		a, err := pos[p].decide(ctx, bot, opt, rec, ph, input, func(string) string { return "" })
		if err != nil {
			first = fmt.Errorf("%w (position %d, %s phase)", err, p, ph)
			return "", err.Error()
		}
		return a, ""
	}
	s := DefaultSettings()
	s.Target = 3
	// The game stops at the bot's first invalid answer, so that the
	// exchange shown ends with it and the reason names it.
	gctx, stop := context.WithCancel(ctx)
	defer stop()
	rec2 := &defaultsRecorder{Recorder: rec, stop: stop}
	_, err = Referee(gctx, s, 21, decide, rec2)
	if first != nil {
		return first
	}
	if d := rec2.first; d != nil {
		return conform.Failf("%s; the referee used the default %s instead, and every answer must be valid", rec2.where, cmp.Or(d.Default, "(none)"))
	}
	return err
}

// gamePositions are the folders of the bot's positions 0 and 2 in the
// whole game, as a match gives them: with memory = "per-bot" (the
// default) one folder that both share, as a team shares its bot's memory
// file, so that a file both add to grows as it does in a tournament;
// with "per-position" one each.
func gamePositions(bot drivers.Seat, opt drivers.CheckOptions) ([4]checkPos, func(), error) {
	var pos [4]checkPos
	var dones []func()
	done := func() {
		for _, d := range dones {
			d()
		}
	}
	s, _ := rules(opt)
	for p := 0; p < 4; p += 2 {
		if p == 2 && s.perBot() {
			pos[p] = checkPosIn(bot, p, pos[0].dir)
			break
		}
		cp, d, err := newCheckPos(bot, p)
		if err != nil {
			done()
			return pos, nil, err
		}
		dones = append(dones, d)
		pos[p] = cp
	}
	return pos, done, nil
}

// defaultsRecorder stops the game at the first default the bot's team
// got, keeping where it was and why.
type defaultsRecorder struct {
	drivers.Recorder
	stop  func()
	last  DecisionEvent
	first *DefaultEvent
	where string
}

func (r *defaultsRecorder) Event(kind string, data any) {
	switch d := data.(type) {
	case DecisionEvent:
		r.last = d
	case DefaultEvent:
		if kind != "default" || d.Seat != 0 || r.first != nil {
			return
		}
		r.first, r.where = &d, describeDefault(d, r.last)
		r.Recorder.Event("note", "the referee replaced this answer by its default: "+r.where)
		r.stop()
	}
}

// describeDefault says where a default came and why: "in hand 2, trick 3
// (position 0, turn phase) it played ts but must follow suit: ...". last
// is the decision it replaced, whose input tells the trick.
func describeDefault(d DefaultEvent, last DecisionEvent) string {
	where := fmt.Sprintf("in hand %d", d.Hand)
	if d.Phase == Turn && last.Hand == d.Hand && last.Position == d.Position {
		if s, err := ParseInput(last.Input); err == nil {
			where += fmt.Sprintf(", trick %d", 6-len(s.Hand))
		}
	}
	return fmt.Sprintf("%s (position %d, %s phase) it %s", where, d.Position, d.Phase,
		strings.TrimPrefix(debugHint(d.Reason, Normalize(d.Answer)), "it "))
}

// debugHint is problem, check's refusal of answer, with a hint to write
// debug output to stderr when the answer was no answer of any phase and
// looks like words (a space in it, or longer than a card such as 10h):
// most often a debug line printed before the answer, whose first line
// the referee takes. The referee's own reason, which transcripts record,
// stays as it was.
func debugHint(problem, answer string) string {
	if !strings.HasPrefix(problem, "answered ") || len(answer) <= 3 && !strings.ContainsAny(answer, " \t") {
		return problem
	}
	return problem + " (only the first line printed is the answer: write debug output to stderr)"
}
