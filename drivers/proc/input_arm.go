package proc

// nativeCalls is arm's call table.
var nativeCalls = &armCalls
