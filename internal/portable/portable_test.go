// Package portable holds the check that arbiter and its tests build on
// every Linux architecture Go has, not only the one the tests run on: a
// stat's field of another width there (Dev is uint32 on mips, a statfs's
// Bsize int32 on 32-bit, a Timespec's Sec int32 on 386), or a system call
// number it lacks, is a build error only there.
package portable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// arches are the Linux GOARCHes of `go tool dist list`.
var arches = []string{"386", "amd64", "arm", "arm64", "loong64", "mips", "mips64", "mips64le",
	"mipsle", "ppc64", "ppc64le", "riscv64", "s390x"}

// listed is what go list says of a package.
type listed struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	SFiles     []string
	ImportMap  map[string]string
	ForTest    string // of a package compiled for that package's test
	Name       string
	Standard   bool
	Module     *struct{ Main bool }
	Error      *struct{ Err string }
}

// TestBuildsOnEveryLinuxArch type-checks the module's packages and their
// tests (the _test.go files of each package with it, an external _test
// package on its own, as go test ./... and go vet ./... build them) for
// each Linux GOARCH without cgo: what go build ./... or go test ./...
// would refuse there fails here, with its file and line. The dependencies
// are checked for their declarations only, which is what makes it cheap
// enough: a go build per architecture would first compile the standard
// library for it.
func TestBuildsOnEveryLinuxArch(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the module for every Linux architecture")
	}
	c := newChecker(filepath.Join("..", ".."))
	for _, arch := range arches {
		errs, listed := c.check(t, arch)
		for _, e := range errs {
			t.Errorf("GOARCH=%s: %s", arch, e)
		}
		if !listed {
			t.FailNow() // the next architectures would list the same
		}
	}
}

// A package go list cannot load (a module missing from the cache with no
// network, GOPROXY=off) is the one error, naming it: not followed by every
// error of the packages that import it, for every architecture.
func TestListingErrorsComeAlone(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.21\n",
		"a/a.go": "package a\n\nimport \"example.com/missing/pkg\"\n\nvar X = pkg.Y\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nvar Z = a.X\n",
	})
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	errs, listed := newChecker(dir).check(t, "386")
	if listed || len(errs) != 1 || !strings.Contains(errs[0], "example.com/missing/pkg: ") {
		t.Errorf("listed %v, errors %q; want one listing error naming example.com/missing/pkg", listed, errs)
	}
}

// The tests build too: a _test.go file of a package, or of its external
// _test package, using a stat's Timespec.Sec as an int64 (an int32 on
// 386) fails for 386 with its file and line, each error once, and not
// for amd64.
func TestTestFilesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks a module for 386 and amd64")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.21\n",
		"a/a.go":       "package a\n\nimport \"syscall\"\n\nfunc Times(st syscall.Stat_t) (int64, int64) {\n\tm, _ := st.Mtim.Unix()\n\ta, _ := st.Atim.Unix()\n\treturn m, a\n}\n",
		"a/in_test.go": "package a\n\nimport \"syscall\"\n\nfunc mtime(st syscall.Stat_t) int64 {\n\treturn st.Mtim.Sec\n}\n",
		"a/ex_test.go": "package a_test\n\nimport (\n\t\"syscall\"\n\n\t\"example.com/m/a\"\n)\n\n" +
			"var _ = a.Times\n\nfunc atime(st syscall.Stat_t) int64 {\n\treturn st.Atim.Sec\n}\n",
		// b, listed three times (itself, with its test, compiled again
		// for a's test as it imports a), has its error once
		"b/b.go": "package b\n\nimport (\n\t\"syscall\"\n\n\t\"example.com/m/a\"\n)\n\n" +
			"var T = a.Times\n\nvar W int64 = syscall.Timespec{}.Sec\n",
		"b/b_test.go": "package b\n",
	})
	c := newChecker(dir)
	errs, _ := c.check(t, "386")
	want := []string{
		filepath.Join(dir, "a", "ex_test.go") + ":12:9: cannot use st.Atim.Sec",
		filepath.Join(dir, "a", "in_test.go") + ":6:9: cannot use st.Mtim.Sec",
		filepath.Join(dir, "b", "b.go") + ":11:15: cannot use syscall.Timespec{}.Sec",
	}
	slices.Sort(errs)
	if len(errs) != len(want) {
		t.Fatalf("GOARCH=386: errors %q; want %q", errs, want)
	}
	for i, e := range errs {
		if !strings.HasPrefix(e, want[i]) {
			t.Errorf("GOARCH=386: error %q; want %q...", e, want[i])
		}
	}
	if errs, _ := c.check(t, "amd64"); len(errs) != 0 {
		t.Errorf("GOARCH=amd64: errors %q; want none", errs)
	}
}

// A package checked with its tests is checked without them too: a
// function its file calls that only a _test.go file declares for 386
// (and a file of its own for amd64) fails go build for 386.
func TestPackageBuildsWithoutItsTests(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.21\n",
		"a/a.go":            "package a\n\nvar X = sysFoo()\n",
		"a/sys_amd64.go":    "package a\n\nfunc sysFoo() int { return 1 }\n",
		"a/sys_386_test.go": "package a\n\nfunc sysFoo() int { return 2 }\n",
	})
	failsOn386Only(t, dir, filepath.Join(dir, "a", "a.go")+":3:9: undefined: sysFoo")
}

// A module arbiter imports is checked whole at package level, its tables
// too: one whose constant overflows a 32-bit int fails go build for 386.
// Only the standard library's tables are left out (see emptyTables).
func TestDependencyTablesBuild(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.21\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
		"dep/go.mod": "module example.com/dep\n\ngo 1.21\n",
		"dep/d.go":   "package dep\n\nvar Table = []int{2, 1 << 40}\n",
		"a/a.go":     "package a\n\nimport \"example.com/dep\"\n\nvar X = dep.Table\n",
	})
	failsOn386Only(t, dir, "example.com/dep: "+filepath.Join(dir, "dep", "d.go")+":3:22: cannot use 1 << 40")
}

// failsOn386Only checks the module in dir for 386, wanting one error
// that begins with want, and for amd64, wanting none.
func failsOn386Only(t *testing.T, dir, want string) {
	t.Helper()
	c := newChecker(dir)
	if errs, _ := c.check(t, "386"); len(errs) != 1 || !strings.HasPrefix(errs[0], want) {
		t.Errorf("GOARCH=386: errors %q; want %q...", errs, want)
	}
	if errs, _ := c.check(t, "amd64"); len(errs) != 0 {
		t.Errorf("GOARCH=amd64: errors %q; want none", errs)
	}
}

// writeFiles writes files, by name under dir, with their text.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A dependency's tables emptied, its variables keep their types: an
// array of [...] the length its elements give it.
func TestEmptyTablesKeepTypes(t *testing.T) {
	const src = `package p

type pt struct{ x, y int }

const k = 3

var (
	a    = [...]byte{1, 2, 3}
	b    = [...]uint16{1, 7: 2, 3}
	c, d = [...]pt{{1, 2}, {3, 4}}, map[string][2]int{"x": {1, 2}}
	e    = &[]pt{{5, 6}}
	f    = [...]int{k: 1}
	g    = [...]int{0x10: 1, 2: 2}
	h    []int = []int{1}
)
`
	varTypes := func(strip bool) map[string]string {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if strip {
			emptyTables(f)
		}
		pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]string{}
		for _, name := range pkg.Scope().Names() {
			byName[name] = pkg.Scope().Lookup(name).Type().String()
		}
		return byName
	}
	want, got := varTypes(false), varTypes(true)
	if want["b"] != "[9]uint16" || want["g"] != "[17]int" {
		t.Fatalf("unemptied types %v; want b [9]uint16, g [17]int", want)
	}
	if !maps.Equal(got, want) {
		t.Errorf("emptied, types %v; want %v", got, want)
	}
}

// checker parses each file once for all the architectures.
type checker struct {
	dir    string // of the module
	fset   *token.FileSet
	parsed map[string]*ast.File
}

func newChecker(dir string) *checker {
	return &checker{dir: dir, fset: token.NewFileSet(), parsed: map[string]*ast.File{}}
}

// check type-checks ./... and its tests for linux/arch and returns its errors; listed
// is false when go list could not load every package, whose errors
// (naming each) are then the only ones, as type-checking the packages
// that import one would only repeat that it is missing.
func (c *checker) check(t *testing.T, arch string) (errs []string, listed bool) {
	t.Helper()
	pkgs := list(t, c.dir, arch)
	for _, p := range pkgs {
		if p.Error != nil {
			errs = append(errs, fmt.Sprintf("go list: %s: %s", p.ImportPath, p.Error.Err))
		}
	}
	if errs != nil {
		return errs, false
	}
	return c.typeCheck(pkgs, arch), true
}

// typeCheck type-checks pkgs, listed for linux/arch, and returns its
// errors, each once: a package's file is checked with its bodies both
// in the package and in its test variant (see whole).
func (c *checker) typeCheck(pkgs []listed, arch string) []string {
	done := map[string]*types.Package{"unsafe": types.Unsafe}
	var errs []string
	for _, p := range pkgs {
		if p.ImportPath == "unsafe" || isTestMain(p) {
			continue
		}
		files, err := c.parse(p)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		pkg, perrs := c.checkPackage(p, whole(p), files, done, arch)
		for _, e := range perrs {
			if !slices.Contains(errs, e) {
				errs = append(errs, e)
			}
		}
		done[p.ImportPath] = pkg
	}
	return errs
}

// checkPackage type-checks p's files against the packages done before
// it and returns p and its errors: with its function bodies when whole,
// else for its declarations only, its errors then the one error that it
// does not load when p is not the module's.
func (c *checker) checkPackage(p listed, whole bool, files []*ast.File, done map[string]*types.Package, arch string) (*types.Package, []string) {
	mine := p.Module != nil && p.Module.Main
	var errs []string
	conf := types.Config{
		Importer:         importer{done, p.ImportMap},
		Sizes:            types.SizesFor("gc", arch),
		IgnoreFuncBodies: !whole,
		Error: func(err error) {
			if whole {
				errs = append(errs, err.Error())
			}
		},
	}
	pkg, err := conf.Check(p.ImportPath, c.fset, files, nil)
	if err != nil && !mine {
		errs = append(errs, fmt.Sprintf("%s: %v", p.ImportPath, err))
	}
	if whole {
		errs = append(errs, c.bodiless(p, files)...)
	}
	return pkg, errs
}

// whole says whether p is checked with its function bodies: a package of
// the module, its test variant ("p [p.test]", p's files and its _test.go
// files) or external test package ("p_test [p.test]"). p itself too when
// it has a test variant: its files may build only with its tests' (a
// function a _test.go file declares for 386 only), which go build
// refuses there. Not a package compiled again for another's test as it
// imports the package under test ("q [p.test]"), the same files as q.
// Dependencies are checked for their declarations only.
func whole(p listed) bool {
	if p.Module == nil || !p.Module.Main {
		return false
	}
	if p.ForTest == "" {
		return true
	}
	path, _, _ := strings.Cut(p.ImportPath, " ")
	return path == p.ForTest || path == p.ForTest+"_test"
}

// isTestMain says whether p is the main package go test generates for a
// package's test binary: its one file, in the build cache, is go test's
// and imports nothing arbiter's tests choose.
func isTestMain(p listed) bool {
	return p.ForTest == "" && p.Name == "main" && strings.HasSuffix(p.ImportPath, ".test")
}

// list is go list -deps -test ./... in dir for linux/arch without cgo,
// dependencies before the packages that import them.
func list(t *testing.T, dir, arch string) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-test",
		"-json=ImportPath,Dir,GoFiles,SFiles,ImportMap,ForTest,Name,Standard,Module,Error", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GOARCH=%s go list: %v\n%s", arch, err, stderr.Bytes())
	}
	var pkgs []listed
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("GOARCH=%s go list: %v", arch, err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// parse parses p's files, or takes them from an architecture before. A
// dependency's are parsed without comments, as it is checked for its
// declarations only, and the standard library's tables are left out (see
// emptyTables).
func (c *checker) parse(p listed) ([]*ast.File, error) {
	mine := p.Module != nil && p.Module.Main
	mode := parser.SkipObjectResolution
	if mine {
		mode |= parser.ParseComments // for go:linkname
	}
	var files []*ast.File
	for _, name := range p.GoFiles {
		path := filepath.Join(p.Dir, name)
		f, ok := c.parsed[path]
		if !ok {
			var err error
			f, err = parser.ParseFile(c.fset, path, nil, mode)
			if err != nil {
				return nil, err
			}
			if p.Standard {
				emptyTables(f)
			}
			c.parsed[path] = f
		}
		files = append(files, f)
	}
	return files, nil
}

// emptyTables empties the composite literals that initialize f's package
// variables, keeping their types: T{...} becomes T{}, [...]T{...} of n
// elements [n]T{}. The declarations are the same, and checking the
// standard library's tables (Unicode's, the P-256 precomputed points) for
// each architecture was much of this test's time. It is for the standard
// library only, which Go's own builders build for every architecture: a
// table of a module arbiter imports may not build on one (an element
// overflowing a 32-bit int), and go build would say so.
func emptyTables(f *ast.File) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
					v = u.X
				}
				if lit, ok := v.(*ast.CompositeLit); ok {
					emptyLiteral(lit)
				}
			}
		}
	}
}

// emptyLiteral empties lit, unless it is an array of a length it would
// not know: [...]T{k: x} with k a named constant.
func emptyLiteral(lit *ast.CompositeLit) {
	if a, ok := lit.Type.(*ast.ArrayType); ok && a.Len != nil {
		if _, ellipsis := a.Len.(*ast.Ellipsis); ellipsis {
			n, ok := arrayLength(lit.Elts)
			if !ok {
				return
			}
			lit.Type = &ast.ArrayType{Lbrack: a.Lbrack, Len: &ast.BasicLit{ValuePos: a.Lbrack, Kind: token.INT, Value: strconv.Itoa(n)}, Elt: a.Elt}
		}
	}
	lit.Elts = nil
}

// arrayLength is the length of an array literal of elts, as the spec
// counts it: one past the highest index, an index being its key or one
// past the element's before. ok is false for a key not a decimal literal.
func arrayLength(elts []ast.Expr) (n int, ok bool) {
	i := 0
	for _, e := range elts {
		if kv, isKV := e.(*ast.KeyValueExpr); isKV {
			k, isLit := kv.Key.(*ast.BasicLit)
			if !isLit || k.Kind != token.INT {
				return 0, false
			}
			v, err := strconv.ParseInt(k.Value, 0, 64)
			if err != nil {
				return 0, false
			}
			i = int(v)
		}
		i++
		n = max(n, i)
	}
	return n, true
}

// bodiless lists the functions of p declared without a body when p has
// no assembly to give them one and no go:linkname names them: the
// compiler's "missing function body".
func (c *checker) bodiless(p listed, files []*ast.File) []string {
	if len(p.SFiles) > 0 {
		return nil
	}
	var errs []string
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil && !linknamed(f, fd.Name.Name) {
				errs = append(errs, fmt.Sprintf("%s: missing function body", c.fset.Position(fd.Pos())))
			}
		}
	}
	return errs
}

// importer finds an import among the packages checked before it.
type importer struct {
	done      map[string]*types.Package
	importMap map[string]string
}

func (im importer) Import(path string) (*types.Package, error) {
	if p, ok := im.importMap[path]; ok {
		path = p
	}
	if p := im.done[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("%s: not checked before its importer", strings.TrimSpace(path))
}

// linknamed says whether a //go:linkname directive of f names fn.
func linknamed(f *ast.File, fn string) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if fields := strings.Fields(c.Text); len(fields) >= 2 && fields[0] == "//go:linkname" && fields[1] == fn {
				return true
			}
		}
	}
	return false
}
