package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// object is a JSON object that keeps its keys in the order they were
// written, which is the order of the fields of the Go type that wrote
// it: a plan's settings are shown, and its differences listed, in the
// order the plan file has them, never in a map's.
type object struct {
	keys []string
	vals map[string]any
}

// tree decodes JSON into nil, bool, json.Number, string, []any and
// *object values.
func tree(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return treeValue(dec)
}

func treeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := &object{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := treeValue(dec)
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			if _, dup := o.vals[key]; !dup {
				o.keys = append(o.keys, key)
			}
			o.vals[key] = v
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := treeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return t, nil
}

// Text is a JSON value in a few words: objects as {key value, …}, arrays
// as [a, b], strings bare unless they need quotes to be read back.
func Text(raw json.RawMessage) string {
	v, err := tree(raw)
	if err != nil {
		return string(raw)
	}
	return text(v)
}

// TextFields is a JSON object's fields, in the order they were written,
// each as its key and the Text of its value; a value that is not an
// object is one field with an empty key.
func TextFields(raw json.RawMessage) (keys, values []string) {
	v, err := tree(raw)
	if err != nil {
		return []string{""}, []string{string(raw)}
	}
	o, ok := v.(*object)
	if !ok {
		return []string{""}, []string{text(v)}
	}
	for _, k := range o.keys {
		keys, values = append(keys, bareOrQuoted(k)), append(values, text(o.vals[k]))
	}
	return keys, values
}

func text(v any) string {
	var b strings.Builder
	writeText(&b, v)
	return b.String()
}

func writeText(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(bareOrQuoted(v))
	case json.Number:
		b.WriteString(v.String())
	case bool:
		fmt.Fprint(b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeText(b, e)
		}
		b.WriteByte(']')
	case *object:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(bareOrQuoted(k))
			b.WriteByte(' ')
			writeText(b, v.vals[k])
		}
		b.WriteByte('}')
	}
}

// bareOrQuoted is s as it is when that reads as one word, else quoted.
func bareOrQuoted(s string) string {
	if s == "" || s == "null" || s == "true" || s == "false" || strings.ContainsAny(s, " ,[]{}\"\\\t\n→…") {
		return fmt.Sprintf("%q", s)
	}
	for _, r := range s {
		if r < ' ' || r == utf8.RuneError {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}

// clipText is s cut to n runes with an ellipsis.
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
