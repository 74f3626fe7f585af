package config

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/userfile"
)

// Variable is a `variable "name"` block with its final value.
type Variable struct {
	Name        string
	Description string
	Type        cty.Type
	Default     cty.Value
	Value       cty.Value
	// From says where Value came from when not from the default: "-var
	// NAME", "the environment variable ARBITER_VAR_NAME" or a -var-file.
	From      string
	DeclRange hcl.Range
}

var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "default"}, {Name: "type"}, {Name: "description"},
	},
}

// EnvPrefix is the prefix of environment variables that set variables.
const EnvPrefix = "ARBITER_VAR_"

func (l *loader) loadVariables() hcl.Diagnostics {
	var diags hcl.Diagnostics
	vars := map[string]*Variable{}
	l.cfg.Variables = vars
	for _, b := range l.blocks["variable"] {
		v, d := decodeVariableBlock(b)
		diags = append(diags, d...)
		if v == nil {
			continue
		}
		if first, ok := vars[v.Name]; ok {
			diags = append(diags, duplicate("variable", v.Name, first.DeclRange, v.DeclRange))
			continue
		}
		vars[v.Name] = v
	}

	// Lowest precedence first: environment, then files, then -var flags.
	environ := l.opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	for _, kv := range environ {
		k, val, _ := strings.Cut(kv, "=")
		name, ok := strings.CutPrefix(k, EnvPrefix)
		if !ok {
			continue
		}
		if v := vars[name]; v != nil {
			diags = append(diags, v.setRaw(val, "the environment variable "+k)...)
		}
	}
	// A -var-file that cannot be read or parsed may have set any
	// variable: one left without a value is then no mistake of its own.
	unread := false
	for _, path := range l.opts.VarFiles {
		d, ok := l.loadVarFile(path)
		diags = append(diags, d...)
		unread = unread || !ok
	}
	for _, arg := range l.opts.Vars {
		name, val, ok := strings.Cut(arg, "=")
		if !ok {
			diags = append(diags, errDiag("Invalid -var option",
				fmt.Sprintf("The option -var %q has no \"=\". Write -var name=value.", arg), nil))
			continue
		}
		v := vars[name]
		if v == nil {
			diags = append(diags, errDiag("Undeclared variable",
				fmt.Sprintf("-var sets %q, but no variable %q is declared. Declare it with a variable %q {} block, or fix the name (declared: %s).", name, name, name, declaredNames(vars)), nil))
			continue
		}
		diags = append(diags, v.setRaw(val, "-var "+name)...)
	}

	for _, v := range vars {
		if v.Value == cty.NilVal {
			if v.Default == cty.NilVal && unread {
				diags = append(diags, followOn(v.DeclRange.Ptr()))
				v.Value = cty.DynamicVal
				continue
			}
			if v.Default == cty.NilVal {
				diags = append(diags, errDiag("No value for required variable",
					fmt.Sprintf("Variable %q has no default. Set it with -var %s=VALUE, a -var-file, or the environment variable %s%s.", v.Name, v.Name, EnvPrefix, v.Name),
					v.DeclRange.Ptr()))
				v.Value = cty.DynamicVal
				continue
			}
			v.Value = v.Default
		}
	}
	return diags
}

func declaredNames[T any](m map[string]T) string {
	if len(m) == 0 {
		return "none"
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func decodeVariableBlock(b *hcl.Block) (*Variable, hcl.Diagnostics) {
	content, diags := b.Body.Content(variableSchema)
	v := &Variable{Name: b.Labels[0], Type: cty.DynamicPseudoType, DeclRange: b.DefRange}
	if attr, ok := content.Attributes["type"]; ok {
		t, d := typeexpr.TypeConstraint(attr.Expr)
		diags = append(diags, d...)
		if !d.HasErrors() {
			v.Type = t
		}
	}
	if attr, ok := content.Attributes["description"]; ok {
		val, d := attr.Expr.Value(nil)
		diags = append(diags, d...)
		if !d.HasErrors() && val.Type() == cty.String && val.IsKnown() && !val.IsNull() {
			v.Description = val.AsString()
		}
	}
	if attr, ok := content.Attributes["default"]; ok {
		// A default in error is there all the same: the variable is not
		// one without a default, and its uses follow from the error.
		v.Default = cty.DynamicVal
		val, d := attr.Expr.Value(nil)
		diags = append(diags, d...)
		if !d.HasErrors() {
			conv, err := convert.Convert(val, v.Type)
			if err != nil {
				diags = append(diags, errDiag("Invalid default value",
					fmt.Sprintf("The default of variable %q does not match its type: %v.", v.Name, err), attr.Expr.Range().Ptr()))
			} else {
				v.Default = conv
			}
		}
	}
	return v, diags
}

// setRaw sets the variable from a string given outside HCL (-var, the
// environment). A variable of type string, or of no type, takes it as it
// is, the way Terraform reads -var (where a number is needed, a string
// that is one is converted: see toNumber); any other type parses it as
// an HCL expression.
func (v *Variable) setRaw(raw, from string) hcl.Diagnostics {
	if v.Type == cty.String || v.Type == cty.DynamicPseudoType {
		return v.set(cty.StringVal(raw), from, nil)
	}
	expr, diags := hclsyntax.ParseExpression([]byte(raw), from, hcl.InitialPos)
	var val cty.Value
	if !diags.HasErrors() {
		val, diags = expr.Value(nil) // a word (abc) is a reference, which a value cannot hold
	}
	if !diags.HasErrors() {
		if conv, err := convert.Convert(val, v.Type); err == nil {
			v.Value, v.From = conv, from
			return nil
		}
	}
	v.Value = cty.DynamicVal // in error: not its default, and not missing
	hint := ""
	if !v.Type.IsPrimitiveType() {
		hint = ` Write it as HCL, like ["a", "b"] for a list or { k = "v" } for an object, quoted for the shell.`
	}
	return hcl.Diagnostics{errDiag("Invalid variable value",
		fmt.Sprintf("Variable %q needs %s, but %s gave %q, which is not one.%s", v.Name, typeWanted(v.Type), from, raw, hint), nil)}
}

func (v *Variable) set(val cty.Value, from string, rng *hcl.Range) hcl.Diagnostics {
	conv, err := convert.Convert(val, v.Type)
	if err != nil {
		v.Value = cty.DynamicVal // in error: not its default, and not missing
		return hcl.Diagnostics{errDiag("Invalid variable value",
			fmt.Sprintf("Variable %q needs %s, but %s gives %s: %v.", v.Name, typeWanted(v.Type), from, describe(val), err), rng)}
	}
	v.Value, v.From = conv, from
	return nil
}

// typeWanted names a value of type t, as what is needed: "a number".
func typeWanted(t cty.Type) string {
	switch t {
	case cty.Number:
		return "a number"
	case cty.Bool:
		return "true or false"
	case cty.String:
		return "a string"
	}
	return "a value of type " + typeexpr.TypeString(t)
}

// describe says what a value is, for messages: the string "abc", 2.5,
// true, a list of string.
func describe(v cty.Value) string {
	switch {
	case v.IsNull():
		return "null"
	case !v.IsWhollyKnown():
		return "a value not known"
	case v.Type() == cty.String:
		s := v.AsString()
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return fmt.Sprintf("the string %q", s)
	case v.Type() == cty.Number:
		return drivers.NumberText(v.AsBigFloat())
	case v.Type() == cty.Bool:
		return fmt.Sprint(v.True())
	}
	return v.Type().FriendlyName()
}

// toNumber is v as a number when it is a string that is one: a variable
// without a type set by -var or the environment is a string, and "3"
// serves where a number is needed, as HCL's own arithmetic takes it.
// Anything else is v itself.
func toNumber(v cty.Value) cty.Value {
	if v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		if n, err := convert.Convert(v, cty.Number); err == nil {
			return n
		}
	}
	return v
}

// toBool is v as a bool when it is the string "true" or "false" (see
// toNumber), else v.
func toBool(v cty.Value) cty.Value {
	if v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		if s := v.AsString(); s == "true" || s == "false" {
			return cty.BoolVal(s == "true")
		}
	}
	return v
}

// explainVars adds to each error about an attribute of bodies where the
// variables it uses got their values, when not from the files shown
// (-var, the environment) or not from the line shown (a -var-file): "var.n
// is the string "abc", from -var n".
func (l *loader) explainVars(diags hcl.Diagnostics, bodies []hcl.Body) {
	exprs := map[hcl.Range]hcl.Expression{}
	var walk func(b *hclsyntax.Body)
	walk = func(b *hclsyntax.Body) {
		for _, a := range b.Attributes {
			exprs[a.Expr.Range()] = a.Expr
		}
		for _, nb := range b.Blocks {
			walk(nb.Body)
		}
	}
	for _, b := range bodies {
		if sb, ok := b.(*hclsyntax.Body); ok {
			walk(sb)
		}
	}
	for _, d := range diags {
		if d.Severity != hcl.DiagError || d.Subject == nil || exprs[*d.Subject] == nil {
			continue
		}
		var notes []string
		for _, tr := range exprs[*d.Subject].Variables() {
			name, _, ok := attrStep(tr, 1)
			if tr.RootName() != "var" || !ok {
				continue
			}
			if v := l.cfg.Variables[name]; v != nil && v.From != "" && v.Value.IsWhollyKnown() {
				notes = append(notes, fmt.Sprintf("var.%s is %s, from %s", name, describe(v.Value), v.From))
			}
		}
		if len(notes) > 0 {
			d.Detail = strings.TrimSuffix(d.Detail, ".") + ". " + strings.Join(notes, "; ") + "."
		}
	}
}

// loadVarFile sets the variables a -var-file gives; ok is false when the
// file could not be read or parsed, so that what it sets is not known.
func (l *loader) loadVarFile(path string) (diags hcl.Diagnostics, ok bool) {
	src, err := userfile.ReadFile(path)
	if err != nil {
		return hcl.Diagnostics{errDiag("Cannot read variables file", fmt.Sprintf("%v. Check the -var-file path.", err), nil)}, false
	}
	if d := EncodingProblem(src, path); d != nil {
		return hcl.Diagnostics{d}, false
	}
	f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	// Before any error: its message shows the line it is on.
	l.cfg.Files[path] = f
	if diags.HasErrors() {
		return diags, false
	}
	attrs, diags := f.Body.JustAttributes()
	if diags.HasErrors() {
		return diags, false
	}
	for name, attr := range attrs {
		v := l.cfg.Variables[name]
		if v == nil {
			diags = append(diags, errDiag("Undeclared variable",
				fmt.Sprintf("%s sets %q, but no variable %q is declared (declared: %s).", path, name, name, declaredNames(l.cfg.Variables)), attr.NameRange.Ptr()))
			continue
		}
		val, d := attr.Expr.Value(nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			v.Value = cty.DynamicVal // in error: not its default, and not missing
			continue
		}
		diags = append(diags, v.set(val, path, attr.Expr.Range().Ptr())...)
	}
	return diags, true
}
