package blokus

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"

	"github.com/arbiter-contests/arbiter/internal/userfile"
)

// StonesBlock is the schema of the game's stone set:
//
//	stones {
//	  file = "stones/classic.txt"      # a course stones file, relative to the config
//	  stone "T4" { art = <<-EOT
//	    ###
//	    .#.
//	  EOT
//	  }
//	  stone "I3" { cells = [[0, 0], [1, 0], [2, 0]] }   # [x, y] = [column, row]
//	}
//
// The file's stones come first, named "<file>:<line>", then the stone
// blocks in order.
var StonesBlock = hcl.BlockHeaderSchema{Type: "stones"}

var stonesSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "file"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "stone", LabelNames: []string{"name"}}},
}

var stoneSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "cells"}, {Name: "art"}},
}

// DecodeStones decodes a stones block into a normalised stone set,
// reporting every mistake at once; ranges[i] is where stone i was defined.
// A stones file is read here, once, and its stones go into the settings,
// so a plan does not depend on it.
func DecodeStones(b *hcl.Block, ctx *hcl.EvalContext) (stones []Stone, ranges []hcl.Range, diags hcl.Diagnostics) {
	content, diags := b.Body.Content(stonesSchema)
	if a, ok := content.Attributes["file"]; ok {
		s, d := decodeStonesFile(a, ctx)
		diags = append(diags, d...)
		stones = append(stones, s...)
		for range s {
			ranges = append(ranges, a.Expr.Range())
		}
	}
	names := map[string]hcl.Range{}
	for _, sb := range content.Blocks {
		name := sb.Labels[0]
		if first, dup := names[name]; dup {
			diags = append(diags, errDiag("Duplicate stone",
				fmt.Sprintf("Stone %q is already defined at %s. Give every stone its own name.", name, first), sb.LabelRanges[0].Ptr()))
			continue
		}
		names[name] = sb.DefRange
		s, d := decodeStone(sb, ctx)
		diags = append(diags, d...)
		if !d.HasErrors() {
			stones = append(stones, s)
			ranges = append(ranges, sb.DefRange)
		}
	}
	if len(stones) == 0 && !diags.HasErrors() {
		diags = append(diags, errDiag("No stones",
			`The stone set is empty. Add stone "I3" { cells = [[0, 0], [1, 0], [2, 0]] } blocks or file = "stones.txt".`, b.DefRange.Ptr()))
	}
	return stones, ranges, diags
}

func decodeStone(b *hcl.Block, ctx *hcl.EvalContext) (Stone, hcl.Diagnostics) {
	name := b.Labels[0]
	content, diags := b.Body.Content(stoneSchema)
	if diags.HasErrors() {
		return Stone{}, diags
	}
	cellsAttr, artAttr := content.Attributes["cells"], content.Attributes["art"]
	var cells []Point
	var subject *hcl.Range
	switch {
	case cellsAttr != nil && artAttr != nil:
		return Stone{}, hcl.Diagnostics{errDiag("Stone given twice",
			fmt.Sprintf("Stone %q sets both cells and art. Give its cells one way.", name), artAttr.NameRange.Ptr())}
	case cellsAttr != nil:
		subject = cellsAttr.Expr.Range().Ptr()
		var pairs [][]int
		if d := gohcl.DecodeExpression(cellsAttr.Expr, ctx, &pairs); d.HasErrors() {
			for _, x := range d {
				x.Summary = "Invalid stone cells"
				// HCL's details end without a full stop.
				x.Detail = strings.TrimSuffix(x.Detail, ".") + ". Write cells as a list of [x, y] pairs, like [[0, 0], [1, 0], [1, 1]]."
			}
			return Stone{}, d
		}
		for i, p := range pairs {
			if len(p) != 2 {
				return Stone{}, hcl.Diagnostics{errDiag("Invalid stone cells",
					fmt.Sprintf("Element %d of stone %q's cells has %d numbers; a cell is a pair [x, y] (column, row).", i+1, name, len(p)), subject)}
			}
			cells = append(cells, Point{X: p[0], Y: p[1]})
		}
	case artAttr != nil:
		subject = artAttr.Expr.Range().Ptr()
		var art string
		if d := gohcl.DecodeExpression(artAttr.Expr, ctx, &art); d.HasErrors() {
			return Stone{}, d
		}
		var err error
		if cells, err = ParseArt(art); err != nil {
			return Stone{}, hcl.Diagnostics{errDiag("Invalid stone art",
				fmt.Sprintf("Stone %q: %s.", name, err), subject)}
		}
	default:
		return Stone{}, hcl.Diagnostics{errDiag("Stone without cells",
			fmt.Sprintf(`Stone %q has neither cells nor art. Add cells = [[0, 0], [1, 0]] or art = "##".`, name), b.DefRange.Ptr())}
	}
	if err := CheckCells(cells); err != nil {
		return Stone{}, hcl.Diagnostics{errDiag("Invalid stone",
			fmt.Sprintf("Stone %q: %s. A stone is one or more different cells joined edge to edge.", name, err), subject)}
	}
	return Stone{Name: name, Cells: Normalise(cells)}, nil
}

// decodeStonesFile reads the stones file an attribute names, relative to
// the configuration's directory.
func decodeStonesFile(a *hcl.Attribute, ctx *hcl.EvalContext) ([]Stone, hcl.Diagnostics) {
	var name string
	if d := gohcl.DecodeExpression(a.Expr, ctx, &name); d.HasErrors() {
		return nil, d
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(configRoot(ctx), path)
	}
	subject := a.Expr.Range().Ptr()
	f, err := userfile.Open(path)
	if err != nil {
		return nil, hcl.Diagnostics{errDiag("Cannot read stones file",
			fmt.Sprintf("%v. The file is relative to the configuration's directory.", err), subject)}
	}
	defer f.Close()
	fileStones, err := ParseStonesFile(f)
	var diags hcl.Diagnostics
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			diags = append(diags, errDiag("Invalid stones file",
				fmt.Sprintf("%s: %s. A stones file has one stone per line: whole numbers x1 y1 x2 y2 ..., '#' starting a comment.", name, line), subject))
		}
	}
	base := filepath.Base(name)
	var stones []Stone
	for _, fs := range fileStones {
		if err := CheckCells(fs.Cells); err != nil {
			diags = append(diags, errDiag("Invalid stone",
				fmt.Sprintf("%s, line %d: %s. A stone is one or more different cells joined edge to edge.", name, fs.Line, err), subject))
			continue
		}
		stones = append(stones, Stone{Name: fmt.Sprintf("%s:%d", base, fs.Line), Cells: Normalise(fs.Cells)})
	}
	if len(fileStones) == 0 && err == nil {
		diags = append(diags, errDiag("Empty stones file",
			fmt.Sprintf("%s holds no stones. Write one stone per line as whole numbers x1 y1 x2 y2 ...", name), subject))
	}
	return stones, diags
}

// configRoot is the configuration's directory, path.root, or "" (the
// working directory) when the context has none.
func configRoot(ctx *hcl.EvalContext) string {
	for c := ctx; c != nil; c = c.Parent() {
		p, ok := c.Variables["path"]
		if !ok || !p.Type().IsObjectType() || !p.Type().HasAttribute("root") {
			continue
		}
		if r := p.GetAttr("root"); r.Type() == cty.String && r.IsKnown() && !r.IsNull() {
			return r.AsString()
		}
	}
	return ""
}

func errDiag(summary, detail string, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject}
}
