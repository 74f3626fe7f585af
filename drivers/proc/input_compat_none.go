//go:build !amd64 && !arm64

package proc

// Here no 32-bit process runs in another numbering than nativeCalls'
// (callsOf): the 32-bit architectures' own, and the 64-bit ones whose
// compat ABIs arbiter does not tell apart (mips64's o32 and n32, ppc64's
// ppc, s390x's 31-bit).
var compatCalls *callTable

const compatMachine = 0
