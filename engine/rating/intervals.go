package rating

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// grid is bayeselo's discretisation of an interval into size cells, each
// represented by its midpoint.
type grid struct {
	size     int
	min, max float64
}

func (g grid) value(i int) float64 {
	return g.min + ((float64(i)+0.5)*(g.max-g.min))/float64(g.size)
}

// bound integrates the density dist with the trapezoid rule from one end
// (begin, stepping dir) and interpolates linearly where the tail mass
// reaches (1-conf)/2. It starts half a cell outside the grid, as bayeselo
// does, so a density concentrated on the first cell still gets a bound.
func (g grid) bound(dist []float64, conf float64, begin, end, dir int) float64 {
	threshold := (1 - conf) / 2
	p, prev := 0.0, 0.0
	for i := begin; i != end; i += dir {
		cur := dist[i]
		np := p + (prev+cur)/2
		if np >= threshold {
			v, nv := g.value(i-dir), g.value(i)
			return v + (nv-v)*(threshold-p)/(np-p)
		}
		p, prev = np, cur
	}
	return g.value(end - dir)
}

func (g grid) lower(dist []float64, conf float64) float64 {
	return g.bound(dist, conf, 0, len(dist), +1)
}

func (g grid) upper(dist []float64, conf float64) float64 {
	return g.bound(dist, conf, len(dist)-1, -1, -1)
}

func normalize(dist []float64) {
	total := 0.0
	for i := len(dist) - 1; i >= 0; i-- {
		total += dist[i]
	}
	if total > 0 {
		for i := range dist {
			dist[i] /= total
		}
	}
}

// logNormalize turns log-likelihoods into probabilities, subtracting the
// maximum first so that exp does not underflow.
func logNormalize(dist []float64) {
	top := dist[0]
	for i := len(dist) - 1; i > 0; i-- {
		top = max(top, dist[i])
	}
	for i := range dist {
		dist[i] = math.Exp(dist[i] - top)
	}
	normalize(dist)
}

// normInv is the upper bound of the central conf interval of the standard
// normal. It is computed, like in bayeselo, on a 1000-cell grid rather than
// exactly (1.95996… becomes 1.95999… for 0.95): the printed covariance
// intervals depend on it.
func normInv(conf float64) float64 {
	g := grid{1000, -10, 10}
	dist := make([]float64, g.size)
	// Cell 0 stays 0 as in bayeselo; its density is negligible anyway.
	for i := g.size - 1; i > 0; i-- {
		x := g.value(i)
		dist[i] = math.Exp(-0.5 * x * x)
	}
	normalize(dist)
	return g.upper(dist, conf)
}

// exactGrid is bayeselo's default resolution, minelo and maxelo.
var exactGrid = grid{1001, -1500, 1500}

// ExactDist returns bayeselo's `exactdist` intervals: for each player, the
// distance from its rating up to (plus) and down to (minus) the bounds of
// the central Confidence interval of its posterior, the other players'
// ratings being taken as exact. While the player's rating moves, the others
// move the opposite way by a share of 1/(n-1), which keeps the average
// rating at 0 as the fit does. Unrated players get +Inf. A player whose
// posterior reaches the edge of the grid (exactGrid: ±1500 before
// scaling; extreme options or a small file) gets NaN: bayeselo prints the
// distances to the grid's edge there, cut short or negative, with the
// rating outside its own interval.
func (r *Ratings) ExactDist() (plus, minus []float64) {
	plus, minus = infs(len(r.Names)), infs(len(r.Names))
	n := len(r.orig)
	// Each player's distribution is computed on its own, so the players
	// are shared out between the cores; the figures do not depend on how.
	var next atomic.Int64
	next.Store(int64(n))
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dist := make([]float64, exactGrid.size)
			for k := int(next.Add(-1)); k >= 0; k = int(next.Add(-1)) {
				r.exactDist(k, dist, plus, minus)
			}
		}()
	}
	wg.Wait()
	return plus, minus
}

// exactDist is ExactDist for player k, with dist as scratch space.
//
// The log-likelihood is concave in the player's rating (every term is the
// log of a logistic or of a difference of two, both log-concave), so it
// falls away from its maximum on both sides. The grid is evaluated from
// the player's rating outwards, and once a point is exactLogCut below the
// highest seen, the points beyond it are left at -Inf: their weight after
// normalising, below e^-exactLogCut each, is far under a double's
// rounding of the total, so the bounds come out as if they had been
// computed, and only the points that matter are (a tenth of the grid or
// less for a player with a few thousand games).
func (r *Ratings) exactDist(k int, dist, plus, minus []float64) {
	n := len(r.orig)
	g := exactGrid
	base := r.raw[k]
	eval := func(i int) float64 {
		v := g.value(i)
		shift := 0.0
		if n > 1 {
			shift = (v - base) / float64(n-1)
		}
		return r.m.logLikelihood(k, v, func(o int) float64 { return r.raw[o] - shift })
	}
	top := math.Inf(-1)
	start := min(max(int((base-g.min)/(g.max-g.min)*float64(g.size)), 0), g.size-1)
	for _, dir := range []int{+1, -1} {
		i := start
		if dir < 0 {
			i--
		}
		for ; i >= 0 && i < g.size; i += dir {
			dist[i] = eval(i)
			top = max(top, dist[i])
			if dist[i] < top-exactLogCut {
				break
			}
		}
		for i += dir; i >= 0 && i < g.size; i += dir {
			dist[i] = math.Inf(-1)
		}
	}
	logNormalize(dist)
	i := r.orig[k]
	lo, hi := g.lower(dist, r.Options.Confidence), g.upper(dist, r.Options.Confidence)
	tail := exactTailShare * (1 - r.Options.Confidence) / 2
	if first, last := g.value(0), g.value(g.size-1); base <= first || base >= last || lo <= first || hi >= last ||
		beyond(dist[0], dist[1]) > tail || beyond(dist[g.size-1], dist[g.size-2]) > tail {
		minus[i], plus[i] = math.NaN(), math.NaN()
		return
	}
	minus[i] = r.Scale * (base - lo)
	plus[i] = r.Scale * (hi - base)
}

// exactTailShare is the largest share of an interval's tail probability
// that may lie past the grid's end for exactDist's bounds to be given:
// more, and the posterior runs on past the grid (a player who won every
// game, with a small prior or a large advantage), so that the bound
// bayeselo prints is the grid's, not the player's.
const exactTailShare = 0.01

// beyond estimates the probability past the grid's end from its outer
// cell and the one inside it, as a geometric tail (the log-likelihood is
// concave, so the tail falls at least that fast).
func beyond(edge, inner float64) float64 {
	switch {
	case edge <= 0:
		return 0
	case inner <= edge:
		return math.Inf(1)
	}
	q := edge / inner
	return edge * q / (1 - q)
}

// exactLogCut is how far below its maximum a player's log-likelihood may
// fall before exactDist stops evaluating it (e^-80 ≈ 1.8e-35).
const exactLogCut = 80

func infs(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Inf(1)
	}
	return v
}

// rawCovariance returns the covariance of the unscaled ratings of the
// fitted players, computed once.
func (r *Ratings) rawCovariance() [][]float64 {
	r.covOnce.Do(func() { r.cov = r.m.covariance(r.raw) })
	return r.cov
}

// Covariance returns the covariance matrix of the ratings in Elo², indexed
// like Names. Unrated players have infinite variance and no covariance.
//
// Ratings in different connected components of the game graph can be
// shifted against each other freely, so their joint covariance is
// infinite (bayeselo prints nan). Instead each component gets the
// covariance it would have if rated alone, and components do not covary.
func (r *Ratings) Covariance() [][]float64 {
	raw := r.rawCovariance()
	c := make([][]float64, len(r.Names))
	for i := range c {
		c[i] = make([]float64, len(r.Names))
		if r.fit[i] < 0 {
			c[i][i] = math.Inf(1)
		}
	}
	s2 := r.Scale * r.Scale
	for a, i := range r.orig {
		for b, j := range r.orig {
			c[i][j] = s2 * raw[a][b]
		}
	}
	return c
}

// Variance is the variance of player i's rating in Elo² (+Inf when the
// player has no games): the uncertainty a pairing rule may want to reduce.
func (r *Ratings) Variance(i int) float64 {
	k := r.fit[i]
	if k < 0 {
		return math.Inf(1)
	}
	return r.Scale * r.Scale * r.rawCovariance()[k][k]
}

// CovarianceIntervals returns bayeselo's `covariance` intervals, symmetric
// normal-approximation bounds at the Confidence level. Unrated players get
// +Inf.
func (r *Ratings) CovarianceIntervals() (plus, minus []float64) {
	plus, minus = infs(len(r.Names)), infs(len(r.Names))
	raw := r.rawCovariance()
	x := normInv(r.Options.Confidence)
	for k, i := range r.orig {
		plus[i] = r.Scale * (x * math.Sqrt(raw[k][k]))
		minus[i] = plus[i]
	}
	return plus, minus
}

// LOS returns the likelihood of superiority: LOS[i][j] is the probability
// that player i is stronger than player j under the normal approximation
// of the posterior. It is 0 on the diagonal and 0.5 where nothing links
// the two players (no games, or different components).
func (r *Ratings) LOS() [][]float64 {
	raw := r.rawCovariance()
	comp := r.m.components()
	los := make([][]float64, len(r.Names))
	for i := range los {
		los[i] = make([]float64, len(r.Names))
		for j := range los[i] {
			if i != j {
				los[i][j] = 0.5
			}
		}
	}
	for a := len(r.orig) - 1; a > 0; a-- {
		for b := a - 1; b >= 0; b-- {
			if comp[a] != comp[b] {
				continue
			}
			sigma2 := raw[a][a] + raw[b][b] - raw[a][b] - raw[b][a]
			x := (r.raw[b] - r.raw[a]) / math.Sqrt(2*sigma2)
			i, j := r.orig[a], r.orig[b]
			los[i][j] = math.Erfc(x) / 2
			los[j][i] = math.Erfc(-x) / 2
		}
	}
	return los
}

// components labels each fitted player with the smallest player index of
// its connected component of the game graph.
func (m *model) components() []int {
	label := make([]int, m.players())
	for i := range label {
		label[i] = -1
	}
	for start := range label {
		if label[start] >= 0 {
			continue
		}
		label[start] = start
		stack := []int{start}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, rec := range m.recs[p] {
				if label[rec.opp] < 0 {
					label[rec.opp] = start
					stack = append(stack, rec.opp)
				}
			}
		}
	}
	return label
}

// covariance computes bayeselo's covariance of the ratings, component by
// component (see Ratings.Covariance).
func (m *model) covariance(elo []float64) [][]float64 {
	n := m.players()
	cov := make([][]float64, n)
	for i := range cov {
		cov[i] = make([]float64, n)
	}
	members := map[int][]int{}
	for p, c := range m.components() {
		members[c] = append(members[c], p)
	}
	for _, ps := range members {
		sub := m.componentCovariance(ps, elo)
		for a, i := range ps {
			for b, j := range ps {
				cov[i][j] = sub[a][b]
			}
		}
	}
	return cov
}

// componentCovariance is bayeselo's ComputeCovariance for the players ps
// (increasing, closed under opponents).
//
// The ratings are only defined up to a common shift, so the Hessian H of
// the log-posterior is singular. bayeselo fixes the last player's rating,
// inverts the opposite of the remaining (n-1)×(n-1) block, and maps the
// result back to zero-average ratings with A = I - 1/n (its last column
// dropped): Cov = A (-H')⁻¹ Aᵀ.
func (m *model) componentCovariance(ps []int, elo []float64) [][]float64 {
	n := len(ps)
	local := make(map[int]int, n)
	for a, p := range ps {
		local[p] = a
	}
	tW, tD := m.thetas()
	gamma := make([]float64, n)
	for a, p := range ps {
		gamma[a] = math.Pow(10, elo[p]/400)
	}

	// Second derivatives are taken in gamma space and converted to Elo
	// with x² for d(ln g)/d(elo) = ln(10)/400.
	x := math.Ln10 / 400
	xx := -x * x
	h := newMatrix(n-1, n-1)
	for a := n - 2; a >= 0; a-- {
		recs := m.recs[ps[a]]
		gp := gamma[a]
		diag := 0.0
		for k := len(recs) - 1; k >= 0; k-- {
			r := &recs[k]
			b := local[r.opp]
			og := gamma[b]
			s := 0.0
			d := tW*gp + tD*og
			s += float64(r.whiteWin+r.whiteDraw) / (d * d)
			d = tD*tW*gp + og
			s += float64(r.whiteLoss+r.whiteDraw) / (d * d)
			d = tW*og + tD*gp
			s += float64(r.blackLoss+r.blackDraw) / (d * d)
			d = tD*tW*og + gp
			s += float64(r.blackWin+r.blackDraw) / (d * d)
			s *= gp * og * tD * tW
			diag -= s
			if b != n-1 {
				h[a][b] = s * xx
			}
		}
		h[a][a] = diag * xx
	}

	perm := luDecompose(h)

	proj := newMatrix(n, n-1)
	for i := range proj {
		for k := range proj[i] {
			proj[i][k] = -1.0 / float64(n)
			if k == i {
				proj[i][k] = 1 - 1.0/float64(n)
			}
		}
	}
	ac := newMatrix(n, n-1)
	for i := n - 1; i >= 0; i-- {
		luSolve(h, perm, proj[i], ac[i])
	}

	cov := newMatrix(n, n)
	for i := n - 1; i >= 0; i-- {
		for j := n - 1; j >= 0; j-- {
			s := 0.0
			for k := n - 2; k >= 0; k-- {
				s += ac[i][k] * proj[j][k]
			}
			cov[i][j] = s
		}
	}
	return cov
}

func newMatrix(rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
	}
	return m
}

// luDecompose factors a in place into L·U (Crout, unit-diagonal L, partial
// pivoting scaled by each row's largest element) and returns the row
// permutation: row i of the factors is row perm[i] of the input.
func luDecompose(a [][]float64) []int {
	n := len(a)
	perm := make([]int, n)
	scale := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		perm[i] = i
		big := 0.0
		for j := n - 1; j >= 0; j-- {
			big = max(big, math.Abs(a[i][j]))
		}
		scale[i] = 1 / big
	}
	for j := range n {
		for i := range j {
			s := a[i][j]
			for k := range i {
				s -= a[i][k] * a[k][j]
			}
			a[i][j] = s
		}
		pivot, big := j, 0.0
		for i := j; i < n; i++ {
			s := a[i][j]
			for k := range j {
				s -= a[i][k] * a[k][j]
			}
			a[i][j] = s
			if v := scale[i] * math.Abs(s); v > big {
				pivot, big = i, v
			}
		}
		if pivot != j {
			a[pivot], a[j] = a[j], a[pivot]
			scale[pivot] = scale[j]
			perm[j], perm[pivot] = perm[pivot], perm[j]
		}
		inv := 1 / a[j][j]
		for i := j + 1; i < n; i++ {
			a[i][j] *= inv
		}
	}
	return perm
}

// luSolve solves a·x = b given luDecompose's factors of a.
func luSolve(lu [][]float64, perm []int, b, x []float64) {
	n := len(lu)
	for i := range n {
		s := b[perm[i]]
		for j := range i {
			s -= lu[i][j] * x[j]
		}
		x[i] = s
	}
	for i := n - 1; i >= 0; i-- {
		s := x[i]
		for j := i + 1; j < n; j++ {
			s -= lu[i][j] * x[j]
		}
		x[i] = s / lu[i][i]
	}
}
