package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/unicode/norm"

	"github.com/arbiter-contests/arbiter/drivers"
)

// What an expression may refer to depends on where it stands: locals see
// variables and other locals, decks see those too, games see decks, and
// tournaments see everything.
type scope int

const (
	scopeLocals scope = iota
	scopeDeck
	scopeBot
	scopeGame
	scopeTournament
	scopeStage // a stage's bots
)

var scopeRoots = map[scope][]string{
	scopeLocals:     {"var", "local", "path"},
	scopeDeck:       {"var", "local", "path"},
	scopeBot:        {"var", "local", "path"},
	scopeGame:       {"var", "local", "path", "deck"},
	scopeTournament: {"var", "local", "path", "deck", "bot", "bots_from", "game"},
	scopeStage:      {"var", "local", "path", "deck", "bot", "bots_from", "game", "stage"},
}

// evalContext builds the context for expressions in scope s from what has
// been loaded so far.
func (l *loader) evalContext(s scope) *hcl.EvalContext {
	vars := map[string]cty.Value{}
	for _, root := range scopeRoots[s] {
		switch root {
		case "var":
			m := map[string]cty.Value{}
			for name, v := range l.cfg.Variables {
				m[name] = v.Value
			}
			vars["var"] = cty.ObjectVal(m)
		case "local":
			vars["local"] = cty.ObjectVal(l.cfg.Locals)
		case "path":
			vars["path"] = cty.ObjectVal(map[string]cty.Value{"root": cty.StringVal(l.cfg.Root)})
		case "deck":
			m := map[string]cty.Value{}
			for _, d := range l.cfg.Decks {
				m[d.Name] = d.Value()
			}
			vars["deck"] = cty.ObjectVal(m)
		case "bot":
			m := map[string]cty.Value{}
			for _, b := range l.cfg.Bots {
				m[b.Name] = botRef(b.Name)
			}
			vars["bot"] = cty.ObjectVal(m)
		case "bots_from":
			vars["bots_from"] = l.botsFromValue()
		case "game":
			byDriver := map[string]map[string]cty.Value{}
			for _, g := range l.cfg.Games {
				if byDriver[g.Driver] == nil {
					byDriver[g.Driver] = map[string]cty.Value{}
				}
				byDriver[g.Driver][g.Name] = gameRef(g.Driver, g.Name)
			}
			m := map[string]cty.Value{}
			for d, games := range byDriver {
				m[d] = cty.ObjectVal(games)
			}
			vars["game"] = cty.ObjectVal(m)
		case "stage":
			m := map[string]cty.Value{}
			for _, name := range l.stages {
				m[name] = stageRef(name)
			}
			vars["stage"] = cty.ObjectVal(m)
		}
	}
	funcs := functions(l.cfg.Root)
	if s == scopeStage {
		for name, f := range pickFuncs() {
			funcs[name] = f
		}
	}
	return &hcl.EvalContext{Variables: vars, Functions: funcs}
}

// checkRefs reports every reference in expr to something that does not
// exist or may not be used in scope s, with a message in the config's own
// words ("Unknown bot") rather than HCL's generic "Unsupported attribute".
func (l *loader) checkRefs(expr hcl.Expression, s scope) hcl.Diagnostics {
	var diags hcl.Diagnostics
	allowed := scopeRoots[s]
	for _, tr := range expr.Variables() {
		root := tr.RootName()
		rng := tr.SourceRange()
		if !contains(allowed, root) {
			if contains([]string{"var", "local", "path", "deck", "bot", "bots_from", "game"}, root) {
				hint := ""
				if s == scopeLocals {
					hint = fmt.Sprintf(" Locals are values (numbers, strings, lists of them) worked out before any block: write the %s reference where it is used, like bots = [bot.a, bot.b].", root)
				}
				diags = append(diags, errDiag("Reference not allowed here",
					fmt.Sprintf("%s.* cannot be used here; this place may refer to %s.%s", root, strings.Join(allowed, ", "), hint), &rng))
			} else {
				diags = append(diags, errDiag("Unknown reference",
					fmt.Sprintf("There is nothing called %q%s. References start with one of: %s.", root, suggest(root, allowed), strings.Join(allowed, ", ")), &rng))
			}
			continue
		}
		name, nameRange, ok := attrStep(tr, 1)
		if !ok {
			if root != "path" || len(tr) > 1 {
				diags = append(diags, errDiag("Invalid reference",
					fmt.Sprintf("A reference to %s needs a name after the dot, like %s.NAME.", root, root), &rng))
			}
			continue
		}
		kind, known := l.declared(root)
		if !contains(known, name) && closest(name, known) == "" && l.rejectedDeclares(root, tr) {
			diags = append(diags, followOn(&nameRange))
			continue
		}
		misspelt := !contains(known, name) && l.misspeltDeclares(blockTypes[root], name)
		if misspelt && root != "game" {
			diags = append(diags, followOn(&nameRange))
			continue
		}
		if !contains(known, name) && !misspelt {
			diags = append(diags, errDiag("Unknown "+kind,
				fmt.Sprintf("No %s named %q is declared%s. Declared: %s.", kind, name, suggest(name, known), listOrNone(known)), &nameRange))
			continue
		}
		if root == "game" {
			gname, grange, ok := attrStep(tr, 2)
			if !ok {
				diags = append(diags, errDiag("Invalid reference",
					fmt.Sprintf("A game is referred to as game.%s.NAME.", name), &rng))
				continue
			}
			var games []string
			for _, g := range l.cfg.Games {
				if g.Driver == name {
					games = append(games, g.Name)
				}
			}
			if !contains(games, gname) && (l.misspeltDeclares("game", name, gname) || closest(gname, games) == "" && l.rejectedDeclares(root, tr)) {
				diags = append(diags, followOn(&grange))
			} else if !contains(games, gname) {
				diags = append(diags, errDiag("Unknown game",
					fmt.Sprintf("No game %q %q is declared%s. Declared %s games: %s.", name, gname, suggest(gname, games), name, listOrNone(games)), &grange))
			}
		}
	}
	return diags
}

// declared is what a reference starting with root names (a variable, a
// deck, ...) and the names declared of it.
func (l *loader) declared(root string) (kind string, known []string) {
	kind = root
	switch root {
	case "var":
		kind, known = "variable", keys(l.cfg.Variables)
	case "local":
		kind, known = "local value", keys(l.cfg.Locals)
	case "path":
		kind, known = "path", []string{"root"}
	case "deck":
		for _, d := range l.cfg.Decks {
			known = append(known, d.Name)
		}
	case "bot":
		for _, b := range l.cfg.Bots {
			known = append(known, b.Name)
		}
	case "bots_from":
		kind, known = "bots_from block", l.botsFromNames()
	case "stage":
		known = l.stages
	case "game":
		kind = "game driver"
		for _, g := range l.cfg.Games {
			if !contains(known, g.Driver) {
				known = append(known, g.Driver)
			}
		}
	}
	return kind, known
}

// value checks the references of expr and evaluates it in scope s. A
// value that is not wholly known comes from a value in error (a cycle of
// locals, a variable without a value), already reported: it is a
// follow-on error, so that it is not reported again as, say, "Invalid
// rounds".
func (l *loader) value(expr hcl.Expression, s scope) (cty.Value, hcl.Diagnostics) {
	if diags := l.checkRefs(expr, s); diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, diags := expr.Value(l.evalContext(s))
	if !diags.HasErrors() && !v.IsWhollyKnown() {
		return cty.DynamicVal, hcl.Diagnostics{followOn(expr.Range().Ptr())}
	}
	hideBlockRefs(diags)
	return v, diags
}

// hideBlockRefs keeps the diagnostics of an expression that refers to a
// block (stage.a, bot.x) from listing the values of its references: a
// block reference is an object of arbiter's own making (`with stage.a
// as object with 1 attribute "stage"`), which says nothing to the user.
// The values of var.* and local.* are still shown when only they are
// referred to.
func hideBlockRefs(diags hcl.Diagnostics) {
	for _, d := range diags {
		if d.Expression == nil {
			continue
		}
		for _, tr := range d.Expression.Variables() {
			if contains([]string{"stage", "bot", "bots_from", "game", "deck"}, tr.RootName()) {
				d.Expression, d.EvalContext = nil, nil
				break
			}
		}
	}
}

// decode checks the references of a and decodes its value into dst.
func (l *loader) decode(a *hcl.Attribute, s scope, dst any) hcl.Diagnostics {
	if _, diags := l.value(a.Expr, s); diags.HasErrors() {
		return diags
	}
	return gohcl.DecodeExpression(a.Expr, l.evalContext(s), dst)
}

func attrStep(tr hcl.Traversal, i int) (string, hcl.Range, bool) {
	if len(tr) <= i {
		return "", hcl.Range{}, false
	}
	switch step := tr[i].(type) {
	case hcl.TraverseAttr:
		return step.Name, step.SrcRange, true
	case hcl.TraverseIndex:
		if step.Key.Type() == cty.String && step.Key.IsKnown() {
			return step.Key.AsString(), step.SrcRange, true
		}
	}
	return "", hcl.Range{}, false
}

// suggest and closest are drivers.Suggest and drivers.Closest: the
// games' own blocks suggest names by the same rule.
func suggest(name string, known []string) string { return drivers.Suggest(name, known) }

func closest(name string, known []string) string { return drivers.Closest(name, known) }

// misspeltDeclares reports whether a block of a misspelt type meant to
// be typ ("gmae" for game) declares labels, or, for locals, the
// attribute labels[0]: a reference to it is then no error of its own.
func (l *loader) misspeltDeclares(typ string, labels ...string) bool {
	for _, b := range l.misspelt[typ] {
		if typ == "locals" {
			if _, ok := b.Body.Attributes[labels[0]]; ok {
				return true
			}
			continue
		}
		if len(b.Labels) >= len(labels) && slices.Equal(b.Labels[:len(labels)], labels) {
			return true
		}
	}
	return false
}

// rejectedDeclares reports whether the reference tr may name a block
// already reported and left out (loader.rejected): a bot, deck or
// bots_from whose label is the reference's name, a game one of whose
// labels is the reference's driver or name (a misspelt driver, a
// missing label: which label was meant cannot be told). Its callers ask
// only for a name that is no typo of a declared one (closest): a
// reference game.bricks.mian beside game "bricks" "main" is reported
// with its "did you mean", even when a game "bricks" lacks its name. Names are
// compared composed (NFC), so that a name refused for its combining mark
// covers a reference written either way.
func (l *loader) rejectedDeclares(root string, tr hcl.Traversal) bool {
	var names []string
	for i := 1; i <= 2 && (i == 1 || root == "game"); i++ {
		if name, _, ok := attrStep(tr, i); ok {
			names = append(names, norm.NFC.String(name))
		}
	}
	for _, labels := range l.rejected[blockTypes[root]] {
		for i, label := range labels {
			if (i == 0 || root == "game") && contains(names, norm.NFC.String(label)) {
				return true
			}
		}
	}
	return false
}

// blockTypes are the block types that declare what a reference's root
// names.
var blockTypes = map[string]string{
	"var": "variable", "local": "locals", "deck": "deck", "bot": "bot",
	"bots_from": "bots_from", "game": "game",
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func keys[T any](m map[string]T) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func listOrNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

// loadLocals evaluates locals in the order of their references to each
// other, so a local may use another declared anywhere, and reports cycles.
func (l *loader) loadLocals() hcl.Diagnostics {
	var diags hcl.Diagnostics
	attrs := map[string]*hcl.Attribute{}
	for _, b := range l.blocks["locals"] {
		as, d := b.Body.JustAttributes()
		diags = append(diags, d...)
		for name, a := range as {
			if first, ok := attrs[name]; ok {
				diags = append(diags, duplicate("local value", name, first.NameRange, a.NameRange))
				continue
			}
			attrs[name] = a
		}
	}
	// Every local counts as known while checking, so that a reference to a
	// later local is not reported as unknown.
	for name := range attrs {
		l.cfg.Locals[name] = cty.DynamicVal
	}
	pending := keys(attrs)
	for name, a := range attrs {
		if d := l.checkRefs(a.Expr, scopeLocals); d.HasErrors() {
			diags = append(diags, d...)
			delete(attrs, name)
		}
	}
	done := map[string]bool{}
	for len(pending) > 0 {
		progress := false
		var next []string
		for _, name := range pending {
			a, ok := attrs[name]
			if !ok {
				continue // already reported
			}
			ready := true
			for _, tr := range a.Expr.Variables() {
				if tr.RootName() == "local" {
					if dep, _, ok := attrStep(tr, 1); ok && !done[dep] && attrs[dep] != nil {
						ready = false
					}
				}
			}
			if !ready {
				next = append(next, name)
				continue
			}
			val, d := a.Expr.Value(l.evalContext(scopeLocals))
			diags = append(diags, d...)
			l.cfg.Locals[name] = val
			done[name] = true
			progress = true
		}
		if !progress {
			for _, name := range next {
				a := attrs[name]
				diags = append(diags, errDiag("Cycle in local values",
					fmt.Sprintf("local.%s depends on itself through %s. Break the cycle by computing one of them without the others.", name, strings.Join(next, ", ")), a.NameRange.Ptr()))
			}
			break
		}
		pending = next
	}
	return diags
}
