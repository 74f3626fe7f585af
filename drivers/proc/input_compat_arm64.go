package proc

// An arm process (ELF machine EM_ARM) calls in arm's numbering.
var compatCalls = &armCalls

const compatMachine = 40
