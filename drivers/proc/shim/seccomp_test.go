package shim

import (
	"encoding/binary"
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

// runFilter is what the kernel's seccomp does with filter for a call of
// number nr with args, on this build's architecture: the value it
// returns, from the instructions SeccompFilter writes.
func runFilter(t *testing.T, filter []unix.SockFilter, nr uint32, args ...uint64) uint32 {
	t.Helper()
	var data [64]byte // struct seccomp_data: nr, arch, instruction_pointer, args[6]
	binary.NativeEndian.PutUint32(data[0:], nr)
	binary.NativeEndian.PutUint32(data[4:], SeccompArch)
	for i, a := range args {
		binary.NativeEndian.PutUint64(data[16+8*i:], a)
	}
	var acc uint32
	for pc := 0; pc < len(filter); pc++ {
		in := filter[pc]
		switch in.Code {
		case ldW:
			acc = binary.NativeEndian.Uint32(data[in.K:])
		case jeq, jge, jset:
			taken := acc == in.K
			if in.Code == jge {
				taken = acc >= in.K
			} else if in.Code == jset {
				taken = acc&in.K != 0
			}
			if taken {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case ret:
			return in.K
		default:
			t.Fatalf("instruction %d: code %#x that runFilter does not know", pc, in.Code)
		}
	}
	t.Fatal("the filter ends without returning")
	return 0
}

// TestSeccompFilterKernelLog: the sandbox's filter refuses syslog (the
// kernel log, which dmesg reads) with EPERM, where the kernel lets any
// uid read it when kernel.dmesg_restrict is 0. A sandboxed bot's call
// (TestHostileSandbox/reading_the_kernel_log) cannot tell the filter from
// a machine whose dmesg_restrict is 1, so the filter itself is run here,
// without touching the machine's setting.
func TestSeccompFilterKernelLog(t *testing.T) {
	if SeccompArch == 0 {
		t.Skip("no filter for this architecture")
	}
	const readAll, sizeBuffer = 3, 10 // SYSLOG_ACTION_*
	for _, c := range []struct {
		sandbox bool
		action  uint64
		want    uint32
	}{
		{true, readAll, eperm},
		{true, sizeBuffer, eperm},
		{false, readAll, ok}, // only the sandbox refuses it
	} {
		name := fmt.Sprintf("sandbox %v, action %d", c.sandbox, c.action)
		if got := runFilter(t, SeccompFilter(true, true, c.sandbox), unix.SYS_SYSLOG, c.action); got != c.want {
			t.Errorf("%s: syslog returns %#x, want %#x", name, got, c.want)
		}
	}
	if got := runFilter(t, SeccompFilter(true, true, true), unix.SYS_GETPID); got != ok {
		t.Errorf("getpid returns %#x, want it allowed (%#x)", got, uint32(ok))
	}
}
