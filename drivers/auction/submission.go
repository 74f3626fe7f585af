package auction

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

var submissionSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "files"}, {Name: "bytes"}, {Name: "breach"}},
}

// decodeSubmission decodes a submission block: files = 10, bytes = "10MB".
func decodeSubmission(b *hcl.Block, ctx *hcl.EvalContext, s *SubmissionLimits) hcl.Diagnostics {
	content, diags := b.Body.Content(submissionSchema)
	if a, ok := content.Attributes["files"]; ok {
		diags = append(diags, intAttr(a, ctx, 1, 1_000_000, &s.Files, "files is how many files a bot may be made of: a whole number from 1, like 10.")...)
	}
	if a, ok := content.Attributes["bytes"]; ok {
		v, d := a.Expr.Value(ctx)
		diags = append(diags, d...)
		if !d.HasErrors() {
			n, err := drivers.ParseSize(v)
			if err != nil || n == 0 {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid size",
					Detail:  "bytes is how much a bot's files may hold together: a number of bytes or a size like \"10MB\" or \"512KiB\".",
					Subject: a.Expr.Range().Ptr()})
			}
			s.Bytes = n
		}
	}
	if a, ok := content.Attributes["breach"]; ok {
		diags = append(diags, decodeBreach(a, ctx, BreachRefuse,
			"a bot over these limits gets: disqualification before the first match (it is not run), or the run refused", &s.Breach)...)
	}
	return diags
}

var _ drivers.EntryChecker = (*Game)(nil)

// CheckEntry holds a bot to the submission limits. A bot is made of the
// files its command names in its directory: each argument (the program
// included) that is a path relative to dir and exists, a directory
// counting every regular file under it. Absolute paths and programs found
// in PATH (an interpreter) are the machine's, not the bot's.
func (g *Game) CheckEntry(argv []string, dir string) error {
	lim := g.settings.Submission
	if lim.Files == 0 && lim.Bytes == 0 {
		return nil
	}
	sizes := map[string]int64{}
	for _, a := range argv {
		if !filepath.IsAbs(a) || !within(dir, a) {
			continue
		}
		err := filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			sizes[path] = info.Size()
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	var total int64
	names := make([]string, 0, len(sizes))
	for p, n := range sizes {
		total += n
		if rel, err := filepath.Rel(dir, p); err == nil {
			p = rel
		}
		names = append(names, p)
	}
	slices.Sort(names)
	switch {
	case lim.Files > 0 && len(sizes) > lim.Files:
		return fmt.Errorf("it is made of %d files (%v), more than the %d allowed", len(sizes), names, lim.Files)
	case lim.Bytes > 0 && total > lim.Bytes:
		return fmt.Errorf("its files hold %s together (%v), more than the %s allowed", proc.Size(total), names, proc.Size(lim.Bytes))
	}
	return nil
}

// within reports whether path is dir or under it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != "../")
}
