// Package portable holds the check that arbiter builds on every Linux
// architecture Go has, not only the one the tests run on: a stat's field
// of another width there (Dev is uint32 on mips, a statfs's Bsize int32
// on 32-bit), or a system call number it lacks, is a build error only
// there.
package portable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
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
	Module     *struct{ Main bool }
	Error      *struct{ Err string }
}

// TestBuildsOnEveryLinuxArch type-checks the module's packages (not their
// tests) for each Linux GOARCH as go build would compile them, without
// cgo: what go build ./... would refuse there fails here, with its file
// and line. The dependencies are checked for their declarations only,
// which is what makes it cheap enough: a go build per architecture would
// first compile the standard library for it.
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
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.21\n")
	write("a/a.go", "package a\n\nimport \"example.com/missing/pkg\"\n\nvar X = pkg.Y\n")
	write("b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nvar Z = a.X\n")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	errs, listed := newChecker(dir).check(t, "386")
	if listed || len(errs) != 1 || !strings.Contains(errs[0], "example.com/missing/pkg: ") {
		t.Errorf("listed %v, errors %q; want one listing error naming example.com/missing/pkg", listed, errs)
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

// check type-checks ./... for linux/arch and returns its errors; listed
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
// errors.
func (c *checker) typeCheck(pkgs []listed, arch string) []string {
	done := map[string]*types.Package{"unsafe": types.Unsafe}
	var errs []string
	for _, p := range pkgs {
		if p.ImportPath == "unsafe" {
			continue
		}
		mine := p.Module != nil && p.Module.Main
		files, err := c.parse(p)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		conf := types.Config{
			Importer:         importer{done, p.ImportMap},
			Sizes:            types.SizesFor("gc", arch),
			IgnoreFuncBodies: !mine,
			Error: func(err error) {
				if mine {
					errs = append(errs, err.Error())
				}
			},
		}
		pkg, err := conf.Check(p.ImportPath, c.fset, files, nil)
		if err != nil && !mine {
			errs = append(errs, fmt.Sprintf("%s: %v", p.ImportPath, err))
		}
		done[p.ImportPath] = pkg
		if mine {
			errs = append(errs, c.bodiless(p, files)...)
		}
	}
	return errs
}

// list is go list -deps ./... in dir for linux/arch without cgo,
// dependencies before the packages that import them.
func list(t *testing.T, dir, arch string) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-json=ImportPath,Dir,GoFiles,SFiles,ImportMap,Module,Error", "./...")
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

// parse parses p's files, or takes them from an architecture before.
func (c *checker) parse(p listed) ([]*ast.File, error) {
	var files []*ast.File
	for _, name := range p.GoFiles {
		path := filepath.Join(p.Dir, name)
		f, ok := c.parsed[path]
		if !ok {
			var err error
			f, err = parser.ParseFile(c.fset, path, nil, parser.SkipObjectResolution|parser.ParseComments)
			if err != nil {
				return nil, err
			}
			c.parsed[path] = f
		}
		files = append(files, f)
	}
	return files, nil
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
