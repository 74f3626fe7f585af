package stats

import "math"

// tQuantile is the p-quantile of Student's t distribution with df degrees
// of freedom, found by bisection on its distribution function. Mean
// placements are averaged over a few dozen matches, where the normal
// quantile (1.96) would make the interval too narrow.
func tQuantile(p float64, df int) float64 {
	if df < 1 {
		return math.NaN()
	}
	lo, hi := 0.0, 1e6
	for range 200 {
		mid := (lo + hi) / 2
		if tCDF(mid, float64(df)) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tCDF is P(T ≤ t) for t ≥ 0: 1 - I_x(df/2, 1/2)/2 with x = df/(df+t²).
func tCDF(t, df float64) float64 {
	return 1 - betaInc(df/2, 0.5, df/(df+t*t))/2
}

// betaInc is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (modified Lentz), using the symmetry
// I_x(a,b) = 1 - I_{1-x}(b,a) where the fraction converges slowly.
func betaInc(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log(1-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaFraction(b, a, 1-x)/b
	}
	return front * betaFraction(a, b, x) / a
}

func betaFraction(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	f := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		for _, num := range []float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			f *= d * c
		}
		if math.Abs(d*c-1) < 1e-15 {
			break
		}
	}
	return f
}
