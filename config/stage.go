package config

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/arbiter-contests/arbiter/tournament"
)

// Stage is a `stage "name"` block of a tournament played in stages (see
// docs/stages.md).
type Stage struct {
	Name    string
	Index   int
	Players int // 0: a whole pool in every match
	Rounds  int
	Seats   tournament.SeatDesign
	Rating  tournament.Rating
	Pools   int
	Split   string
	Bots    []StagePick
	// Gate is set for an entry gate.
	Gate *StageGate

	DeclRange hcl.Range
	Ranges    map[string]hcl.Range
}

// StagePick is part of a stage's field: a bot, places From..To of every
// pool of an earlier stage, or the bots an earlier gate admitted.
type StagePick struct {
	Bot      *Bot
	Stage    string
	From, To int
	Admitted bool
	Range    hcl.Range
}

// StageGate is a gate block: each bot of the stage plays Games matches
// against every bot of Against.
type StageGate struct {
	Against []*Bot
	Games   int
}

// Splits are the ways a stage's field is split into pools.
var Splits = []string{"random", "seeded"}

var (
	stageSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "bots"}, {Name: "format"}, {Name: "players"}, {Name: "rounds"},
			{Name: "groups"}, {Name: "split"}, {Name: "seats"}, {Name: "rating"},
		},
		Blocks: []hcl.BlockHeaderSchema{{Type: "gate"}},
	}
	gateSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "against"}, {Name: "games"}}}
	// notInStageAttrs and notInStageBlocks are the tournament's
	// attributes and blocks that a stage does not take, with why: read
	// (notInStageSchema) before stageSchema so that each is refused
	// saying so, not as HCL's unknown argument, while a misspelt
	// argument is offered only the names a stage takes (docs/stages.md).
	notInStageAttrs = map[string]string{
		"fill":  "a tournament in stages has no fill bots",
		"order": stageOrder,
		"deal":  "the tournament's deal is every stage's; set it on the tournament",
		"seed":  "the tournament's seed is every stage's; set it on the tournament",
	}
	notInStageBlocks = map[string]string{
		"stop":     "a tournament in stages has no stopping rule",
		"gauntlet": roundRobinOnly,
		"groups":   roundRobinOnly + " (groups = N splits its field)",
		"swiss":    roundRobinOnly,
	}
	notInStageSchema = notInStage()
)

const (
	roundRobinOnly = "every stage is a round robin within its groups"
	// stageOrder is why a stage, or a tournament in stages, takes no
	// order: plan.StageMatches lists a stage's matches group by group.
	stageOrder = `a stage plays its matches group by group (order "by-group"), the only order stages have`
)

// notInStage is the schema of notInStageAttrs and notInStageBlocks.
func notInStage() *hcl.BodySchema {
	out := &hcl.BodySchema{}
	for _, name := range slices.Sorted(maps.Keys(notInStageAttrs)) {
		out.Attributes = append(out.Attributes, hcl.AttributeSchema{Name: name})
	}
	for _, name := range slices.Sorted(maps.Keys(notInStageBlocks)) {
		out.Blocks = append(out.Blocks, hcl.BlockHeaderSchema{Type: name})
	}
	return out
}

// stageContent is the content of a stage's body, b, after refusing, at
// its line, each attribute and block of it that a stage does not take.
func stageContent(b hcl.Body) (*hcl.BodyContent, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	refuse := func(what, why string, at hcl.Range) {
		diags = append(diags, errDiag("Not in a stage", fmt.Sprintf("A stage takes no %s: %s (see docs/stages.md).", what, why), at.Ptr()))
	}
	b, labelled := withoutLabelledRefused(b)
	for _, blk := range labelled {
		refuse(blk.Type+" block", notInStageBlocks[blk.Type], blk.DefRange())
	}
	refused, rest, d := b.PartialContent(notInStageSchema)
	diags = append(diags, d...)
	for _, name := range slices.Sorted(maps.Keys(refused.Attributes)) {
		refuse(name, notInStageAttrs[name], refused.Attributes[name].NameRange)
	}
	for _, blk := range refused.Blocks {
		refuse(blk.Type+" block", notInStageBlocks[blk.Type], blk.DefRange)
	}
	content, d := rest.Content(stageSchema)
	return content, append(diags, d...)
}

// withoutLabelledRefused is b without its blocks that a stage does not
// take written with labels (stop "x" {}), and those blocks: read with
// notInStageSchema, which expects none, they would be refused as HCL's
// "Extraneous label", hiding that a stage takes no such block at all.
func withoutLabelledRefused(b hcl.Body) (hcl.Body, []*hclsyntax.Block) {
	sb, ok := b.(*hclsyntax.Body)
	if !ok {
		return b, nil
	}
	var labelled []*hclsyntax.Block
	kept := make(hclsyntax.Blocks, 0, len(sb.Blocks))
	for _, blk := range sb.Blocks {
		if _, ok := notInStageBlocks[blk.Type]; ok && len(blk.Labels) > 0 {
			labelled = append(labelled, blk)
		} else {
			kept = append(kept, blk)
		}
	}
	if len(labelled) == 0 {
		return b, nil
	}
	out := *sb
	out.Blocks = kept
	return &out, labelled
}

// stageRef is the value of stage.NAME.
func stageRef(name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"stage": cty.StringVal(name)})
}

// pickFuncs are the functions that pick bots from earlier stages.
func pickFuncs() map[string]function.Function {
	places := func(s cty.Value, from, to int64) (cty.Value, error) {
		if !s.Type().IsObjectType() || !s.Type().HasAttribute("stage") {
			return cty.NilVal, function.NewArgErrorf(0, "expected a stage, like stage.qualification")
		}
		if from < 1 || to < from || to > 1000 {
			return cty.NilVal, fmt.Errorf("places(stage, from, to) picks places from..to of every group, the first place being 1 and from no greater than to (at most 1000); got places %d to %d", from, to)
		}
		return cty.ObjectVal(map[string]cty.Value{"stage": s.GetAttr("stage"), "pick": cty.StringVal("places"),
			"from": cty.NumberIntVal(from), "to": cty.NumberIntVal(to)}), nil
	}
	stage := function.Parameter{Name: "stage", Type: cty.DynamicPseudoType}
	num := func(name string) function.Parameter { return function.Parameter{Name: name, Type: cty.Number} }
	ints := func(args []cty.Value) []int64 {
		out := make([]int64, len(args))
		for i, a := range args {
			if err := gocty.FromCtyValue(a, &out[i]); err != nil {
				out[i] = -1
			}
		}
		return out
	}
	return map[string]function.Function{
		"top": function.New(&function.Spec{Params: []function.Parameter{stage, num("n")}, Type: function.StaticReturnType(cty.DynamicPseudoType),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				if n := ints(args[1:])[0]; n < 1 || n > 1000 {
					return cty.NilVal, function.NewArgErrorf(1, "top(stage, n) advances the n best of every group: n is how many, from 1 to 1000; got %d", n)
				}
				return places(args[0], 1, ints(args[1:])[0])
			}}),
		"places": function.New(&function.Spec{Params: []function.Parameter{stage, num("from"), num("to")}, Type: function.StaticReturnType(cty.DynamicPseudoType),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				n := ints(args[1:])
				return places(args[0], n[0], n[1])
			}}),
		"winners": function.New(&function.Spec{Params: []function.Parameter{stage}, Type: function.StaticReturnType(cty.DynamicPseudoType),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) { return places(args[0], 1, 1) }}),
		"admitted": function.New(&function.Spec{Params: []function.Parameter{stage}, Type: function.StaticReturnType(cty.DynamicPseudoType),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				if !args[0].Type().IsObjectType() || !args[0].Type().HasAttribute("stage") {
					return cty.NilVal, function.NewArgErrorf(0, "expected a gate stage, like stage.gate")
				}
				return cty.ObjectVal(map[string]cty.Value{"stage": args[0].GetAttr("stage"), "pick": cty.StringVal("admitted")}), nil
			}}),
	}
}

// decodeStages decodes the stage blocks of t, in order, after its own
// attributes, which are the stages' defaults.
func (l *loader) decodeStages(t *Tournament, blocks hcl.Blocks) hcl.Diagnostics {
	var diags hcl.Diagnostics
	l.stages = nil
	for _, b := range blocks {
		if b.Type == "stage" {
			l.stages = append(l.stages, b.Labels[0])
		}
	}
	defer func() { l.stages = nil }()
	seen := map[string]*Stage{}
	for _, b := range blocks {
		if b.Type != "stage" {
			continue
		}
		s, d := l.decodeStage(t, b, len(t.Stages))
		diags = append(diags, d...)
		if first, ok := seen[s.Name]; ok {
			diags = append(diags, duplicate("stage", s.Name, first.DeclRange, s.DeclRange))
			continue
		}
		seen[s.Name] = s
		t.Stages = append(t.Stages, s)
	}
	return append(diags, checkAdvancing(t)...)
}

func (l *loader) decodeStage(t *Tournament, b *hcl.Block, index int) (*Stage, hcl.Diagnostics) {
	s := &Stage{Name: b.Labels[0], Index: index, Rounds: t.Rounds, Seats: t.Seats, Rating: t.Rating, Pools: 1,
		DeclRange: b.DefRange, Ranges: map[string]hcl.Range{}}
	if _, ok := t.Ranges["players"]; ok {
		s.Players = t.Players
	}
	var diags hcl.Diagnostics
	if !tournament.ValidStageName(s.Name) {
		diags = append(diags, errDiag("Invalid stage name",
			fmt.Sprintf("%q cannot name a stage: it names its matches and files, so use lower-case letters, digits and _, starting with a letter (at most 40), and not \"playoff\".", s.Name), b.LabelRanges[0].Ptr()))
	}
	content, d := stageContent(b.Body)
	diags = append(diags, d...)
	vals := map[string]cty.Value{}
	for name, a := range content.Attributes {
		s.Ranges[name] = a.Expr.Range()
		if name == "bots" {
			continue
		}
		v, d := l.value(a.Expr, scopeTournament)
		diags = append(diags, d...)
		if !d.HasErrors() {
			vals[name] = v
		}
	}
	diags = append(diags, intAttr(vals, "rounds", s.Ranges, 1, math.MaxInt32, &s.Rounds)...)
	diags = append(diags, intAttr(vals, "players", s.Ranges, 1, 1000, &s.Players)...)
	diags = append(diags, intAttr(vals, "groups", s.Ranges, 1, 1000, &s.Pools)...)
	diags = append(diags, choiceAttr(vals, "seats", s.Ranges, tournament.SeatDesigns, &s.Seats)...)
	diags = append(diags, choiceAttr(vals, "rating", s.Ranges, tournament.Ratings, &s.Rating)...)
	format := tournament.RoundRobin
	diags = append(diags, choiceAttr(vals, "format", s.Ranges, []tournament.Format{tournament.RoundRobin}, &format)...)
	diags = append(diags, l.decodeStageBots(t, s, b, content)...)
	s.Split = Splits[1]
	if s.static() {
		s.Split = Splits[0]
	}
	diags = append(diags, choiceAttr(vals, "split", s.Ranges, Splits, &s.Split)...)
	for _, gb := range content.Blocks {
		if s.Gate != nil {
			diags = append(diags, errDiag("Duplicate gate block", "A stage takes one gate block.", gb.DefRange.Ptr()))
			continue
		}
		var d hcl.Diagnostics
		s.Gate, d = l.decodeGate(s, gb)
		diags = append(diags, d...)
	}
	if s.Gate != nil {
		diags = append(diags, s.gateField(content.Attributes["bots"] == nil)...)
	}
	if s.Gate != nil && s.Players == 0 {
		s.Players = 2
	}
	if s.Players > 0 && t.Game != nil && t.Game.Game != nil {
		r := s.Ranges["players"]
		if r.Filename == "" {
			r = s.DeclRange
		}
		diags = append(diags, t.Game.Game.CheckSeats(s.Players, r)...)
	}
	if s.Players > 0 {
		if pr := s.Seats.Check(s.Players); pr != nil {
			diags = append(diags, s.seatsProblem(t, pr, fmt.Sprintf("Stage %s: ", s.Name)))
		}
	}
	return s, diags
}

// decodeStageBots decodes the field of stage s, block b: its bots, or
// for the first stage the tournament's by default. A field that is
// given empty is an error: the stage would play no match.
func (l *loader) decodeStageBots(t *Tournament, s *Stage, b *hcl.Block, content *hcl.BodyContent) hcl.Diagnostics {
	a, ok := content.Attributes["bots"]
	switch {
	case ok:
		var d hcl.Diagnostics
		s.Bots, d = l.stagePicks(a.Expr, s.Index)
		if len(s.Bots) == 0 && !d.HasErrors() {
			d = append(d, errDiag("Stage without bots",
				fmt.Sprintf("Stage %s's bots is empty, so the stage would play no match. List who plays in it, like bots = [top(stage.qualification, 4)] or [bot.alice, bot.bob], or remove the stage.", s.Name), a.Expr.Range().Ptr()))
		}
		return d
	case s.Index == 0:
		for _, bot := range t.Bots {
			s.Bots = append(s.Bots, StagePick{Bot: bot, Range: t.Ranges["bots"]})
		}
		return nil
	}
	return hcl.Diagnostics{errDiag("Stage without bots",
		"Every stage after the first says who plays in it, like bots = [top(stage.qualification, 4)].", b.DefRange.Ptr())}
}

// seatsProblem is a seat design's problem with the stage's groups, at the
// stage's seats, else its players, else the tournament's seats it
// inherits, else the stage block.
func (s *Stage) seatsProblem(t *Tournament, pr *tournament.Problem, prefix string) *hcl.Diagnostic {
	subject := rangePtr(s.Ranges["seats"])
	for _, r := range []hcl.Range{s.Ranges["players"], t.Ranges["seats"], s.DeclRange} {
		if subject == nil {
			subject = rangePtr(r)
		}
	}
	return errDiag(pr.Summary, prefix+pr.Detail, subject)
}

// static is whether the stage's field is named bots only.
func (s *Stage) static() bool {
	for _, p := range s.Bots {
		if p.Bot == nil {
			return false
		}
	}
	return true
}

func (l *loader) decodeGate(s *Stage, b *hcl.Block) (*StageGate, hcl.Diagnostics) {
	content, diags := b.Body.Content(gateSchema)
	g := &StageGate{Games: 1}
	vals := map[string]cty.Value{}
	failed := map[string]bool{}
	for name, a := range content.Attributes {
		s.Ranges["gate."+name] = a.Expr.Range()
		v, d := l.value(a.Expr, scopeTournament)
		diags = append(diags, d...)
		if d.HasErrors() {
			failed[name] = true
		} else {
			vals[name] = v
		}
	}
	diags = append(diags, intAttr(vals, "games", map[string]hcl.Range{"games": s.Ranges["gate.games"]}, 1, 100000, &g.Games)...)
	var d hcl.Diagnostics
	g.Against, d = l.botList(vals, "against", map[string]hcl.Range{"against": s.Ranges["gate.against"]})
	diags = append(diags, d...)
	seen := map[string]bool{}
	for _, bot := range g.Against {
		if seen[bot.Name] {
			diags = append(diags, errDiag("Bot listed twice",
				fmt.Sprintf("bot.%s is already in against: every admitted bot would play it twice. A bot can take part only once; remove the second, or raise games to play it more.", bot.Name),
				rangePtr(s.Ranges["gate.against"])))
		}
		seen[bot.Name] = true
	}
	// A list that did not evaluate (an unknown bot in it) has been
	// reported: it is not empty.
	if len(g.Against) == 0 && !d.HasErrors() && !failed["against"] {
		subject := rangePtr(s.Ranges["gate.against"])
		if subject == nil {
			subject = b.DefRange.Ptr()
		}
		diags = append(diags, errDiag("Gate with no bot to play against",
			"A gate admits the bots that play its games without a fault, so it needs the bot(s) they play: add against = [bot.course].", subject))
	}
	return g, diags
}

// stagePicks decodes the bots of stage index: bots, picks from earlier
// stages (top, places, winners, admitted), or lists of them.
func (l *loader) stagePicks(expr hcl.Expression, index int) ([]StagePick, hcl.Diagnostics) {
	rng := expr.Range()
	var diags hcl.Diagnostics
	for _, tr := range expr.Variables() {
		if tr.RootName() != "stage" {
			continue
		}
		name, nameRange, ok := attrStep(tr, 1)
		if k := indexOf(l.stages, name); ok && k >= index {
			what := "a later stage"
			if k == index {
				what = "itself"
			}
			diags = append(diags, errDiag("Stage refers to "+what,
				fmt.Sprintf("stage.%s is not played before this stage (stage %d of %d), so its standings are not known when this one starts. A stage picks bots only from the stages above it.", name, index+1, len(l.stages)), &nameRange))
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	v, d := l.value(expr, scopeStage)
	if d.HasErrors() {
		return nil, d
	}
	var out []StagePick
	var walk func(v cty.Value) *hcl.Diagnostic
	walk = func(v cty.Value) *hcl.Diagnostic {
		t := v.Type()
		switch {
		case t.IsTupleType() || t.IsListType():
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				if d := walk(e); d != nil {
					return d
				}
			}
		case t.IsObjectType() && t.HasAttribute("bot"):
			out = append(out, StagePick{Bot: l.cfg.Bot(v.GetAttr("bot").AsString()), Range: rng})
		case t.IsObjectType() && t.HasAttribute("pick"):
			p := StagePick{Stage: v.GetAttr("stage").AsString(), Range: rng}
			if v.GetAttr("pick").AsString() == "admitted" {
				p.Admitted = true
			} else {
				from, _ := v.GetAttr("from").AsBigFloat().Int64()
				to, _ := v.GetAttr("to").AsBigFloat().Int64()
				p.From, p.To = int(from), int(to)
			}
			out = append(out, p)
		default:
			return errDiag("Invalid stage bots",
				fmt.Sprintf("A stage's bots are a list of bots (bot.alice) and picks from earlier stages (top(stage.x, 4), places(stage.x, 5, 5), winners(stage.x), admitted(stage.gate)); found %s.", t.FriendlyName()), &rng)
		}
		return nil
	}
	if v.Type().IsObjectType() {
		v = cty.TupleVal([]cty.Value{v})
	}
	if d := walk(v); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	return out, nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// checkAdvancing checks every pick against the stage it picks from: a
// gate's bots are picked by admitted, any other stage's by places, and
// never more places than its largest pool can have.
func checkAdvancing(t *Tournament) hcl.Diagnostics {
	var diags hcl.Diagnostics
	most := make([]int, len(t.Stages)) // the most bots each stage can have
	for k, s := range t.Stages {
		seen := map[string]bool{}
		for _, p := range s.Bots {
			switch {
			case p.Bot != nil:
				if !seen[p.Bot.Name] {
					most[k]++
				}
				seen[p.Bot.Name] = true
				continue
			}
			j := indexOf(stageNames(t), p.Stage)
			if j < 0 || j >= k {
				continue // reported when decoded
			}
			from := t.Stages[j]
			pool := (most[j] + from.Pools - 1) / from.Pools
			switch {
			case p.Admitted && from.Gate == nil:
				diags = append(diags, errDiag("Not a gate",
					fmt.Sprintf("admitted(stage.%s) picks the bots a gate admitted, but stage %s has no gate block. Pick its places instead, like top(stage.%s, 2).", p.Stage, p.Stage, p.Stage), rangePtr(p.Range)))
			case !p.Admitted && from.Gate != nil:
				diags = append(diags, errDiag("Places of a gate",
					fmt.Sprintf("Stage %s is a gate: it admits bots rather than ranking them. Pick admitted(stage.%s).", p.Stage, p.Stage), rangePtr(p.Range)))
			case p.Admitted:
				most[k] += most[j]
			case most[j] == 0: // its own bots were in error
			default:
				if p.To > pool {
					diags = append(diags, errDiag("Advancing more bots than the stage has",
						fmt.Sprintf("This picks places up to %d of each group of stage %s, but its %d bot(s) in %d group(s) make groups of at most %d.", p.To, p.Stage, most[j], from.Pools, pool), rangePtr(p.Range)))
				}
				most[k] += (p.To - p.From + 1) * min(from.Pools, most[j])
			}
		}
		if n := (most[k] + s.Pools - 1) / s.Pools; s.Players == 0 && n > 1 && t.Game != nil && t.Game.Game != nil &&
			t.Game.Game.CheckSeats(n, s.DeclRange).HasErrors() {
			diags = append(diags, errDiag("Group too large for a match",
				fmt.Sprintf("Stage %s seats a whole group in every match, and its groups can have %d bots, which game %s cannot seat. Set players.", s.Name, n, t.Game.Name), s.DeclRange.Ptr()))
		}
		// As for a tournament, whose players would be the group's size:
		// swap seats groups of two, permute at most MaxPermutePlayers.
		if n := (most[k] + s.Pools - 1) / s.Pools; s.Players == 0 && n > 1 {
			if pr := s.Seats.Check(n); pr != nil {
				diags = append(diags, s.seatsProblem(t, pr,
					fmt.Sprintf("Stage %s seats a whole group in every match (it sets no players), and its groups can have %d bots. ", s.Name, n)))
			}
		}
		diags = appendNonNil(diags, s.noMatch(most[k]))
		if s.Pools > most[k] && most[k] > 0 {
			diags = append(diags, errDiag("More groups than bots",
				fmt.Sprintf("Stage %s splits at most %d bot(s) into %d groups.", s.Name, most[k], s.Pools), rangePtr(s.Ranges["groups"])))
		}
	}
	return diags
}

// noMatch refuses a stage whose largest group, of a field of at most
// most bots, is smaller than its players: no group could seat a match,
// and the stage would rank its bots by the random draw alone. A gate
// plays its field against its own bots, not in groups.
func (s *Stage) noMatch(most int) *hcl.Diagnostic {
	n := (most + s.Pools - 1) / s.Pools
	if s.Gate != nil || most == 0 || s.Players <= n {
		return nil
	}
	subject := rangePtr(s.Ranges["players"])
	if subject == nil {
		subject = s.DeclRange.Ptr()
	}
	whose, groups := "", ", or fewer groups"
	if s.Ranges["players"].Filename == "" {
		whose = " (the tournament's players)"
	}
	if s.Pools == 1 {
		groups = ""
	}
	return errDiag("Stage plays no match",
		fmt.Sprintf("Stage %s splits at most %d bot(s) into %d group(s), of at most %d bot(s): no group of %d can seat %d players%s, so this stage would play no match. "+
			"Set players to at most %d%s.", s.Name, most, s.Pools, n, n, s.Players, whose, n, groups), subject)
}

func stageNames(t *Tournament) []string {
	var out []string
	for _, s := range t.Stages {
		out = append(out, s.Name)
	}
	return out
}

// notWithStages are the tournament's attributes that a tournament in
// stages does not take, with why, in the order checkStaged refuses them.
var notWithStages = []struct{ attr, why string }{
	{"format", roundRobinOnly},
	{"fill", "fill bots are not (yet) in stages"},
	{"order", stageOrder},
}

// checkStaged reports what a tournament played in stages cannot have:
// each stage has its own format, and a stopping rule or fill bots have no
// meaning across stages.
func (l *loader) checkStaged(t *Tournament, content *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, no := range notWithStages {
		if a, ok := content.Attributes[no.attr]; ok {
			diags = append(diags, errDiag("Not with stages",
				fmt.Sprintf("A tournament played in stages takes no %s: %s (see docs/stages.md). Remove %s.", no.attr, no.why, no.attr), a.Expr.Range().Ptr()))
		}
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "gauntlet", "groups", "swiss", "stop":
			diags = append(diags, errDiag("Not with stages",
				fmt.Sprintf("A tournament played in stages takes no %s block (see docs/stages.md).", b.Type), b.DefRange.Ptr()))
		}
	}
	return diags
}

// Grade labels the bots ranked within the top Percent of the field.
type Grade struct {
	Label   string
	Percent float64
}

var gradeSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "top", Required: true}}}

// decodeGrades decodes a grades block: grade "label" { top = "10%" }
// blocks, each a band of the ranking from the first place.
func decodeGrades(b *hcl.Block) ([]Grade, hcl.Diagnostics) {
	content, diags := b.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "grade", LabelNames: []string{"label"}}}})
	var out []Grade
	for _, gb := range content.Blocks {
		c, d := gb.Body.Content(gradeSchema)
		diags = append(diags, d...)
		a, ok := c.Attributes["top"]
		if !ok {
			continue
		}
		v, d := a.Expr.Value(nil)
		var s string
		pct := math.NaN()
		if !d.HasErrors() && gocty.FromCtyValue(v, &s) == nil {
			if n, err := fmt.Sscanf(s, "%g%%", &pct); n != 1 || err != nil {
				pct = math.NaN()
			}
		}
		if !(pct > 0 && pct <= 100) {
			diags = append(diags, errDiag("Invalid grade band",
				`top is a share of the final ranking from the first place, like "10%" (more than 0%, at most 100%).`, a.Expr.Range().Ptr()))
			continue
		}
		for _, g := range out {
			if g.Label == gb.Labels[0] {
				diags = append(diags, errDiag("Duplicate grade", fmt.Sprintf("Grade %q is already declared.", g.Label), gb.LabelRanges[0].Ptr()))
			}
		}
		out = append(out, Grade{Label: gb.Labels[0], Percent: pct})
	}
	if len(out) == 0 && !diags.HasErrors() {
		diags = append(diags, errDiag("Empty grades block", `List the grades, like grade "A" { top = "10%" }.`, b.DefRange.Ptr()))
	}
	return out, diags
}

// gateField leaves a gate's own bots out of a field that defaulted to the
// tournament's bots, and refuses them in a field listed for the stage.
func (s *Stage) gateField(defaulted bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var kept []StagePick
	for _, p := range s.Bots {
		against := false
		for _, a := range s.Gate.Against {
			against = against || p.Bot == a
		}
		switch {
		case !against:
			kept = append(kept, p)
		case !defaulted:
			diags = append(diags, errDiag("Gate bot in the field",
				fmt.Sprintf("bot.%s is what the gate plays against, and also in the stage's bots; it cannot be admitted against itself. Remove it from one of them.", p.Bot.Name), rangePtr(p.Range)))
		}
	}
	s.Bots = kept
	return diags
}

// decodeStagesAndGrades decodes the grades block and the stage blocks of
// t, and reports whether t is played in stages.
func (l *loader) decodeStagesAndGrades(t *Tournament, content *hcl.BodyContent) (bool, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var staged bool
	for _, b := range content.Blocks {
		switch b.Type {
		case "stage":
			staged = true
		case "grades":
			if t.Grades != nil {
				diags = append(diags, errDiag("Duplicate grades block", "A tournament takes one grades block.", b.DefRange.Ptr()))
				continue
			}
			var d hcl.Diagnostics
			t.Grades, d = decodeGrades(b)
			diags = append(diags, d...)
		}
	}
	if staged {
		diags = append(diags, l.checkStaged(t, content)...)
		diags = append(diags, l.decodeStages(t, content.Blocks)...)
	}
	return staged, diags
}
