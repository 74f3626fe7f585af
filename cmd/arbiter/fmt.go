package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/internal/userfile"
)

func cmdFmt(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("fmt", stderr)
	check := fs.Bool("check", false, "only list files that are not formatted; exit 1 if any")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		pos = []string{"."}
	}
	var files []string
	for _, p := range pos {
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		dir := config.DirFiles(p)
		if len(dir) == 0 { // as validate says it: fmt formats what it loads
			printDiags(stderr, nil, hcl.Diagnostics{config.NoFiles(p)})
			return errReported
		}
		files = append(files, dir...)
	}
	unformatted := 0
	for _, f := range files {
		src, err := userfile.ReadFile(f)
		if err != nil {
			return err
		}
		if d := config.EncodingProblem(src, f); d != nil {
			printDiags(stderr, nil, hcl.Diagnostics{d})
			return errReported
		}
		// Refuse to format a file that does not parse: hclwrite would keep
		// going and the result could hide the error.
		if file, diags := hclsyntax.ParseConfig(src, f, hcl.InitialPos); diags.HasErrors() {
			printDiags(stderr, &config.Config{Files: map[string]*hcl.File{f: file}}, diags)
			return errReported
		}
		out := hclwrite.Format(src)
		if bytes.Equal(src, out) {
			continue
		}
		unformatted++
		fmt.Fprintln(stdout, f)
		if !*check {
			if err := os.WriteFile(f, out, 0o644); err != nil {
				return err
			}
		}
	}
	if *check && unformatted > 0 {
		fmt.Fprintf(stderr, "%d file(s) need formatting; run arbiter fmt\n", unformatted)
		return errReported
	}
	return nil
}
