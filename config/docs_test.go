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

// botVariable is a variable that arbiter puts in a bot's environment, as
// the code of every game's bots (packages drivers and drivers/proc) sets
// it: "ARBITER_X=".
var botVariable = regexp.MustCompile(`"(ARBITER_[A-Z_]+)=`)

// TestDocsNameBotVariables: every variable that arbiter puts in the
// environment of every game's bots is named in configuration.md, where a
// bot's environment is described: a bot author who sees one there learns
// what it is for (and which must never seed a bot's play).
func TestDocsNameBotVariables(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../drivers/*.go")
	proc, _ := filepath.Glob("../drivers/proc/*.go")
	seen := map[string]bool{}
	for _, file := range append(files, proc...) {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range botVariable.FindAllSubmatch(src, -1) {
			name := string(m[1])
			if seen[name] {
				continue
			}
			seen[name] = true
			if !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("%s sets %s in a bot's environment, which docs/configuration.md does not name", file, name)
			}
		}
	}
	if !seen["ARBITER_SEED"] || !seen["ARBITER_TOKEN"] {
		t.Errorf("found %v: the scan no longer finds where the variables are set", seen)
	}
}
