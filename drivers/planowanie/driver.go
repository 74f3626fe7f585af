package planowanie

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// Driver is the Planowanie game driver.
type Driver struct{}

var _ drivers.Driver = Driver{}

func (Driver) Name() string { return "planowanie" }

func (Driver) HouseBots() []drivers.HouseBot { return HouseBots() }

var gameSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "deck", Required: true},
		{Name: "deals", Required: true},
	},
	Blocks: []hcl.BlockHeaderSchema{drivers.ClockBlock},
}

// Game is a decoded planowanie game block.
type Game struct {
	settings Settings
	clock    drivers.Clock
	// Where the settings came from, for diagnostics found later.
	deckRange, dealsRange hcl.Range
}

var (
	_ drivers.Decoded = (*Game)(nil)
	_ drivers.Game    = (*Game)(nil)
)

type dealValue struct {
	Cards  int `cty:"cards"`
	Leader int `cty:"leader"`
}

func (Driver) DecodeGame(body hcl.Body, ctx *hcl.EvalContext) (drivers.Decoded, hcl.Diagnostics) {
	content, diags := body.Content(gameSchema)
	g := &Game{settings: Settings{DeclarationsTogether: true}}
	if a, ok := content.Attributes["deck"]; ok {
		g.deckRange = a.Expr.Range()
		v, d := a.Expr.Value(ctx)
		diags = append(diags, d...)
		if !d.HasErrors() {
			deck, ok := deckOf(v)
			if !ok {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid deck",
					Detail:  "deck must be a deck, like deck.itpw, or an object with ranks and suits strings.",
					Subject: a.Expr.Range().Ptr()})
			} else if err := deck.Validate(); err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid deck",
					Detail: drivers.Sentence(err.Error()), Subject: a.Expr.Range().Ptr()})
			}
			g.settings.Deck = deck
		}
	}
	if a, ok := content.Attributes["deals"]; ok {
		g.dealsRange = a.Expr.Range()
		deals, ranges, d := decodeDeals(a, ctx)
		diags = append(diags, d...)
		if !d.HasErrors() && len(deals) == 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No deals",
				Detail: "deals is empty: list at least one deal, like [{ cards = 5, leader = 0 }].", Subject: a.Expr.Range().Ptr()})
		}
		g.settings.Deals = deals
		if !d.HasErrors() && g.settings.Deck.Size() > 0 && g.settings.Deck.Validate() == nil {
			diags = append(diags, checkAnySeats(g.settings, ranges)...)
		}
	}
	clockOK := true
	for _, b := range content.Blocks {
		c, d := drivers.DecodeSessionClock(b, ctx)
		diags = append(diags, d...)
		g.clock, clockOK = c, !d.HasErrors()
	}
	// A clock in error is reported as such, not as no clock.
	if clockOK && g.clock.Total == 0 && g.clock.Move == 0 && g.clock.Turn == 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "No clock",
			Detail:  `The game has no clock, so a bot that never answers stalls its match forever. Add clock { total = "5m" } (each bot's budget for a game) or clock { move = "10s" }.`,
			Subject: body.MissingItemRange().Ptr()})
	}
	return g, diags
}

// dealType is what every element of deals converts to.
var dealType = cty.Object(map[string]cty.Type{"cards": cty.Number, "leader": cty.Number})

const dealsExample = `Write deals as a list of objects, like [{ cards = 1, leader = 0 }, { cards = 2, leader = 1 }].`

// decodeDeals decodes the deals attribute, a deal at a time, so that a
// problem names its deal counted from 1, as the rules' own messages and
// the game's events do, and points at it when deals is written out.
func decodeDeals(a *hcl.Attribute, ctx *hcl.EvalContext) ([]DealSpec, []hcl.Range, hcl.Diagnostics) {
	v, diags := a.Expr.Value(ctx)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	rng := a.Expr.Range()
	if v.IsNull() || !v.IsWhollyKnown() || !(v.Type().IsListType() || v.Type().IsTupleType() || v.Type().IsSetType()) {
		return nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid deals",
			Detail: "deals must be a list of deals, not " + v.Type().FriendlyName() + ". " + dealsExample, Subject: &rng}}
	}
	var elems []hclsyntax.Expression
	if tuple, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok && len(tuple.Exprs) == v.LengthInt() {
		elems = tuple.Exprs
	}
	var deals []DealSpec
	var ranges []hcl.Range
	for i, it := 0, v.ElementIterator(); it.Next(); i++ {
		_, e := it.Element()
		subject := rng
		if elems != nil {
			subject = elems[i].Range()
		}
		bad := func(detail string) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid deal",
				Detail: fmt.Sprintf("Deal %d: %s. %s", i+1, detail, dealsExample), Subject: subject.Ptr()})
		}
		// Conversion drops attributes the type does not have: a typo
		// (leadr) or an attribute that is not a deal's would be
		// ignored without a word.
		if t := e.Type(); t.IsObjectType() {
			if extra := unknownAttrs(t, dealType); extra != "" {
				bad(extra)
				continue
			}
		}
		conv, err := convert.Convert(e, dealType)
		if err != nil {
			bad(convertProblem(err))
			continue
		}
		var dv dealValue
		if err := gocty.FromCtyValue(conv, &dv); err != nil {
			bad(fmt.Sprintf("cards and leader must be whole numbers, not %s and %s", drivers.NumberText(conv.GetAttr("cards").AsBigFloat()), drivers.NumberText(conv.GetAttr("leader").AsBigFloat())))
			continue
		}
		if dv.Cards < 1 || dv.Leader < 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid deal",
				Detail:  fmt.Sprintf("Deal %d has cards = %d and leader = %d: every deal gives at least 1 card and its leader is a seat number from 0.", i+1, dv.Cards, dv.Leader),
				Subject: subject.Ptr()})
		}
		deals = append(deals, DealSpec{Cards: dv.Cards, Leader: dv.Leader})
		ranges = append(ranges, subject)
	}
	return deals, ranges, diags
}

// checkAnySeats reports the deals of s that no seating can play, at
// ranges (each deal's): one that gives more cards than the deck holds
// for the fewest players a game has (2), and one led by a seat past the
// largest seating the deals allow (the deck's cards over the most cards
// a deal gives). Neither depends on a tournament's players, so they are
// reported with the game, even while a tournament has mistakes of its own
// (CheckSeats says the rest, once the players are known).
func checkAnySeats(s Settings, ranges []hcl.Range) hcl.Diagnostics {
	// One diagnostic a range: the deals a for expression makes share its
	// range, and their problems are one mistake there.
	var diags hcl.Diagnostics
	byRange := map[hcl.Range]*hcl.Diagnostic{}
	report := func(r hcl.Range, detail string) {
		if d, ok := byRange[r]; ok {
			d.Detail += " " + detail
			return
		}
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid deal", Detail: detail, Subject: r.Ptr()}
		byRange[r] = d
		diags = append(diags, d)
	}
	size, most, largest := s.Deck.Size(), 0, -1
	for i, d := range s.Deals {
		if d.Cards*minPlayers > size {
			report(ranges[i], fmt.Sprintf("Deal %d gives %d cards to each player: even %d players, the fewest a game has, would need %d, but the deck has only %d cards. Give each player at most %d.",
				i+1, d.Cards, minPlayers, d.Cards*minPlayers, size, size/minPlayers))
		} else if d.Cards > most {
			most, largest = d.Cards, i
		}
	}
	if largest < 0 {
		return diags
	}
	n := size / most
	led := map[hcl.Range][]int{} // the deals at a range led past n
	var order []hcl.Range
	for i, d := range s.Deals {
		if d.Leader >= n && d.Cards*minPlayers <= size {
			if led[ranges[i]] == nil {
				order = append(order, ranges[i])
			}
			led[ranges[i]] = append(led[ranges[i]], i)
		}
	}
	for _, r := range order {
		var deals, leaders []string
		for _, i := range led[r] {
			deals, leaders = append(deals, strconv.Itoa(i+1)), append(leaders, strconv.Itoa(s.Deals[i].Leader))
		}
		what := "Deal %s is led by player %s"
		if len(deals) > 1 {
			what = "Deals %s are led by players %s"
		}
		report(r, fmt.Sprintf(what+", but at most %d players can play these deals (deal %d gives %d cards to each, and the deck has %d), so a leader is a seat from 0 to %d.",
			strings.Join(deals, ", "), strings.Join(leaders, ", "), n, largest+1, most, size, n-1))
	}
	return diags
}

// minPlayers is the fewest players a game of Planowanie has.
const minPlayers = 2

// unknownAttrs says which attributes of the object type t the object
// type want does not have, each with the one it may be a typo of ("leadr
// is not a setting of a deal (did you mean "leader"?)"), or "".
func unknownAttrs(t, want cty.Type) string {
	var known []string
	for name := range want.AttributeTypes() {
		known = append(known, name)
	}
	sort.Strings(known)
	var names []string
	for name := range t.AttributeTypes() {
		if !want.HasAttribute(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		out = append(out, name+drivers.Suggest(name, known))
	}
	switch len(out) {
	case 0:
		return ""
	case 1:
		return out[0] + " is not a setting of a deal, which has " + strings.Join(known, " and ")
	}
	return strings.Join(out, ", ") + " are not settings of a deal, which has " + strings.Join(known, " and ")
}

// convertProblem says what is wrong with a deal that does not convert:
// "leader is missing", "cards is not a number".
func convertProblem(err error) string {
	var pe cty.PathError
	if errors.As(err, &pe) && len(pe.Path) > 0 {
		if step, ok := pe.Path[0].(cty.GetAttrStep); ok {
			return step.Name + " is not a number"
		}
	}
	msg := strings.TrimSuffix(err.Error(), ".")
	if name, ok := strings.CutPrefix(msg, `attribute "`); ok {
		if name, ok := strings.CutSuffix(name, `" is required`); ok {
			return name + " is missing"
		}
	}
	return "it is not an object of cards and leader (" + msg + ")"
}

func deckOf(v cty.Value) (Deck, bool) {
	t := v.Type()
	if !t.IsObjectType() || !t.HasAttribute("ranks") || !t.HasAttribute("suits") {
		return Deck{}, false
	}
	r, s := v.GetAttr("ranks"), v.GetAttr("suits")
	if r.Type() != cty.String || s.Type() != cty.String || !r.IsKnown() || !s.IsKnown() || r.IsNull() || s.IsNull() {
		return Deck{}, false
	}
	return Deck{Ranks: r.AsString(), Suits: s.AsString()}, true
}

func (Driver) LoadGame(raw json.RawMessage) (drivers.Game, error) {
	g := &Game{}
	if err := drivers.DecodeSettings(raw, &g.settings); err != nil {
		return nil, fmt.Errorf("planowanie settings: %w", err)
	}
	return g, g.settings.Deck.Validate()
}

func (g *Game) Settings() any { return g.settings }

// EarlierRules names the rule of a plan saved before a deal's
// declarations were judged together (drivers.Earlier).
func (g *Game) EarlierRules() []string {
	if g.settings.DeclarationsTogether {
		return nil
	}
	return []string{"The plan was made by an earlier arbiter, so the first faulty declaration in seat order ends a match before the seats after it declare, as it began; a plan made now judges a deal's declarations together (declarations_together, docs/games/planowanie.md)."}
}

func (g *Game) Clock() drivers.Clock { return g.clock }

// Seats is nil when n bots can play every deal.
func (g *Game) Seats(n int) error { return g.settings.Validate(n) }

func (g *Game) CheckSeats(n int, subject hcl.Range) hcl.Diagnostics {
	err := g.Seats(n)
	if err == nil {
		return nil
	}
	deckBad := g.settings.Deck.Validate() != nil
	// One diagnostic per attribute at fault, with every problem of it:
	// thirteen deals too large for the deck are one mistake, not thirteen.
	var diags hcl.Diagnostics
	byRange := map[hcl.Range]*hcl.Diagnostic{}
	for _, line := range strings.Split(err.Error(), "\n") {
		rng := subject
		switch {
		case deckBad:
			rng = g.deckRange
		case strings.HasPrefix(line, "deal ") || strings.Contains(line, "no deals"):
			rng = g.dealsRange
		}
		if rng.Filename == "" {
			rng = subject
		}
		if d, ok := byRange[rng]; ok {
			d.Detail += " " + drivers.Sentence(line)
			continue
		}
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Game cannot be played with these seats",
			Detail: drivers.Sentence(line), Subject: rng.Ptr()}
		byRange[rng] = d
		diags = append(diags, d)
	}
	for _, d := range diags {
		d.Detail += fmt.Sprintf(" The tournament asks for %d players (%s).", n, subject.String())
	}
	return diags
}

// Play referees one match between real bot processes.
func (g *Game) Play(ctx context.Context, m *drivers.Match) (*drivers.Outcome, error) {
	sessions, out, err := gtp.Start(ctx, m)
	defer sessions.Kill() // every session ends however Play ends
	if err != nil {
		return nil, err
	}
	if out != nil {
		placeAfterFault(out) // a bot that does not start is at fault too
		return out, nil
	}
	players := make([]Player, len(m.Seats))
	for i, s := range sessions {
		players[i] = gtp.SessionPlayer{S: s}
	}
	out = Referee(ctx, g.settings, m.Seed, players, m.Record)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sessions.Finish(out)
	return out, nil
}

// DefaultLimits are the limits of a bot without a limits block: the
// contest's 400 MB of memory (as MiB), no network, CPU time within the
// clock, and room for a runtime's threads.
func (Driver) DefaultLimits() drivers.Limits { return drivers.UnstatedLimits() }

// DefaultLimits are the driver's (see Driver.DefaultLimits).
func (g *Game) DefaultLimits() drivers.Limits { return Driver{}.DefaultLimits() }
