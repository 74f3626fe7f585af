#include "textflag.h"

// func vforkSyscall(trap, a1, a2, a3 uintptr) (r1, err uintptr)
//
// A system call that may return twice on one stack: clone with CLONE_VM
// and CLONE_VFORK. The child returns first and goes on using the stack
// below its caller's frame, overwriting what was there, this function's
// return address included; so the return address is kept in a register
// (callee-saved in both processes, which have their own registers) from
// before the call until after it, in the parent as in the child.
TEXT ·vforkSyscall(SB),NOSPLIT|NOFRAME,$0-48
	MOVQ	a1+8(FP), DI
	MOVQ	a2+16(FP), SI
	MOVQ	a3+24(FP), DX
	MOVQ	$0, R10
	MOVQ	$0, R8
	MOVQ	$0, R9
	MOVQ	trap+0(FP), AX
	POPQ	R12
	SYSCALL
	PUSHQ	R12
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$-1, r1+32(FP)
	NEGQ	AX
	MOVQ	AX, err+40(FP)
	RET
ok:
	MOVQ	AX, r1+32(FP)
	MOVQ	$0, err+40(FP)
	RET
