package config

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Deck is a `deck "name"` block: a card deck as a string of ranks in
// ascending order and a string of suits (the first suit is trump in games
// that have one). A card is a rank character followed by a suit character.
type Deck struct {
	Name      string
	Ranks     string
	Suits     string
	DeclRange hcl.Range
	// inError is set when the block has errors, already reported.
	inError bool
}

// Value is what deck.<name> evaluates to in expressions. A deck in error
// has ranks and suits not known, so that what uses it (a game's deck) is
// not reported again: a duplicate rank is one mistake, at the deck.
func (d *Deck) Value() cty.Value {
	ranks, suits := cty.StringVal(d.Ranks), cty.StringVal(d.Suits)
	if d.inError {
		ranks, suits = cty.UnknownVal(cty.String), cty.UnknownVal(cty.String)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"deck":  cty.StringVal(d.Name),
		"ranks": ranks,
		"suits": suits,
	})
}

var deckSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "ranks", Required: true},
		{Name: "suits", Required: true},
	},
}

func (l *loader) loadDecks() hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]*Deck{}
	for _, b := range l.blocks["deck"] {
		d := &Deck{Name: b.Labels[0], DeclRange: b.DefRange}
		before := len(diags)
		content, cd := b.Body.Content(deckSchema)
		diags = append(diags, cd...)
		for _, f := range []struct {
			attr string
			dst  *string
		}{{"ranks", &d.Ranks}, {"suits", &d.Suits}} {
			a, ok := content.Attributes[f.attr]
			if !ok {
				continue
			}
			vd := l.decode(a, scopeDeck, f.dst)
			diags = append(diags, vd...)
			if !vd.HasErrors() {
				if msg := checkSymbols(*f.dst); msg != "" {
					diags = append(diags, errDiag("Invalid deck",
						fmt.Sprintf("The %s of deck %q %s.", f.attr, d.Name, msg), a.Expr.Range().Ptr()))
				}
			}
		}
		d.inError = diags[before:].HasErrors()
		if first, ok := seen[d.Name]; ok {
			diags = append(diags, duplicate("deck", d.Name, first.DeclRange, d.DeclRange))
			continue
		}
		seen[d.Name] = d
		l.cfg.Decks = append(l.cfg.Decks, d)
	}
	return diags
}

// checkSymbols says what is wrong with a string of rank or suit symbols,
// or returns "".
func checkSymbols(s string) string {
	if s == "" {
		return "are empty: list one character per symbol"
	}
	seen := map[rune]bool{}
	for _, r := range s {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return fmt.Sprintf("contain %q: use printable ASCII characters without spaces", r)
		}
		if seen[r] {
			return fmt.Sprintf("contain %q twice: every symbol must be unique", r)
		}
		seen[r] = true
	}
	if strings.ContainsAny(s, `"\`) {
		return "contain a quote or backslash"
	}
	return ""
}
