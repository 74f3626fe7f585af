package proc

// nativeCalls is 386's call table.
var nativeCalls = &i386Calls
