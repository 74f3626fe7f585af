package rating

// exactLLR are LLRs computed by testdata/sprt_check.py, an independent
// high-precision solution of the equations fastchess's SPRT solves; the
// output of the script is pasted here.
var exactLLR = []struct {
	sprt  SPRT
	wdl   *WDL
	penta *Penta
	want  float64
	rel   float64
}{
	{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, &WDL{W: 76, D: 123, L: 89}, nil, -0.276965, 1e-3},
	{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "logistic"}, &WDL{W: 76, D: 123, L: 89}, nil, -0.378419, 1e-3},
	{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, &WDL{W: 136, D: 111, L: 96}, nil, 1.258039, 1e-3},
	{SPRT{Elo0: -5, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "logistic"}, &WDL{W: 30, D: 0, L: 10}, nil, 0.575661, 1e-3},
	{SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, &WDL{W: 120, D: 30, L: 50}, nil, 4.039691, 1e-3},
	{SPRT{Elo0: 0, Elo1: 250, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, &WDL{W: 139, D: 7, L: 54}, nil, 16.122692, 1e-3},
	{SPRT{Elo0: 0, Elo1: 1000, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, &WDL{W: 139, D: 7, L: 54}, nil, -72.137774, 1e-3},
	{SPRT{Elo0: -1000, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, &WDL{W: 10, D: 2, L: 8}, nil, 27.123884, 1e-3},
	{SPRT{Elo0: 0, Elo1: 400, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, &WDL{W: 1, D: 0, L: 0}, nil, 0.561285, 1e-3},
	{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, nil, &Penta{LL: 3, LD: 20, WL: 40, DD: 30, WD: 25, WW: 6}, 0.252336, 1e-3},
	{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "logistic"}, nil, &Penta{LL: 3, LD: 20, WL: 40, DD: 30, WD: 25, WW: 6}, 0.409798, 1e-3},
	{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: "normalized"}, nil, &Penta{LL: 34, LD: 54, WL: 31, DD: 32, WD: 64, WW: 75}, 2.483695, 1e-3},
	{SPRT{Elo0: -10, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: "logistic"}, nil, &Penta{LL: 0, LD: 5, WL: 10, DD: 0, WD: 12, WW: 20}, 2.705293, 1e-3},
}
