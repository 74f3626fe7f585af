// Package rating computes Bayesian Elo ratings from pairwise game results.
//
// It is a Go reimplementation of Rémi Coulom's bayeselo (version 0057)
// and reproduces its printed output digit for digit for the command
// sequences
//
//	readpgn f / elo / [advantage a] / mm / exactdist / ratings
//	readpgn f / elo / [advantage a] / mm / covariance / ratings
//	readpgn f / elo / [advantage a] / mm / covariance / los
//
// The arbiter uses it to rank bots from the results of matches: a
// multi-player match is reduced to pairwise games beforehand, and seatless
// games are rated with Advantage 0.
//
// # Model
//
// With g_i = 10^(r_i/400), tW = 10^(Advantage/400) and tD = 10^(DrawElo/400),
// a game between White i and Black j ends
//
//	White wins:  tW·g_i / (tW·g_i + tD·g_j)
//	Black wins:  g_j / (tD·tW·g_i + g_j)
//	draw:        the rest.
//
// The prior adds Prior virtual draws per player, split over its opponents
// in proportion to the games played against each, half of them with each
// colour; it keeps the ratings of players with only wins (or only losses)
// finite.
//
// # Fit and intervals
//
// Fit maximises the posterior with bayeselo's minorization-maximization
// iteration (Gauss-Seidel sweeps over the players, from the last to the
// first, until every gamma satisfies |g'-g|/(g'+g) < 1e-5, at most 10000
// sweeps), then shifts the ratings so that their plain average over the
// players with games is 0 (bayeselo's offset, whose default is 0).
//
// ExactDist computes, for each player, the posterior of its rating with the
// other ratings held fixed (up to the shift that keeps the average at 0) on
// bayeselo's grid of 1001 points over [-1500, 1500], and reports the
// distances from the rating to the bounds of the central Confidence
// interval. Covariance inverts the Hessian of the log-posterior restricted
// to zero-average ratings; CovarianceIntervals and LOS derive from it under
// a normal approximation.
//
// As bayeselo does after mm, every reported Elo quantity (ratings,
// intervals, opponent averages, covariance) is multiplied by
// Scale = 4x/(1+x)^2 with x = 10^(-DrawElo/400), the slope of the expected
// score at equal strength, so that the numbers are comparable with
// draw-free Elo. LOS is scale free.
//
// # Head to head
//
// WDL.Estimate, Penta.Estimate and SPRT compare two bots without a fit,
// with the formulas of fastchess (elo_wdl.cpp, elo_pentanomial.cpp,
// sprt.cpp; each function names the one it implements): logistic and
// normalised Elo with 95% errors, LOS, and the generalised SPRT
// log-likelihood ratio with Wald's bounds, for games counted one by one
// or in duplicate-deal pairs.
//
// Players without games are left out of the fit (as after bayeselo's
// `pack`): they get Elo 0, infinite intervals and variance, and are not
// printed.
package rating
