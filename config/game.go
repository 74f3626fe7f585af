package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Game is a `game "<driver>" "<name>"` block, decoded by its driver.
type Game struct {
	Driver    string
	Name      string
	Game      drivers.Decoded
	DeclRange hcl.Range
}

func gameRef(driver, name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"driver": cty.StringVal(driver), "game": cty.StringVal(name)})
}

func (l *loader) loadGames() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, b := range l.blocks["game"] {
		g := &Game{Driver: b.Labels[0], Name: b.Labels[1], DeclRange: b.DefRange}
		var drv drivers.Driver
		if l.opts.Driver != nil {
			drv, _ = l.opts.Driver(g.Driver)
		}
		if drv == nil {
			diags = append(diags, errDiag("Unknown game driver",
				fmt.Sprintf("There is no driver %q%s. Available drivers: %s.", g.Driver, suggest(g.Driver, l.opts.DriverNames), listOrNone(l.opts.DriverNames)),
				b.LabelRanges[0].Ptr()))
			l.rejected["game"] = append(l.rejected["game"], b.Labels)
			continue
		}
		dup := false
		for _, first := range l.cfg.Games {
			if first.Driver == g.Driver && first.Name == g.Name {
				diags = append(diags, duplicate("game", g.Driver+" "+g.Name, first.DeclRange, g.DeclRange))
				dup = true
			}
		}
		if dup {
			continue
		}
		// Check references in the whole body first, so an unknown deck reads
		// "Unknown deck" and not the driver's generic decode error.
		if d := l.checkBodyRefs(b.Body, scopeGame); d.HasErrors() {
			diags = append(diags, d...)
			l.cfg.Games = append(l.cfg.Games, g)
			continue
		}
		// A body that uses a value in error (a variable without a value)
		// would only add the driver's errors about that value.
		if rng, ok := l.unknownRef(b.Body, scopeGame); ok {
			diags = append(diags, followOn(&rng))
			l.cfg.Games = append(l.cfg.Games, g)
			continue
		}
		game, d := drv.DecodeGame(b.Body, l.evalContext(scopeGame))
		diags = append(diags, d...)
		if game != nil && !d.HasErrors() {
			g.Game = game
			diags = append(diags, l.checkBotNames(game)...)
		}
		// A game with errors is still declared: references to it must not
		// add "Unknown game" to the errors already reported.
		l.cfg.Games = append(l.cfg.Games, g)
	}
	return diags
}

// checkBotNames reports every bot that a game's settings name but the
// configuration does not declare (drivers.BotNamer): a setting for no
// bot is most likely a typo, which would silently apply to no one.
func (l *loader) checkBotNames(game drivers.Decoded) hcl.Diagnostics {
	n, ok := game.(drivers.BotNamer)
	if !ok {
		return nil
	}
	_, known := l.declared("bot")
	var diags hcl.Diagnostics
	for _, b := range n.BotNames() {
		if !contains(known, b.Name) {
			diags = append(diags, errDiag("Unknown bot",
				fmt.Sprintf("%s names the bot %q, but no bot of that name is declared%s. Declared: %s. Name a bot of the configuration, or remove the entry.",
					b.Setting, b.Name, suggest(b.Name, known), listOrNone(known)), b.Range.Ptr()))
		}
	}
	return diags
}

// checkBodyRefs checks the references of every expression in a native
// syntax body, nested blocks included.
func (l *loader) checkBodyRefs(body hcl.Body, s scope) hcl.Diagnostics {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	var diags hcl.Diagnostics
	for _, a := range sb.Attributes {
		diags = append(diags, l.checkRefs(a.Expr, s)...)
	}
	for _, b := range sb.Blocks {
		diags = append(diags, l.checkBodyRefs(b.Body, s)...)
	}
	return diags
}

// unknownRef finds a reference, in a native syntax body, to a value that
// is not wholly known: one in error, already reported.
func (l *loader) unknownRef(body hcl.Body, s scope) (hcl.Range, bool) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return hcl.Range{}, false
	}
	ctx := l.evalContext(s)
	for _, a := range sb.Attributes {
		for _, tr := range a.Expr.Variables() {
			if v, d := tr.TraverseAbs(ctx); !d.HasErrors() && !v.IsWhollyKnown() {
				return tr.SourceRange(), true
			}
		}
	}
	for _, b := range sb.Blocks {
		if rng, ok := l.unknownRef(b.Body, s); ok {
			return rng, true
		}
	}
	return hcl.Range{}, false
}
