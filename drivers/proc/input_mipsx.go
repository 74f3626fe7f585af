//go:build mips || mipsle

package proc

// nativeCalls is mips's (o32) call table.
var nativeCalls = &unix32Calls
