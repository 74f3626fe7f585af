package config

import (
	"bytes"
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// EncodingProblem is the one error of a configuration file (its .hcl
// files, a -var-file) that is not UTF-8 text at all, named name, or nil.
// HCL reads such a file as UTF-8 and reports every character it cannot
// read (a UTF-16 file of 450 characters gave 346 errors, none of which
// said what was wrong), so the file is refused whole before it is parsed.
// A few bytes that are not UTF-8 in a UTF-8 file (a Latin-1 "é") are left
// to HCL, whose errors point at each of them.
func EncodingProblem(src []byte, name string) *hcl.Diagnostic {
	enc, from := "", ""
	switch {
	case bytes.HasPrefix(src, []byte{0xff, 0xfe, 0, 0}) || bytes.HasPrefix(src, []byte{0, 0, 0xfe, 0xff}):
		enc, from = "UTF-32 (it starts with a UTF-32 byte order mark)", "UTF-32"
	case bytes.HasPrefix(src, []byte{0xff, 0xfe}) || bytes.HasPrefix(src, []byte{0xfe, 0xff}):
		enc, from = "UTF-16 (it starts with a UTF-16 byte order mark)", "UTF-16"
	case bytes.IndexByte(src, 0) >= 0 && utf16Like(src):
		enc, from = "UTF-16 (every other byte of its start is a NUL byte)", "UTF-16"
	case bytes.IndexByte(src, 0) >= 0:
		return errDiag("File is not UTF-8",
			fmt.Sprintf("%s holds NUL bytes, so it is not a text file; arbiter reads configuration files as UTF-8 text. Check that this is the file meant.", name), nil)
	default:
		return nil
	}
	return errDiag("File is not UTF-8",
		fmt.Sprintf("%s is %s, not UTF-8; arbiter reads configuration files as UTF-8. Save it as UTF-8 (the editor's encoding setting, or iconv -f %s -t UTF-8).", name, enc, from), nil)
}

// utf16Like reports whether the start of src is ASCII written as UTF-16
// without a byte order mark: a NUL byte at every even or every odd place.
func utf16Like(src []byte) bool {
	n := min(len(src), 64) &^ 1
	if n == 0 {
		return false
	}
	even, odd := true, true
	for i := 0; i < n; i += 2 {
		even = even && src[i] == 0 && src[i+1] != 0
		odd = odd && src[i+1] == 0 && src[i] != 0
	}
	return even || odd
}
