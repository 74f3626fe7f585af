package config_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// hclBlock is a fenced HCL example of the docs: its opening fence on a
// line of its own, then the text up to the closing fence.
var hclBlock = regexp.MustCompile("(?ms)^```hcl\n(.*?)^```")

// TestDocsHCLParses parses every ```hcl block of the docs, so that an
// example a reader copies is at least HCL (one attribute per single-line
// block, no comment after a heredoc's opener). A block that is not whole
// HCL on purpose is marked ```hcl fragment (or another language).
func TestDocsHCLParses(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	games, _ := filepath.Glob("../docs/games/*.md")
	files = append(append(files, games...), "../README.md")
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range hclBlock.FindAllSubmatchIndex(src, -1) {
			n++
			line := 1 + strings.Count(string(src[:m[2]]), "\n")
			// "..." stands for what the example leaves out, in a list
			// or a body.
			body := strings.ReplaceAll(string(src[m[2]:m[3]]), "...", "x")
			_, diags := hclsyntax.ParseConfig([]byte(body), file, hcl.Pos{Line: line, Column: 1, Byte: 0})
			for _, d := range diags {
				t.Errorf("%s: %s", d.Subject, d.Summary+": "+d.Detail)
			}
		}
	}
	if n == 0 {
		t.Fatal("no ```hcl block found in the docs")
	}
}
