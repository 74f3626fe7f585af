// Package funclen holds the check that production functions stay short:
// no function of a non-test Go file in the module is longer than MaxLines,
// unless it is listed in tables (a function that is a table).
package funclen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// MaxLines is the longest a production function may be, from its func
// line to its closing brace.
const MaxLines = 80

// tables are the functions allowed to be longer because they are tables,
// "path:func" with the reason. None is, yet.
var tables = map[string]string{}

// notYetSplit are long functions waiting to be split; none is left. The
// list may only shrink: a function listed here that is short, or gone,
// fails the test too, so that its line is removed.
var notYetSplit = map[string]bool{}

// long lists the module's production functions longer than MaxLines and
// not in tables, by "path:func", with their lengths.
func long(t *testing.T, root string) map[string]int {
	t.Helper()
	out := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "examples") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		ast.Inspect(f, func(n ast.Node) bool {
			fd, ok := n.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				return true
			}
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			key := filepath.ToSlash(rel) + ":" + funcName(fd)
			if _, ok := tables[key]; lines > MaxLines && !ok {
				out[key] = lines
			}
			return false
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if ix, ok := typ.(*ast.IndexExpr); ok {
		typ = ix.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

func TestNoLongFunctions(t *testing.T) {
	found := long(t, "../..")
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !notYetSplit[k] {
			t.Errorf("%s is %d lines, longer than %d: split it, or list it in tables if it is a table", k, found[k], MaxLines)
		}
	}
	for k := range notYetSplit {
		if _, ok := found[k]; !ok {
			t.Errorf("%s is no longer over %d lines (or gone): remove it from notYetSplit", k, MaxLines)
		}
	}
}

// TestLongFunctionsAreFound checks the check: a function of MaxLines+1
// lines is found, one of MaxLines is not.
func TestLongFunctionsAreFound(t *testing.T) {
	dir := t.TempDir()
	src := func(name string, lines int) string {
		return "func " + name + "() {\n" + strings.Repeat("\t_ = 0\n", lines-2) + "}\n"
	}
	code := "package p\n\n" + src("Long", MaxLines+1) + src("Short", MaxLines) +
		"type T struct{}\n\n" + strings.Replace(src("Method", MaxLines+1), "func ", "func (*T) ", 1)
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	got := long(t, dir)
	want := map[string]int{"p.go:Long": MaxLines + 1, "p.go:T.Method": MaxLines + 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("found %v, want %v", got, want)
	}
}
