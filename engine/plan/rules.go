package plan

import (
	"errors"
	"fmt"
	"hash/fnv"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/tournament"
)

// The rules a plan is held to when it is read (Read, Check): what the
// configuration's compiler would never have made, and the engine cannot
// run, is refused before anything runs or is written, with the field at
// fault named. Where the configuration has a rule for the same setting,
// the plan is held to the same code: the formats' and seat designs'
// checks and their listing's sizes (tournament.Format.Check, Fits,
// Pairing; SeatDesign.Check), the stopping rules (tournament.CheckSavedSPRT,
// CheckStop), names (tournament.ValidName) and limits
// (drivers.Limits.Problems). What the game's driver says of the settings
// is CheckGame's.

// maxID bounds a match id, a folder's name in the results.
const maxID = 200

// matchCheck checks a plan's matches as they are read, one at a time:
// what each must be, and that no two have the same id, in memory that
// does not grow with their number but by 16 bytes an id. err is the
// first problem found, naming the match.
type matchCheck struct {
	p      *Plan
	bots   map[string]bool
	stages map[string]*Stage
	ids    map[[16]byte]struct{}
	n      int
	err    error
	// read: the plan is only read, from a results directory that an
	// arbiter of this version or an earlier one wrote and ran (Runnable):
	// what its readers go through is checked, but not the rules of what
	// may be run, which later versions have tightened (names, which are
	// only shown; the bots' commands and limits; clocks; a stage's seat
	// design, whose groups are seated by its ForGroup).
	read bool
}

func newMatchCheck(p *Plan) *matchCheck {
	c := &matchCheck{p: p, bots: map[string]bool{}, stages: map[string]*Stage{}, ids: map[[16]byte]struct{}{}}
	for _, b := range p.Bots {
		c.bots[b.Name] = true
	}
	for i := range p.Stages {
		c.stages[p.Stages[i].Name] = &p.Stages[i]
	}
	return c
}

// add checks m, the next match.
func (c *matchCheck) add(m *Match) {
	c.n++
	if c.err != nil {
		return
	}
	if err := c.match(m); err != nil {
		id := m.ID
		if len(id) > 40 {
			id = id[:40] + "..."
		}
		c.err = fmt.Errorf("match %q (the %s of the list): %w", id, ordinal(c.n), err)
	}
}

func (c *matchCheck) match(m *Match) error {
	if !tournament.ValidName(m.ID) || len(m.ID) > maxID {
		return fmt.Errorf("its id is not letters, digits, - and _ starting with a letter (at most %d): an id names the match's folder in the results", maxID)
	}
	h := fnv.New128a()
	h.Write([]byte(m.ID))
	var key [16]byte
	h.Sum(key[:0])
	if _, dup := c.ids[key]; dup {
		return errors.New("its id is listed twice: every match has an id of its own, which names its results")
	}
	c.ids[key] = struct{}{}
	for _, name := range m.Seats {
		if !c.bots[name] {
			return fmt.Errorf("it seats %q, which is not one of the plan's bots", name)
		}
	}
	players, rounds := c.p.Players, c.p.Rounds
	if len(c.p.Stages) > 0 {
		st := c.stages[m.Stage]
		if st == nil {
			return fmt.Errorf("its stage %q is not one of the plan's stages", m.Stage)
		}
		players, rounds = st.Players, st.Rounds
		if m.Pool < 1 || m.Pool > st.Pools {
			return fmt.Errorf("its pool is %d, but stage %s has pools 1 to %d", m.Pool, st.Name, st.Pools)
		}
	} else if m.Stage != "" || m.Pool != 0 {
		return fmt.Errorf("it belongs to stage %q, but the plan has no stages", m.Stage)
	}
	switch {
	case players > 0 && len(m.Seats) != players:
		return fmt.Errorf("it has %d seats, but its matches seat players = %d", len(m.Seats), players)
	case len(m.Seats) == 0:
		return errors.New("it has no seats")
	case m.Round < 1 || m.Round > rounds:
		return fmt.Errorf("its round is %d, but rounds run from 1 to %d", m.Round, rounds)
	case m.Group < 1 || m.Shift < 1:
		return fmt.Errorf("its group is %d and its shift %d, but both count from 1", m.Group, m.Shift)
	}
	if c.read {
		return nil
	}
	return clockProblem(m.Clock)
}

// clockProblem says what is wrong with a clock, or nil: a limit below
// 0, or an answer limit (total, move, turn) below drivers.MinDuration,
// which validate refuses too. startup is an allowance added to a limit,
// which cannot fault a bot, so it has no floor.
func clockProblem(c drivers.Clock) error {
	for _, d := range []struct {
		name  string
		v     drivers.Duration
		limit bool
	}{{"total", c.Total, true}, {"move", c.Move, true}, {"turn", c.Turn, true}, {"startup", c.Startup, false}} {
		if d.v < 0 {
			return fmt.Errorf("its clock's %s is negative (%v)", d.name, time.Duration(d.v))
		}
		if d.limit && d.v > 0 && d.v < drivers.Duration(drivers.MinDuration) {
			return fmt.Errorf("its clock's %s is %v, but the shortest limit is %v: %s", d.name, time.Duration(d.v), drivers.MinDuration, drivers.MinDurationWhy)
		}
	}
	return nil
}

// ordinal writes n as "1st", "2nd", "3rd", "4th".
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprint(n) + suffix
}

// check reports a plan whose parts do not fit together, which no
// compiler made; mc has checked its n matches.
func (p *Plan) check(mc *matchCheck) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if p.Game.Driver == "" {
		bad("it names no game driver")
	}
	if mc.n == 0 {
		bad("it lists no matches")
	}
	if !mc.read && !tournament.ValidName(p.Tournament) {
		bad("tournament %q is not a name (letters, digits, - and _, starting with a letter): it names the results directory", p.Tournament)
	}
	if !mc.read && len(p.Tournament) > tournament.MaxNameBytes {
		bad("tournament %.20q... has %d bytes, but a name has at most %d: it names the results directory", p.Tournament, len(p.Tournament), tournament.MaxNameBytes)
	}
	bots := map[string]bool{}
	for _, b := range p.Bots {
		if bots[b.Name] {
			bad("bot %q is listed twice", b.Name)
		}
		bots[b.Name] = true
		if !mc.read {
			errs = append(errs, botProblems(&b)...)
		}
	}
	for _, names := range [][]string{p.Fill, p.Candidates} {
		for _, n := range names {
			if !bots[n] {
				bad("%q is not one of the plan's bots", n)
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if mc.err != nil {
		return mc.err
	}
	if p.Rounds < 1 || p.Rounds > tournament.MaxRounds {
		bad("rounds is %d, but it is a whole number from 1 to %d", p.Rounds, tournament.MaxRounds)
	}
	for _, g := range p.Grades {
		if g.Label == "" || !(g.Percent > 0 && g.Percent <= 100) {
			bad("grade %q covers %g%% of the ranking, but a grade is labelled and covers more than 0%% and at most 100%%", g.Label, g.Percent)
		}
	}
	errs = append(errs, p.stopProblems()...)
	if len(p.Stages) > 0 && p.Stop != nil {
		// No run could end such a tournament as its stages say: a stop
		// would leave the stages and playoffs to come unplayed.
		errs = append(errs, errors.New("stop: a tournament in stages has no stopping rule, as its configuration takes no stop block (docs/stages.md)"))
	}
	if len(p.Stages) > 0 {
		errs = append(errs, p.stageProblems(mc.read)...)
	} else if len(errs) == 0 {
		errs = append(errs, p.formatProblems(mc)...)
	}
	return errors.Join(errs...)
}

// botProblems are what is wrong with bot b of a plan.
func botProblems(b *Bot) []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("bot %q: "+format, append([]any{b.Name}, args...)...))
	}
	if !tournament.ValidName(b.Name) {
		bad("its name is not letters, digits, - and _, starting with a letter: a bot's name is part of its files' names")
	}
	if len(b.Name) > tournament.MaxNameBytes {
		bad("its name has %d bytes, but a name has at most %d: a bot's name is part of its files' names", len(b.Name), tournament.MaxNameBytes)
	}
	switch {
	case b.House == "" && len(b.Command) == 0:
		bad("it has neither a house bot nor a command")
	case b.House != "" && len(b.Command) > 0:
		bad("it has both a house bot and a command")
	case b.House != "" && (strings.Count(b.House, "/") != 1 || path.Clean(b.House) != b.House):
		bad("house %q is not a built-in bot, GAME/BOT", b.House)
	}
	if b.BuildTimeout < 0 {
		bad("its build_timeout is negative")
	}
	if b.Limits != nil {
		for _, lp := range b.Limits.Problems() {
			bad("limits.%s: %s", lp.Limit, lp.Detail)
		}
	}
	return errs
}

// stopProblems are what is wrong with the plan's stopping rule.
func (p *Plan) stopProblems() []error {
	s := p.Stop
	if s == nil {
		return nil
	}
	var errs []error
	for _, pr := range tournament.CheckStop(s.MaxMatches, s.IntervalWidth) {
		errs = append(errs, fmt.Errorf("stop.%s: %s", pr.Attr, pr.Detail))
	}
	if s.SPRT == nil {
		return errs
	}
	sp := s.SPRT
	for _, pr := range tournament.CheckSavedSPRT(sp.Elo0, sp.Elo1, sp.Alpha, sp.Beta, sp.Model) {
		errs = append(errs, fmt.Errorf("stop.sprt.%s: %s", pr.Attr, pr.Detail))
	}
	field := p.field()
	switch {
	case !slices.Contains(field, sp.Candidate):
		errs = append(errs, fmt.Errorf("stop.sprt.candidate: %q is not a bot of the field", sp.Candidate))
	case !(len(p.Candidates) == 1 && p.Candidates[0] == sp.Candidate) && !(len(field) == 2 && len(p.Candidates) == 0):
		errs = append(errs, errors.New("stop.sprt: an SPRT compares one bot against its opponents: a gauntlet's one candidate, or one of a field of two bots"))
	}
	if sp.Model == "bayesian" && p.Seats.PairsGames(p.Players, p.Deal) {
		errs = append(errs, errors.New("stop.sprt.model: swapped seats on a shared deal are tested as pairs, which the bayesian model cannot do"))
	}
	return errs
}

// field is the plan's bots that are not fill bots, in the plan's order.
func (p *Plan) field() []string {
	var out []string
	for _, b := range p.Bots {
		if !slices.Contains(p.Fill, b.Name) {
			out = append(out, b.Name)
		}
	}
	return out
}

// formatProblems are what keeps the plan's format, seat design and
// listed matches (mc's) from being what its settings make.
func (p *Plan) formatProblems(mc *matchCheck) []error {
	n := mc.n
	if p.Players < 1 || p.Players > tournament.MaxPlayers {
		return []error{fmt.Errorf("players is %d, but it is a whole number from 1 to %d", p.Players, tournament.MaxPlayers)}
	}
	var errs []error
	problem := func(pr tournament.Problem) {
		errs = append(errs, fmt.Errorf("%s: %s", cmpOr(pr.Attr, "format"), pr.Detail))
	}
	if pr := p.Seats.Check(p.Players); pr != nil {
		// Seatings of a design that does not fit could be players! of
		// them (permute): nothing below may list them.
		problem(*pr)
		return errs
	}
	field := p.field()
	for _, c := range p.Candidates {
		if !slices.Contains(field, c) {
			errs = append(errs, fmt.Errorf("candidates: %q is a fill bot, not a bot of the field", c))
		}
	}
	if (p.Format == tournament.Gauntlet) != (len(p.Candidates) > 0) {
		errs = append(errs, fmt.Errorf("candidates: a gauntlet, and only a gauntlet, has candidates (format %v, %d candidate(s))", p.Format, len(p.Candidates)))
	}
	setup := &tournament.Setup{Bots: field, Candidates: p.Candidates, Fill: len(p.Fill), Players: p.Players, Rounds: p.Rounds,
		Seatings: len(p.Seats.Seatings(p.Players))}
	if p.Later != nil && p.Later.Pairing == tournament.ByRating {
		setup.RandomRounds = p.Later.From - 1
	}
	for _, pr := range p.Format.Check(setup) {
		problem(pr)
	}
	if len(errs) > 0 {
		return errs
	}
	groups, err := p.Format.Fits(setup)
	if err != nil {
		return []error{fmt.Errorf("format %v: %w", p.Format, err)}
	}
	pairing, from := p.Format.Pairing(setup)
	later, playoffs := tournament.NoPairing, false
	lfrom := 0
	if p.Later != nil {
		later, lfrom, playoffs = p.Later.Pairing, p.Later.From, p.Later.Playoffs
		if err := clockProblem(p.Later.Clock); err != nil && !mc.read {
			errs = append(errs, fmt.Errorf("later: %w", err))
		}
		if err := p.Later.revisionProblem(); err != nil {
			errs = append(errs, err)
		}
	}
	if later != pairing || lfrom != from {
		errs = append(errs, fmt.Errorf("later: the rounds of format %v with these settings are paired %q from round %d, not %q from round %d",
			p.Format, pairing.String(), from, later.String(), lfrom))
	}
	if playoffs != p.Rating.Playoffs() {
		errs = append(errs, fmt.Errorf("later.playoffs is %v, but rating %v has %s", playoffs, p.Rating, map[bool]string{true: "playoffs", false: "none"}[p.Rating.Playoffs()]))
	}
	listed := p.Rounds
	if pairing != tournament.NoPairing {
		listed = from - 1
	}
	if want := listed * groups * setup.Seatings; len(errs) == 0 && n != want {
		errs = append(errs, fmt.Errorf("matches: it lists %d, but %d round(s) of %d group(s) of %d seating(s) are %d", n, listed, groups, setup.Seatings, want))
	}
	return errs
}

// stageProblems are what is wrong with the plan's stages; read as
// matchCheck's.
func (p *Plan) stageProblems(read bool) []error {
	var errs []error
	bad := func(st *Stage, format string, args ...any) {
		errs = append(errs, fmt.Errorf("stage %q: "+format, append([]any{st.Name}, args...)...))
	}
	bots := map[string]bool{}
	for _, b := range p.Bots {
		bots[b.Name] = true
	}
	seen := map[string]bool{}
	for k := range p.Stages {
		st := &p.Stages[k]
		if !tournament.ValidStageName(st.Name) || seen[st.Name] {
			bad(st, "its name is not a stage's own name: lower-case letters, digits and _, starting with a letter, at most 40, not \"playoff\", and no other stage's")
		}
		seen[st.Name] = true
		if st.Players < 0 || st.Players > tournament.MaxPlayers {
			bad(st, "players is %d, but it is a whole number from 1 to %d (0: a whole group)", st.Players, tournament.MaxPlayers)
		}
		if st.Rounds < 1 || st.Rounds > tournament.MaxRounds {
			bad(st, "rounds is %d, but it is a whole number from 1 to %d", st.Rounds, tournament.MaxRounds)
		}
		if st.Pools < 1 || st.Pools > tournament.MaxPlayers {
			bad(st, "groups is %d, but it is a whole number from 1 to %d", st.Pools, tournament.MaxPlayers)
		}
		if st.Split != "random" && st.Split != "seeded" {
			bad(st, "split is %q, not \"random\" or \"seeded\"", st.Split)
		}
		if st.TopShort && st.Split != "seeded" {
			bad(st, "top_short is true, but only a seeded split has it (split %q)", st.Split)
		}
		if st.Playoffs && (st.Gate != nil || !st.Rating.Playoffs()) {
			bad(st, "playoffs is true, but only a stage ranked by mean place (rating \"placement\") that is not a gate plays playoffs")
		}
		if st.Players > 0 && !read {
			if pr := st.Seats.Check(st.Players); pr != nil {
				bad(st, "%s", pr.Detail)
			}
		}
		if err := clockProblem(st.Clock); err != nil && !read {
			bad(st, "%v", err)
		}
		if len(st.Bots) == 0 {
			bad(st, "it has no bots")
		}
		for _, pk := range st.Bots {
			switch {
			case pk.Bot != "" && !bots[pk.Bot]:
				bad(st, "it picks bot %q, which is not one of the plan's bots", pk.Bot)
			case pk.Bot == "" && !slices.ContainsFunc(p.Stages[:k], func(s Stage) bool { return s.Name == pk.Stage }):
				bad(st, "it picks from stage %q, which is not a stage before it", pk.Stage)
			case pk.Bot == "" && !pk.Admitted && (pk.From < 1 || pk.To < pk.From):
				bad(st, "it picks places %d to %d of stage %q, but places count from 1 up", pk.From, pk.To, pk.Stage)
			}
		}
		if g := st.Gate; g != nil {
			if g.Games < 1 {
				bad(st, "its gate plays %d games, but a gate plays at least 1", g.Games)
			}
			if len(g.Against) == 0 {
				bad(st, "its gate has no bot to play against")
			}
			for _, b := range g.Against {
				if !bots[b] {
					bad(st, "its gate plays against %q, which is not one of the plan's bots", b)
				}
			}
		}
	}
	return errs
}

// cmpOr is a if it is not empty, else b.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// CheckGame says what keeps g, the game the plan's driver rebuilt from
// its settings (drivers.Driver.LoadGame), from playing the plan's
// matches: the seats of its matches (the game's Seats, the check the
// configuration makes of players with the same code) and, when the plan
// holds its matches (Read, not Check), their variants. A saved plan is
// checked with it before it runs.
func (p *Plan) CheckGame(g drivers.Game) error {
	check := func(n int, what string) error {
		if err := g.Seats(n); err != nil {
			return fmt.Errorf("game.settings of game %q cannot be played with %s = %d: %w", p.Game.Name, what, n, err)
		}
		return nil
	}
	if len(p.Stages) == 0 {
		if err := check(p.Players, "players"); err != nil {
			return err
		}
	}
	for _, st := range p.Stages {
		if st.Players > 0 {
			if err := check(st.Players, "stage "+st.Name+"'s players"); err != nil {
				return err
			}
		}
	}
	var variants []string
	if v, ok := g.(drivers.Variants); ok {
		variants = v.Variants()
	}
	if p.Later != nil && len(p.Later.Variants) > 0 && !slices.Equal(p.Later.Variants, variants) {
		return fmt.Errorf("later.variants are %q, but the game's are %q", p.Later.Variants, variants)
	}
	var err error
	if ms := p.All(); ms != nil {
		ms(func(m *Match) bool {
			if m.Variant != "" && !slices.Contains(variants, m.Variant) || m.Variant == "" && len(variants) > 0 {
				err = fmt.Errorf("match %q plays variant %q, but the game's variants are %q", m.ID, m.Variant, variants)
			}
			return err == nil
		})
	}
	return err
}

// revisionProblem says what is wrong with l's Revision: one this arbiter
// does not know, or one on a plan that pairs no rounds.
func (l *Later) revisionProblem() error {
	switch {
	case l.Revision < 0 || l.Revision > PairingRevision:
		return fmt.Errorf("later.revision is %d, but this arbiter pairs by revisions 0 to %d (the plan was made by another version of arbiter)", l.Revision, PairingRevision)
	case l.Revision != 0 && l.Pairing == tournament.NoPairing:
		return fmt.Errorf("later.revision is %d, but the plan pairs no rounds", l.Revision)
	}
	return nil
}
