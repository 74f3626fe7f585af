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
	c := &checker{fset: token.NewFileSet(), parsed: map[string]*ast.File{}}
	for _, arch := range arches {
		for _, e := range c.check(t, arch) {
			t.Errorf("GOARCH=%s: %s", arch, e)
		}
	}
}

// checker parses each file once for all the architectures.
type checker struct {
	fset   *token.FileSet
	parsed map[string]*ast.File
}

// check type-checks ./... for linux/arch and returns its errors.
func (c *checker) check(t *testing.T, arch string) []string {
	t.Helper()
	pkgs := list(t, arch)
	done := map[string]*types.Package{"unsafe": types.Unsafe}
	var errs []string
	for _, p := range pkgs {
		if p.ImportPath == "unsafe" {
			continue
		}
		if p.Error != nil {
			errs = append(errs, p.Error.Err)
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

// list is go list -deps ./... for linux/arch without cgo, dependencies
// before the packages that import them.
func list(t *testing.T, arch string) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-json=ImportPath,Dir,GoFiles,SFiles,ImportMap,Module,Error", "./...")
	cmd.Dir = filepath.Join("..", "..")
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
