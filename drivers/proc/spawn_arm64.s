#include "textflag.h"

// func vforkSyscall(trap, a1, a2, a3 uintptr) (r1, err uintptr)
//
// A system call that may return twice on one stack (clone with CLONE_VM
// and CLONE_VFORK): a leaf without a frame, its return address in the
// link register, so the child's later use of the stack cannot harm the
// parent's return.
TEXT ·vforkSyscall(SB),NOSPLIT|NOFRAME,$0-48
	MOVD	a1+8(FP), R0
	MOVD	a2+16(FP), R1
	MOVD	a3+24(FP), R2
	MOVD	$0, R3
	MOVD	$0, R4
	MOVD	$0, R5
	MOVD	trap+0(FP), R8
	SVC
	CMN	$4095, R0
	BCC	ok
	MOVD	$-1, R4
	MOVD	R4, r1+32(FP)
	NEG	R0, R0
	MOVD	R0, err+40(FP)
	RET
ok:
	MOVD	R0, r1+32(FP)
	MOVD	ZR, err+40(FP)
	RET
