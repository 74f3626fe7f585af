package drivers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ResolveArgv makes a bot's command independent of its working directory,
// for games that run a bot in a folder of their own rather than in the
// bot's configured dir: a program with a slash, and every argument that
// names an existing file or folder in dir (like bots/bid.py), become
// absolute paths into dir. Flags (starting with "-") and other arguments
// are left as they are.
func ResolveArgv(argv []string, dir string) []string {
	out := slices.Clone(argv)
	for i, a := range out {
		if a == "" || filepath.IsAbs(a) || strings.HasPrefix(a, "-") {
			continue
		}
		p := filepath.Join(dir, a)
		if i == 0 {
			if strings.ContainsRune(a, '/') {
				out[i] = p
			}
			continue
		}
		if _, err := os.Stat(p); err == nil {
			out[i] = p
		}
	}
	return out
}
