package mcpruntime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Schema is what a version's Go types cannot say of its definitions, as the generator's model reads the
// schema (its IR: every keyword's meaning decided there, `if`/`then`/`else`, the dependency keywords and
// `unevaluated*` already lowered into unions, `not`, objects and arrays), printed by the generator as JSON.
// A type whose definition needs it checks the JSON it decodes against it first (Check).
type Schema struct {
	defs map[string]*Node
}

// Node is one schema IR node. Kind is any, never, null, boolean, literal, string, number, array, object,
// union, intersection, not or ref; the other members are those of its kind.
type Node struct {
	Kind string `json:"kind"`
	// ref: the definition's name.
	Ref string `json:"ref,omitempty"`
	// literal: the values (JSON scalars).
	Values []json.RawMessage `json:"values,omitempty"`
	values []any
	// string, number, array, object: a keyword without `type` (every other JSON type passes).
	Implied bool `json:"implied,omitempty"`
	// string: lengths in code points, and the pattern in Go's syntax (translated from ECMA-262 by the generator).
	MinLength *int   `json:"minLength,omitempty"`
	MaxLength *int   `json:"maxLength,omitempty"`
	Pattern   string `json:"pattern,omitempty"`
	pattern   *regexp.Regexp
	// number: `integer`, the bounds, and multipleOf as Digits × 10^-Scale (see MultipleOf).
	Integer          bool        `json:"integer,omitempty"`
	Minimum          json.Number `json:"minimum,omitempty"`
	Maximum          json.Number `json:"maximum,omitempty"`
	ExclusiveMinimum json.Number `json:"exclusiveMinimum,omitempty"`
	ExclusiveMaximum json.Number `json:"exclusiveMaximum,omitempty"`
	MultipleOf       *MultipleOf `json:"multipleOf,omitempty"`
	bounds           [4]*big.Rat
	// array: the prefix's schemas, the rest's, sizes, contains and uniqueItems.
	PrefixItems []*Node   `json:"prefixItems,omitempty"`
	Items       *Node     `json:"items,omitempty"`
	MinItems    *int      `json:"minItems,omitempty"`
	MaxItems    *int      `json:"maxItems,omitempty"`
	Contains    *Contains `json:"contains,omitempty"`
	UniqueItems bool      `json:"uniqueItems,omitempty"`
	// object: declared members, additional members (nil: any), patternProperties, propertyNames, sizes.
	Properties        []Property        `json:"properties,omitempty"`
	Additional        *Node             `json:"additional,omitempty"`
	PatternProperties []PatternProperty `json:"patternProperties,omitempty"`
	PropertyNames     *Node             `json:"propertyNames,omitempty"`
	MinProperties     *int              `json:"minProperties,omitempty"`
	MaxProperties     *int              `json:"maxProperties,omitempty"`
	// union (anyOf, or oneOf when Exclusive), intersection, not.
	Branches  []*Node `json:"branches,omitempty"`
	Exclusive bool    `json:"exclusive,omitempty"`
	Parts     []*Node `json:"parts,omitempty"`
	Node      *Node   `json:"node,omitempty"`
}

// MultipleOf is a `multipleOf` divisor, Digits × 10^-Scale: its shortest decimal form, as the model decides it.
type MultipleOf struct {
	Digits string `json:"digits"`
	Scale  int    `json:"scale"`
}

// Contains is `contains` with its bounds (Max nil: no upper bound).
type Contains struct {
	Node *Node `json:"node"`
	Min  int   `json:"min"`
	Max  *int  `json:"max,omitempty"`
}

// Property is a declared object member.
type Property struct {
	Name     string `json:"name"`
	Node     *Node  `json:"node"`
	Required bool   `json:"required,omitempty"`
}

// PatternProperty is a `patternProperties` entry, its pattern in Go's syntax.
type PatternProperty struct {
	Pattern string `json:"pattern"`
	Node    *Node  `json:"node"`
	pattern *regexp.Regexp
}

// MustSchema reads a schema the generator printed (definition name → node); it panics on a text no
// generator prints, as regexp.MustCompile does.
func MustSchema(text string) *Schema {
	var defs map[string]*Node
	if err := json.Unmarshal([]byte(text), &defs); err != nil {
		panic(fmt.Sprintf("mcpruntime: a schema that does not read: %v", err))
	}
	for name, n := range defs {
		if err := n.prepare(); err != nil {
			panic(fmt.Sprintf("mcpruntime: the schema of %s: %v", name, err))
		}
	}
	return &Schema{defs: defs}
}

func (n *Node) prepare() error {
	if n == nil {
		return nil
	}
	var err error
	if n.Pattern != "" {
		if n.pattern, err = regexp.Compile(n.Pattern); err != nil {
			return err
		}
	}
	for i := range n.PatternProperties {
		p := &n.PatternProperties[i]
		if p.pattern, err = regexp.Compile(p.Pattern); err != nil {
			return err
		}
		if err := p.Node.prepare(); err != nil {
			return err
		}
	}
	for _, raw := range n.Values {
		v, err := decodeAny(raw)
		if err != nil {
			return err
		}
		n.values = append(n.values, v)
	}
	for i, b := range []json.Number{n.Minimum, n.Maximum, n.ExclusiveMinimum, n.ExclusiveMaximum} {
		if b != "" {
			r, ok := new(big.Rat).SetString(string(b))
			if !ok {
				return fmt.Errorf("the bound %s is no number", b)
			}
			n.bounds[i] = r
		}
	}
	children := append(append(append([]*Node{n.Items, n.Additional, n.PropertyNames, n.Node}, n.PrefixItems...), n.Branches...), n.Parts...)
	if n.Contains != nil {
		children = append(children, n.Contains.Node)
	}
	for _, p := range n.Properties {
		children = append(children, p.Node)
	}
	for _, c := range children {
		if err := c.prepare(); err != nil {
			return err
		}
	}
	return nil
}

// decodeAny reads JSON into any, numbers as json.Number (exact).
func decodeAny(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Check refuses data that the definition's schema refuses, naming the first place found that does not
// match (a JSON pointer into data) and why.
func (s *Schema) Check(definition string, data []byte) error {
	n, ok := s.defs[definition]
	if !ok {
		return fmt.Errorf("%s: no schema for the definition", definition)
	}
	v, err := decodeAny(data)
	if err != nil {
		return fmt.Errorf("%s: %w", definition, err)
	}
	if why := s.check(n, v, ""); why != "" {
		return fmt.Errorf("%s: %s", definition, why)
	}
	return nil
}

// check is "" when v matches n, else where and why it does not.
func (s *Schema) check(n *Node, v any, at string) string {
	fail := func(format string, args ...any) string {
		where := at
		if where == "" {
			where = "(root)"
		}
		return where + ": " + fmt.Sprintf(format, args...)
	}
	switch n.Kind {
	case "any":
		return ""
	case "never":
		return fail("no value is allowed")
	case "null":
		if v != nil {
			return fail("expected null")
		}
		return ""
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fail("expected a boolean")
		}
		return ""
	case "ref":
		target, ok := s.defs[n.Ref]
		if !ok {
			return fail("no schema for the definition %s", n.Ref)
		}
		return s.check(target, v, at)
	case "literal":
		for _, x := range n.values {
			if jsonEqual(x, v) {
				return ""
			}
		}
		return fail("not one of %s", joinRaw(n.Values))
	case "string":
		str, ok := v.(string)
		if !ok {
			return s.implied(n, fail, "a string")
		}
		count := utf8.RuneCountInString(str)
		if n.MinLength != nil && count < *n.MinLength {
			return fail("expected at least %d characters", *n.MinLength)
		}
		if n.MaxLength != nil && count > *n.MaxLength {
			return fail("expected at most %d characters", *n.MaxLength)
		}
		if n.pattern != nil && !n.pattern.MatchString(str) {
			return fail("does not match the pattern %s", n.Pattern)
		}
		return ""
	case "number":
		num, ok := v.(json.Number)
		if !ok {
			return s.implied(n, fail, "a number")
		}
		r, ok := new(big.Rat).SetString(string(num))
		if !ok {
			return fail("%s is no number", num)
		}
		if n.Integer && !r.IsInt() {
			return fail("expected an integer")
		}
		cmp := [4]func(int) bool{func(c int) bool { return c >= 0 }, func(c int) bool { return c <= 0 }, func(c int) bool { return c > 0 }, func(c int) bool { return c < 0 }}
		names := [4]string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
		for i, b := range n.bounds {
			if b != nil && !cmp[i](r.Cmp(b)) {
				return fail("%s is out of %s %s", num, names[i], b.RatString())
			}
		}
		if n.MultipleOf != nil && !IsMultipleOf(string(num), *n.MultipleOf) {
			return fail("%s is no multiple of %se-%d", num, n.MultipleOf.Digits, n.MultipleOf.Scale)
		}
		return ""
	case "array":
		items, ok := v.([]any)
		if !ok {
			return s.implied(n, fail, "an array")
		}
		if n.MinItems != nil && len(items) < *n.MinItems {
			return fail("expected at least %d items", *n.MinItems)
		}
		if n.MaxItems != nil && len(items) > *n.MaxItems {
			return fail("expected at most %d items", *n.MaxItems)
		}
		for i, item := range items {
			schema := n.Items
			if i < len(n.PrefixItems) {
				schema = n.PrefixItems[i]
			}
			if schema != nil {
				if why := s.check(schema, item, at+"/"+strconv.Itoa(i)); why != "" {
					return why
				}
			}
		}
		if c := n.Contains; c != nil {
			matched := 0
			for i, item := range items {
				if s.check(c.Node, item, at+"/"+strconv.Itoa(i)) == "" {
					matched++
				}
			}
			if matched < c.Min || (c.Max != nil && matched > *c.Max) {
				return fail("%d items match contains", matched)
			}
		}
		if n.UniqueItems {
			for i := range items {
				for j := i + 1; j < len(items); j++ {
					if jsonEqual(items[i], items[j]) {
						return fail("items %d and %d are equal", i, j)
					}
				}
			}
		}
		return ""
	case "object":
		members, ok := v.(map[string]any)
		if !ok {
			return s.implied(n, fail, "an object")
		}
		if n.MinProperties != nil && len(members) < *n.MinProperties {
			return fail("expected at least %d members", *n.MinProperties)
		}
		if n.MaxProperties != nil && len(members) > *n.MaxProperties {
			return fail("expected at most %d members", *n.MaxProperties)
		}
		declared := map[string]bool{}
		for _, p := range n.Properties {
			declared[p.Name] = true
			value, present := members[p.Name]
			if !present {
				if p.Required {
					return fail("the member %q is required", p.Name)
				}
				continue
			}
			if why := s.check(p.Node, value, at+"/"+pointerToken(p.Name)); why != "" {
				return why
			}
		}
		for _, key := range sortedKeys(members) {
			value := members[key]
			where := at + "/" + pointerToken(key)
			if n.PropertyNames != nil {
				if why := s.check(n.PropertyNames, key, where); why != "" {
					return fail("the member name %q: %s", key, why)
				}
			}
			additional := !declared[key]
			for _, p := range n.PatternProperties {
				if p.pattern.MatchString(key) {
					additional = false
					if why := s.check(p.Node, value, where); why != "" {
						return why
					}
				}
			}
			if additional && n.Additional != nil {
				if why := s.check(n.Additional, value, where); why != "" {
					return why
				}
			}
		}
		return ""
	case "union":
		matched := 0
		var first string
		for _, b := range n.Branches {
			if why := s.check(b, v, at); why == "" {
				matched++
			} else if first == "" {
				first = why
			}
		}
		if matched == 0 {
			return fail("no branch matches (the first: %s)", first)
		}
		if n.Exclusive && matched > 1 {
			return fail("%d branches of a oneOf match", matched)
		}
		return ""
	case "intersection":
		for _, p := range n.Parts {
			if why := s.check(p, v, at); why != "" {
				return why
			}
		}
		return ""
	case "not":
		if s.check(n.Node, v, at) == "" {
			return fail("matches what `not` forbids")
		}
		return ""
	}
	return fail("the schema node kind %q is unknown", n.Kind)
}

// implied is a value of another JSON type than the node constrains: it passes when the node has no `type`.
func (s *Schema) implied(n *Node, fail func(string, ...any) string, what string) string {
	if n.Implied {
		return ""
	}
	return fail("expected %s", what)
}

// IsMultipleOf reports whether the JSON number text is a multiple of m by the one rule every target follows:
// the number's shortest decimal form divided by m is an integer, in exact arithmetic. An integral number is
// taken as written (Go's Integer keeps any size); any other is read as a float64 and taken in its shortest
// form (0.30000000000000001 is the float64 0.3).
func IsMultipleOf(text string, m MultipleOf) bool {
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return false
	}
	if !r.IsInt() {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return false
		}
		if r, ok = new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64)); !ok {
			return false
		}
	}
	d, ok := new(big.Int).SetString(m.Digits, 10)
	if !ok || d.Sign() <= 0 {
		return false
	}
	divisor := new(big.Rat).SetFrac(d, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(m.Scale)), nil))
	return new(big.Rat).Quo(r, divisor).IsInt()
}

// jsonEqual is JSON Schema's equality: numbers by value, objects whatever their member order.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		rx, okx := new(big.Rat).SetString(string(x))
		ry, oky := new(big.Rat).SetString(string(y))
		return okx && oky && rx.Cmp(ry) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

func joinRaw(values []json.RawMessage) string {
	var b bytes.Buffer
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.Write(v)
	}
	return b.String()
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
