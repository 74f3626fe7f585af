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
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// MaxLines is the longest a production function may be, from its func
// line to its closing brace.
const MaxLines = 80

// tables are the functions allowed to be longer because they are tables,
// "path:func" with the reason.
var tables = map[string]string{}

// long lists the module's production functions longer than MaxLines, as
// "path:func (n lines)", sorted.
func long(t *testing.T, root string) []string {
	t.Helper()
	var out []string
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
				out = append(out, fmt.Sprintf("%s (%d lines)", key, lines))
			}
			return false
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
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
	for _, l := range long(t, "../..") {
		t.Errorf("%s: longer than %d lines; split it, or list it in tables if it is a table", l, MaxLines)
	}
}
