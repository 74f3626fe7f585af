package pairing

// This file finds a minimum-cost perfect matching of a complete graph by
// Edmonds' weighted blossom algorithm (primal-dual, O(n³) with arrays:
// Galil, "Efficient algorithms for finding maximum matching in graphs",
// 1986). Swiss duels use it for the fewest meetings a round can have
// (swissMatched).

// minCostMatching returns a perfect matching of vertices 0..n-1 (n even)
// of least total cost(i, j), costs being non-negative, as mate[i] = j,
// and its cost.
func minCostMatching(n int, cost func(i, j int) int) (mate []int, total int) {
	if n == 0 {
		return nil, 0
	}
	most := 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			most = max(most, cost(i, j))
		}
	}
	// Every weight exceeds what the costs of a perfect matching can
	// sum to, so a matching of most weight is a perfect one, and of
	// those the one of least cost.
	big := most*(n/2) + 1
	b := newBlossom(n, func(i, j int) int { return big - cost(i, j) })
	b.solve()
	mate = make([]int, n)
	for i := range n {
		mate[i] = b.match[i+1] - 1
		if mate[i] > i {
			total += cost(i, mate[i])
		}
	}
	return mate, total
}

// bEdge is an edge between vertices u and v (1-based) of weight w; an
// edge of weight 0 is none.
type bEdge struct{ u, v, w int }

// blossom is the state of the weighted blossom algorithm: vertices are
// 1..n and blossoms n+1..nx; lab are the dual variables (a vertex's
// doubled), st the top blossom of each, S its label (-1 free, 0 outer,
// 1 inner), flower a blossom's members around its cycle from its base.
type blossom struct {
	n, nx      int
	g          [][]bEdge
	lab        []int
	match      []int
	slack      []int
	st         []int
	pa         []int
	S          []int
	vis        []int
	visStamp   int
	flowerFrom [][]int
	flower     [][]int
	queue      []int
}

func newBlossom(n int, weight func(i, j int) int) *blossom {
	m := 2*n + 1
	b := &blossom{n: n, nx: n, g: make([][]bEdge, m), lab: make([]int, m), match: make([]int, m),
		slack: make([]int, m), st: make([]int, m), pa: make([]int, m), S: make([]int, m),
		vis: make([]int, m), flowerFrom: make([][]int, m), flower: make([][]int, m)}
	wmax := 0
	for u := range m {
		b.g[u] = make([]bEdge, m)
		b.flowerFrom[u] = make([]int, n+1)
		if u <= n {
			b.st[u] = u // a blossom's index is free while its st is 0
		}
		for v := range m {
			b.g[u][v] = bEdge{u: u, v: v}
			if u >= 1 && v >= 1 && u <= n && v <= n && u != v {
				b.g[u][v].w = weight(u-1, v-1)
				wmax = max(wmax, b.g[u][v].w)
			}
		}
	}
	for u := 1; u <= n; u++ {
		b.flowerFrom[u][u] = u
		b.lab[u] = wmax
	}
	return b
}

func (b *blossom) delta(e bEdge) int { return b.lab[e.u] + b.lab[e.v] - 2*b.g[e.u][e.v].w }

func (b *blossom) updateSlack(u, x int) {
	if b.slack[x] == 0 || b.delta(b.g[u][x]) < b.delta(b.g[b.slack[x]][x]) {
		b.slack[x] = u
	}
}

func (b *blossom) setSlack(x int) {
	b.slack[x] = 0
	for u := 1; u <= b.n; u++ {
		if b.g[u][x].w > 0 && b.st[u] != x && b.S[b.st[u]] == 0 {
			b.updateSlack(u, x)
		}
	}
}

func (b *blossom) push(x int) {
	if x <= b.n {
		b.queue = append(b.queue, x)
		return
	}
	for _, y := range b.flower[x] {
		b.push(y)
	}
}

func (b *blossom) setSt(x, top int) {
	b.st[x] = top
	if x > b.n {
		for _, y := range b.flower[x] {
			b.setSt(y, top)
		}
	}
}

// evenPos is xr's place in blossom x's cycle, the cycle reversed (but
// for its base) if that place is odd, so that the even path from the
// base reaches it.
func (b *blossom) evenPos(x, xr int) int {
	f := b.flower[x]
	pr := 0
	for f[pr] != xr {
		pr++
	}
	if pr%2 == 1 {
		for i, j := 1, len(f)-1; i < j; i, j = i+1, j-1 {
			f[i], f[j] = f[j], f[i]
		}
		return len(f) - pr
	}
	return pr
}

func (b *blossom) setMatch(u, v int) {
	b.match[u] = b.g[u][v].v
	if u <= b.n {
		return
	}
	e := b.g[u][v]
	xr := b.flowerFrom[u][e.u]
	pr := b.evenPos(u, xr)
	for i := 0; i < pr; i++ {
		b.setMatch(b.flower[u][i], b.flower[u][i^1])
	}
	b.setMatch(xr, v)
	f := b.flower[u]
	b.flower[u] = append(append([]int{}, f[pr:]...), f[:pr]...)
}

func (b *blossom) augment(u, v int) {
	for {
		xnv := b.st[b.match[u]]
		b.setMatch(u, v)
		if xnv == 0 {
			return
		}
		b.setMatch(xnv, b.st[b.pa[xnv]])
		u, v = b.st[b.pa[xnv]], xnv
	}
}

func (b *blossom) lca(u, v int) int {
	b.visStamp++
	for u != 0 || v != 0 {
		if u != 0 {
			if b.vis[u] == b.visStamp {
				return u
			}
			b.vis[u] = b.visStamp
			u = b.st[b.match[u]]
			if u != 0 {
				u = b.st[b.pa[u]]
			}
		}
		u, v = v, u
	}
	return 0
}

func (b *blossom) addBlossom(u, lca, v int) {
	x := b.n + 1
	for x <= b.nx && b.st[x] != 0 {
		x++
	}
	if x > b.nx {
		b.nx++
	}
	b.lab[x], b.S[x] = 0, 0
	b.match[x] = b.match[lca]
	f := []int{lca}
	for y := u; y != lca; y = b.st[b.pa[b.st[b.match[y]]]] {
		z := b.st[b.match[y]]
		f = append(f, y, z)
		b.push(z)
	}
	for i, j := 1, len(f)-1; i < j; i, j = i+1, j-1 {
		f[i], f[j] = f[j], f[i]
	}
	for y := v; y != lca; y = b.st[b.pa[b.st[b.match[y]]]] {
		z := b.st[b.match[y]]
		f = append(f, y, z)
		b.push(z)
	}
	b.flower[x] = f
	b.setSt(x, x)
	for y := 1; y <= b.nx; y++ {
		b.g[x][y].w, b.g[y][x].w = 0, 0
	}
	clear(b.flowerFrom[x])
	for _, xs := range f {
		for y := 1; y <= b.nx; y++ {
			if b.g[x][y].w == 0 || b.delta(b.g[xs][y]) < b.delta(b.g[x][y]) {
				b.g[x][y], b.g[y][x] = b.g[xs][y], b.g[y][xs]
			}
		}
		for y := 1; y <= b.n; y++ {
			if b.flowerFrom[xs][y] != 0 {
				b.flowerFrom[x][y] = xs
			}
		}
	}
	b.setSlack(x)
}

// expand dissolves the inner blossom x whose dual reached 0.
func (b *blossom) expand(x int) {
	for _, y := range b.flower[x] {
		b.setSt(y, y)
	}
	xr := b.flowerFrom[x][b.g[x][b.pa[x]].u]
	pr := b.evenPos(x, xr)
	for i := 0; i < pr; i += 2 {
		xs, xns := b.flower[x][i], b.flower[x][i+1]
		b.pa[xs] = b.g[xns][xs].u
		b.S[xs], b.S[xns] = 1, 0
		b.slack[xs] = 0
		b.setSlack(xns)
		b.push(xns)
	}
	b.S[xr], b.pa[xr] = 1, b.pa[x]
	for _, xs := range b.flower[x][pr+1:] {
		b.S[xs] = -1
		b.setSlack(xs)
	}
	b.st[x] = 0
}

// found handles a tight edge from an outer blossom; true when it
// augmented the matching.
func (b *blossom) found(e bEdge) bool {
	u, v := b.st[e.u], b.st[e.v]
	switch b.S[v] {
	case -1:
		b.pa[v], b.S[v] = e.u, 1
		nu := b.st[b.match[v]]
		b.slack[v], b.slack[nu] = 0, 0
		b.S[nu] = 0
		b.push(nu)
	case 0:
		l := b.lca(u, v)
		if l == 0 {
			b.augment(u, v)
			b.augment(v, u)
			return true
		}
		b.addBlossom(u, l, v)
	}
	return false
}

// phase grows alternating trees from the free vertices until it
// augments the matching (true) or no augmentation gains weight.
func (b *blossom) phase() bool {
	for x := 1; x <= b.nx; x++ {
		b.S[x], b.slack[x] = -1, 0
	}
	b.queue = b.queue[:0]
	for x := 1; x <= b.nx; x++ {
		if b.st[x] == x && b.match[x] == 0 {
			b.pa[x], b.S[x] = 0, 0
			b.push(x)
		}
	}
	if len(b.queue) == 0 {
		return false
	}
	for {
		if b.scan() {
			return true
		}
		d, ok := b.step()
		if !ok {
			return false
		}
		b.adjust(d)
		b.queue = b.queue[:0]
		for x := 1; x <= b.nx; x++ {
			if b.st[x] == x && b.slack[x] != 0 && b.st[b.slack[x]] != x && b.delta(b.g[b.slack[x]][x]) == 0 {
				if b.found(b.g[b.slack[x]][x]) {
					return true
				}
			}
		}
		for x := b.n + 1; x <= b.nx; x++ {
			if b.st[x] == x && b.S[x] == 1 && b.lab[x] == 0 {
				b.expand(x)
			}
		}
	}
}

// scan follows the tight edges from the queued outer vertices.
func (b *blossom) scan() bool {
	for len(b.queue) > 0 {
		u := b.queue[0]
		b.queue = b.queue[1:]
		if b.S[b.st[u]] == 1 {
			continue
		}
		for v := 1; v <= b.n; v++ {
			if b.g[u][v].w > 0 && b.st[u] != b.st[v] {
				if b.delta(b.g[u][v]) == 0 {
					if b.found(b.g[u][v]) {
						return true
					}
				} else {
					b.updateSlack(u, b.st[v])
				}
			}
		}
	}
	return false
}

// step is the dual change that makes the next edge tight or blossom
// expandable; false when an outer vertex's dual would reach 0 first
// (the matching is of most weight).
func (b *blossom) step() (int, bool) {
	d := int(^uint(0) >> 1)
	for x := b.n + 1; x <= b.nx; x++ {
		if b.st[x] == x && b.S[x] == 1 {
			d = min(d, b.lab[x]/2)
		}
	}
	for x := 1; x <= b.nx; x++ {
		if b.st[x] == x && b.slack[x] != 0 {
			switch b.S[x] {
			case -1:
				d = min(d, b.delta(b.g[b.slack[x]][x]))
			case 0:
				d = min(d, b.delta(b.g[b.slack[x]][x])/2)
			}
		}
	}
	for u := 1; u <= b.n; u++ {
		if b.S[b.st[u]] == 0 && b.lab[u] <= d {
			return 0, false
		}
	}
	return d, true
}

func (b *blossom) adjust(d int) {
	for u := 1; u <= b.n; u++ {
		switch b.S[b.st[u]] {
		case 0:
			b.lab[u] -= d
		case 1:
			b.lab[u] += d
		}
	}
	for x := b.n + 1; x <= b.nx; x++ {
		if b.st[x] == x {
			switch b.S[x] {
			case 0:
				b.lab[x] += 2 * d
			case 1:
				b.lab[x] -= 2 * d
			}
		}
	}
}

func (b *blossom) solve() {
	for b.phase() {
	}
}
