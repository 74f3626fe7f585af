package plan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// valueWidth is how many characters of a value a difference shows.
const valueWidth = 60

// Diff lists what differs between plan old (a results directory's
// plan.json) and plan p in what their hashes cover, one line a
// difference, in the plan file's order: "game.settings.limits.move: 1s →
// 800ms", "bots: + cid (players/cid)", "grades added: […]", and last a
// line for the listed matches. The bots' fingerprints and arbiter's build
// are not the plan's content (fingerprints.md) and are not compared.
// Nothing when the two have the same content.
func Diff(old, p *Plan) []string {
	var d differ
	a, errA := hashedTree(old)
	b, errB := hashedTree(p)
	if errA != nil || errB != nil {
		d.add("the plans cannot be compared field by field (%v)", cmpErr(errA, errB))
	} else {
		d.value("", a, b)
	}
	d.lines = append(d.lines, matchesDiff(old.Matches, p.Matches)...)
	return d.lines
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// hashedTree is what p's hash covers but its matches, as a tree.
func hashedTree(p *Plan) (any, error) {
	b, err := json.Marshal(p.hashed())
	if err != nil {
		return nil, err
	}
	t, err := tree(b)
	if o, ok := t.(*object); ok {
		o.keys = slices.DeleteFunc(o.keys, func(k string) bool { return k == "matches" })
	}
	return t, err
}

type differ struct {
	lines []string
}

func (d *differ) add(format string, args ...any) {
	d.lines = append(d.lines, fmt.Sprintf(format, args...))
}

// value compares a and b found at path.
func (d *differ) value(path string, a, b any) {
	oa, okA := a.(*object)
	ob, okB := b.(*object)
	if okA && okB {
		d.object(path, oa, ob)
		return
	}
	la, okA := a.([]any)
	lb, okB := b.([]any)
	if okA && okB {
		d.array(path, la, lb)
		return
	}
	d.whole(path, a, b)
}

// whole compares a and b as a whole.
func (d *differ) whole(path string, a, b any) {
	if ta, tb := text(a), text(b); ta != tb {
		d.add("%s: %s → %s", path, clipText(ta, valueWidth), clipText(tb, valueWidth))
	}
}

// object compares two objects key by key: the keys of a in their order,
// then those only b has.
func (d *differ) object(path string, a, b *object) {
	keys := slices.Clone(a.keys)
	for _, k := range b.keys {
		if _, ok := a.vals[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		va, inA := a.vals[k]
		vb, inB := b.vals[k]
		at := join(path, k)
		switch {
		case !inA:
			d.add("%s added: %s", at, clipText(text(vb), valueWidth))
		case !inB:
			d.add("%s removed (was %s)", at, clipText(text(va), valueWidth))
		default:
			d.value(at, va, vb)
		}
	}
}

// join is the path of key (an object's key or a named element's name)
// in path.
func join(path, key string) string {
	if path == "" {
		return pathName(key)
	}
	return path + "." + pathName(key)
}

// pathName is s as one step of a path: bareOrQuoted, and quoted too when
// it holds a dot, which would read as two steps (bots."alice.v2".limits,
// not bots.alice.v2.limits).
func pathName(s string) string {
	if strings.Contains(s, ".") {
		return fmt.Sprintf("%q", s)
	}
	return bareOrQuoted(s)
}

// array compares two arrays: element by element when each element is an
// object with a name (bots, stages, stones, boards), by that name; else
// position by position (positional). A list shown whole, and clipped,
// could show the same text on both sides when what changed lies past the
// clip.
func (d *differ) array(path string, a, b []any) {
	na, okA := named(a)
	nb, okB := named(b)
	if okA && okB {
		d.namedArray(path, a, na, b, nb)
		return
	}
	d.positional(path, a, b)
}

// positional compares arrays a and b of different lengths by their
// longest common prefix and suffix, which are the same, and then the
// middles left between them position by position, what only one middle
// has added or removed: an element inserted or removed anywhere is told
// as that alone, not as every element after it changed. Arrays of the
// same length are compared position by position throughout.
func (d *differ) positional(path string, a, b []any) {
	pre, suf := 0, 0
	if len(a) != len(b) {
		short := min(len(a), len(b))
		for pre < short && text(a[pre]) == text(b[pre]) {
			pre++
		}
		for suf < short-pre && text(a[len(a)-1-suf]) == text(b[len(b)-1-suf]) {
			suf++
		}
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	for i := 0; i < max(len(ma), len(mb)); i++ {
		at := fmt.Sprintf("%s[%d]", path, pre+i)
		switch {
		case i >= len(ma):
			d.add("%s added: %s", at, clipText(text(mb[i]), valueWidth))
		case i >= len(mb):
			d.add("%s removed (was %s)", at, clipText(text(ma[i]), valueWidth))
		default:
			d.value(at, ma[i], mb[i])
		}
	}
}

// named is the names of the elements of a when each is an object with a
// distinct string "name".
func named(a []any) ([]string, bool) {
	names := make([]string, len(a))
	for i, e := range a {
		o, ok := e.(*object)
		if !ok {
			return nil, false
		}
		name, ok := o.vals["name"].(string)
		if !ok || slices.Contains(names[:i], name) {
			return nil, false
		}
		names[i] = name
	}
	return names, true
}

func (d *differ) namedArray(path string, a []any, na []string, b []any, nb []string) {
	for i, n := range nb {
		if !slices.Contains(na, n) {
			d.add("%s: + %s%s", path, bareOrQuoted(n), where(b[i].(*object)))
		}
	}
	for i, n := range na {
		j := slices.Index(nb, n)
		if j < 0 {
			d.add("%s: - %s%s", path, bareOrQuoted(n), where(a[i].(*object)))
			continue
		}
		d.value(join(path, n), a[i], b[j])
	}
	var keptA, keptB []string
	for _, n := range na {
		if slices.Contains(nb, n) {
			keptA = append(keptA, n)
		}
	}
	for _, n := range nb {
		if slices.Contains(na, n) {
			keptB = append(keptB, n)
		}
	}
	if !slices.Equal(keptA, keptB) {
		d.add("%s: order %s → %s", path, clipText(strings.Join(keptA, ", "), valueWidth), clipText(strings.Join(keptB, ", "), valueWidth))
	}
}

// where is what says where a bot runs: its dir, or its house bot.
func where(o *object) string {
	for _, k := range []string{"dir", "house"} {
		if s, ok := o.vals[k].(string); ok && s != "" {
			return " (" + s + ")"
		}
	}
	return ""
}

// fewFields is how many different changes to one field of the matches
// are named, each with how many matches have it; a field changed in more
// ways (a seed changed, which changes every match's seed differently) is
// told by the count line alone.
const fewFields = 3

// matchesDiff is how the listed matches differ: the changes to their
// fields that several matches share (see changedFields), each named once
// in the plan file's words with how many matches have it
// ("matches[*].clock.total: 5m0s → 4m0s (80 matches)"); then a line by id: how many matches there are, and which
// were added, removed or changed (the first few).
func matchesDiff(a, b []Match) []string {
	byID := make(map[string]*Match, len(a))
	for i := range a {
		byID[a[i].ID] = &a[i]
	}
	in := make(map[string]bool, len(b))
	var added, removed, changed []string
	var pairs [][2]*Match
	for i := range b {
		m := &b[i]
		in[m.ID] = true
		if o := byID[m.ID]; o == nil {
			added = append(added, m.ID)
		} else if !sameMatch(o, m) {
			changed = append(changed, m.ID)
			pairs = append(pairs, [2]*Match{o, m})
		}
	}
	for i := range a {
		if !in[a[i].ID] {
			removed = append(removed, a[i].ID)
		}
	}
	if len(added)+len(removed)+len(changed) == 0 {
		return nil
	}
	var parts []string
	for _, s := range []struct {
		what string
		ids  []string
	}{{"added", added}, {"removed", removed}, {"changed", changed}} {
		if len(s.ids) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s (%s)", len(s.ids), s.what, firstIDs(s.ids, 2)))
		}
	}
	return append(changedFields(pairs), fmt.Sprintf("matches: %d → %d, %s", len(a), len(b), strings.Join(parts, ", ")))
}

// changedFields names the changes to the fields of the matches paired
// (old, new), in the plan file's order, each once with how many matches
// have it. A field's changes are named when they are few (at most
// fewFields) and shared: one change, or fewer changes than the matches
// changed there. A field changed otherwise (a seed, different in every
// match) differs from match to match and is left to the count line.
func changedFields(pairs [][2]*Match) []string {
	var order []string        // the lines, in the order first met
	count := map[string]int{} // matches per line
	for _, pr := range pairs {
		ta, errA := matchTree(pr[0])
		tb, errB := matchTree(pr[1])
		if errA != nil || errB != nil {
			return nil
		}
		var d differ
		d.value("matches[*]", ta, tb)
		for _, l := range d.lines {
			if count[l] == 0 {
				order = append(order, l)
			}
			count[l]++
		}
	}
	kinds := map[string]int{}   // distinct lines per field
	matches := map[string]int{} // matches changed per field
	for _, l := range order {
		kinds[linePath(l)]++
		matches[linePath(l)] += count[l]
	}
	var lines []string
	for _, l := range order {
		f := linePath(l)
		if k := kinds[f]; k == 1 || k <= fewFields && k < matches[f] {
			lines = append(lines, fmt.Sprintf("%s (%d %s)", l, count[l], plural(count[l], "match", "matches")))
		}
	}
	return lines
}

// linePath is the path of the field a differ line is about: what comes
// before its first colon or space.
func linePath(line string) string {
	if i := strings.IndexAny(line, ": "); i >= 0 {
		return line[:i]
	}
	return line
}

func matchTree(m *Match) (any, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return tree(b)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func sameMatch(a, b *Match) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// firstIDs is the first n of ids, and how many more there are.
func firstIDs(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:n], ", "), len(ids)-n)
}
