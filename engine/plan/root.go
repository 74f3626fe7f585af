package plan

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// BotRoot is the directory that a run took p's relative bot dirs from
// (the configuration's directory, or -root), as the bots' fingerprints
// record it: their root, or for a fingerprint recorded before arbiter
// recorded the root, the directory it ran in with the bot's dir cut off
// its end (which cannot be done for a dir that climbs out with ".."; other
// bots may tell). It is "" when p has no bot with a relative dir.
func (p *Plan) BotRoot() (string, error) {
	root, from := "", ""
	var rel []*Bot
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" || filepath.IsAbs(filepath.FromSlash(b.Dir)) {
			continue
		}
		if b.Fingerprint == nil || b.Fingerprint.Dir == "" {
			return "", fmt.Errorf("the plan does not record where bot %q ran; give -root, the configuration's directory", b.Name)
		}
		rel = append(rel, b)
		r := b.Fingerprint.Root
		if r == "" {
			var ok bool
			if r, ok = rootOf(b.Fingerprint.Dir, b.Dir); !ok {
				continue
			}
		}
		if root != "" && r != root {
			return "", fmt.Errorf("the bots ran with dirs taken from different directories (%s for bot %q, %s for bot %q); give -root", root, from, r, b.Name)
		}
		root, from = r, b.Name
	}
	if len(rel) == 0 {
		return "", nil
	}
	if root == "" {
		b := rel[0]
		return "", fmt.Errorf("the plan does not record which directory bot %q's dir %s was taken from (it ran in %s); give -root, the configuration's directory", b.Name, b.Dir, b.Fingerprint.Dir)
	}
	for _, b := range rel {
		if dir := b.DirIn(root); dir != filepath.Clean(b.Fingerprint.Dir) {
			return "", fmt.Errorf("bot %q ran in %s, which is not its dir %s in %s; give -root", b.Name, b.Fingerprint.Dir, b.Dir, root)
		}
	}
	return root, nil
}

// rootOf is the directory that a bot's relative dir rel (slash
// separated) was taken from, given ran, the directory it led to; false
// when rel climbs out with "..", since what it climbed out of is not in
// ran.
func rootOf(ran, rel string) (string, bool) {
	rel = path.Clean(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	if rel == "." {
		return ran, true
	}
	return strings.CutSuffix(ran, string(filepath.Separator)+filepath.FromSlash(rel))
}

// RunsIn says whether root can be the root of p's bots with relative
// dirs: each one's dir there is a directory that holds its files (one of
// those its fingerprint recorded, at least). A refusal that suggests a
// -root checks it with this first (engine.CarryRoot).
func (p *Plan) RunsIn(root string) bool {
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" || filepath.IsAbs(filepath.FromSlash(b.Dir)) {
			continue
		}
		dir := b.DirIn(root)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return false
		}
		if _, held := b.FilesIn(dir); !held {
			return false
		}
	}
	return true
}

// FilesIn says whether dir holds one of the files the bot's fingerprint
// recorded relative to its dir (rel, slash separated): held is false
// only when it recorded some and dir holds none of them, which makes dir
// another folder than the bot's.
func (b *Bot) FilesIn(dir string) (rel []string, held bool) {
	if b.Fingerprint == nil {
		return nil, true
	}
	for _, f := range b.Fingerprint.Files {
		if !filepath.IsAbs(f.Path) {
			rel = append(rel, f.Path)
		}
	}
	for _, r := range rel {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(r))); err == nil {
			return rel, true
		}
	}
	return rel, len(rel) == 0
}
