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

	"github.com/arbiter-contests/arbiter/internal/userfile"
)

// Variable is a `variable "name"` block with its final value.
type Variable struct {
	Name        string
	Description string
	Type        cty.Type
	Default     cty.Value
	Value       cty.Value
	DeclRange   hcl.Range
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
			diags = append(diags, v.setRaw(val, "environment variable "+k)...)
		}
	}
	for _, path := range l.opts.VarFiles {
		diags = append(diags, l.loadVarFile(path)...)
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

// setRaw sets the variable from a string given outside HCL. A string
// variable takes it as it is; any other type parses it as an HCL
// expression, the way Terraform reads -var.
func (v *Variable) setRaw(raw, from string) hcl.Diagnostics {
	var val cty.Value
	if v.Type == cty.String || v.Type == cty.DynamicPseudoType {
		val = cty.StringVal(raw)
	} else {
		expr, diags := hclsyntax.ParseExpression([]byte(raw), from, hcl.InitialPos)
		if diags.HasErrors() {
			return hcl.Diagnostics{errDiag("Invalid variable value",
				fmt.Sprintf("The value of %s (%q) is not a valid expression for type %s.", from, raw, v.Type.FriendlyName()), nil)}
		}
		var d hcl.Diagnostics
		val, d = expr.Value(nil)
		if d.HasErrors() {
			return d
		}
	}
	return v.set(val, from, nil)
}

func (v *Variable) set(val cty.Value, from string, rng *hcl.Range) hcl.Diagnostics {
	conv, err := convert.Convert(val, v.Type)
	if err != nil {
		return hcl.Diagnostics{errDiag("Invalid variable value",
			fmt.Sprintf("The value of %s does not match the type of variable %q: %v.", from, v.Name, err), rng)}
	}
	v.Value = conv
	return nil
}

func (l *loader) loadVarFile(path string) hcl.Diagnostics {
	src, err := userfile.ReadFile(path)
	if err != nil {
		return hcl.Diagnostics{errDiag("Cannot read variables file", fmt.Sprintf("%v. Check the -var-file path.", err), nil)}
	}
	f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return diags
	}
	l.cfg.Files[path] = f
	attrs, diags := f.Body.JustAttributes()
	for name, attr := range attrs {
		v := l.cfg.Variables[name]
		if v == nil {
			diags = append(diags, errDiag("Undeclared variable",
				fmt.Sprintf("%s sets %q, but no variable %q is declared (declared: %s).", path, name, name, declaredNames(l.cfg.Variables)), attr.NameRange.Ptr()))
			continue
		}
		val, d := attr.Expr.Value(nil)
		diags = append(diags, d...)
		if !d.HasErrors() {
			diags = append(diags, v.set(val, path, attr.Expr.Range().Ptr())...)
		}
	}
	return diags
}
