package mcpruntime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The projection interpreter (mcp-codegen issue 41): a value valid at one protocol version projected onto
// another version's shape of the same method's result or params. The shapes are data the generator decides
// from the schemas (generator/model/projections.ts, printed as each version package's Projection); this only
// walks them, as the TypeScript, Python and Ruby runtimes' interpreters do: undeclared members of a closed
// object dropped, required members supplied from the defaults given, a union's branches narrowed by its tag
// member (the value's, else the default given), of those the branch dropping the fewest members taken, and
// anything else refused with the JSON pointer at fault and the reason. No protocol fact is decided here.

// Shape is one node of a version's shape: K names its kind ("any", "never", "lit", "str", "num", "bool",
// "null", "arr", "obj", "ref", "union"); the other fields are that kind's.
type Shape struct {
	K                string            `json:"k"`
	Values           []json.RawMessage `json:"values,omitempty"`
	MinLength        *int              `json:"minLength,omitempty"`
	MaxLength        *int              `json:"maxLength,omitempty"`
	Pattern          *string           `json:"pattern,omitempty"`
	Integer          bool              `json:"integer,omitempty"`
	Minimum          *float64          `json:"minimum,omitempty"`
	Maximum          *float64          `json:"maximum,omitempty"`
	ExclusiveMinimum *float64          `json:"exclusiveMinimum,omitempty"`
	ExclusiveMaximum *float64          `json:"exclusiveMaximum,omitempty"`
	Items            *Shape            `json:"items,omitempty"`
	MinItems         *int              `json:"minItems,omitempty"`
	MaxItems         *int              `json:"maxItems,omitempty"`
	Props            []ShapeMember     `json:"props,omitempty"`
	Extra            *Shape            `json:"extra,omitempty"`
	Name             string            `json:"name,omitempty"`
	Open             bool              `json:"open,omitempty"`
	Branches         []Shape           `json:"branches,omitempty"`
	Tag              *ShapeTag         `json:"tag,omitempty"`
}

// ShapeTag is the member a union's branches are told apart by: Values[i] are the constants branch i
// takes (nil: any value).
type ShapeTag struct {
	Member string              `json:"member"`
	Values [][]json.RawMessage `json:"values"`
}

// ShapeMember is a member of an object shape; Default (when not nil) is supplied when it is required and absent.
type ShapeMember struct {
	Name     string          `json:"name"`
	S        Shape           `json:"s"`
	Required bool            `json:"required"`
	Default  json.RawMessage `json:"default,omitempty"`
}

// MethodProjection is a method's result shape at a version, with the defaults of its root members (resultType).
type MethodProjection struct {
	Shape    Shape                      `json:"shape"`
	Defaults map[string]json.RawMessage `json:"defaults"`
}

// Projection is one version's projection data: every definition the results and params reach, each
// request's result and params shape, and the server capabilities' shape (nil where the version has none).
type Projection struct {
	Label              string                      `json:"label"`
	Definitions        map[string]*Shape           `json:"definitions"`
	Results            map[string]MethodProjection `json:"results"`
	Params             map[string]Shape            `json:"params"`
	ServerCapabilities *Shape                      `json:"serverCapabilities"`
}

// MustProjection reads a version's printed projection data; data that does not read is a generator bug, so it panics.
func MustProjection(data string) *Projection {
	var p Projection
	if err := json.Unmarshal([]byte(data), &p); err != nil {
		panic(fmt.Sprintf("mcpruntime: the projection data does not read: %v", err))
	}
	return &p
}

// Projected is a value at the target version, with the JSON pointers of the members dropped and of the defaults supplied.
type Projected struct {
	Value   json.RawMessage
	Dropped []string
	Added   []string
}

// Refused says that no faithful value exists at the target version: the JSON pointer of the value at fault, and why.
type Refused struct {
	Pointer string
	Reason  string
}

func (r *Refused) Error() string {
	return fmt.Sprintf("%s: %s", r.Pointer, r.Reason)
}

// ProjectResult projects a result of method (JSON valid at any version) onto p's result of the method.
func (p *Projection) ProjectResult(method string, value json.RawMessage) (*Projected, *Refused) {
	entry, ok := p.Results[method]
	if !ok {
		return nil, &Refused{Pointer: "", Reason: fmt.Sprintf("version %s has no request %s", p.Label, method)}
	}
	return p.run(value, &entry.Shape, entry.Defaults)
}

// ProjectParams projects the params of method (valid at any version) onto p's params of it (lifting an older request).
func (p *Projection) ProjectParams(method string, value json.RawMessage) (*Projected, *Refused) {
	// No params (absent or null) stay as they are.
	if len(bytes.TrimSpace(value)) == 0 || IsNull(value) {
		return &Projected{Value: value}, nil
	}
	shape, ok := p.Params[method]
	if !ok {
		return nil, &Refused{Pointer: "", Reason: fmt.Sprintf("version %s has no params for %s", p.Label, method)}
	}
	return p.run(value, &shape, nil)
}

// ProjectShape projects any value onto a shape of p's data (its ServerCapabilities, a definition's ref).
func (p *Projection) ProjectShape(shape *Shape, value json.RawMessage) (*Projected, *Refused) {
	return p.run(value, shape, nil)
}

func (p *Projection) run(value json.RawMessage, shape *Shape, defaults map[string]json.RawMessage) (*Projected, *Refused) {
	v, err := readJSONValue(value)
	if err != nil {
		return nil, &Refused{Pointer: "", Reason: err.Error()}
	}
	w := &walker{data: p}
	out, refusal := w.walk(v, shape, "", defaults, false)
	if refusal != nil {
		return nil, refusal
	}
	text, err := json.Marshal(out)
	if err != nil {
		return nil, &Refused{Pointer: "", Reason: err.Error()}
	}
	return &Projected{Value: text, Dropped: w.dropped, Added: w.added}, nil
}

// readJSONValue reads JSON keeping numbers as written (json.Number), so that integers stay integers.
func readJSONValue(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

type walker struct {
	data    *Projection
	dropped []string
	added   []string
}

func pointerToken(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}

func (w *walker) typeRefusal(at, expected string, v any) *Refused {
	return &Refused{Pointer: at, Reason: fmt.Sprintf("version %s expects %s here, not %s", w.data.Label, expected, jsonType(v))}
}

func (w *walker) walk(v any, s *Shape, at string, defaults map[string]json.RawMessage, open bool) (any, *Refused) {
	label := w.data.Label
	switch s.K {
	case "any":
		return v, nil
	case "never":
		return nil, &Refused{Pointer: at, Reason: fmt.Sprintf("version %s allows no value here", label)}
	case "lit":
		for _, raw := range s.Values {
			lit, err := readJSONValue(raw)
			if err == nil && sameLiteral(lit, v) {
				return v, nil
			}
		}
		allowed := make([]string, len(s.Values))
		for i, raw := range s.Values {
			allowed[i] = string(raw)
		}
		got, _ := json.Marshal(v)
		return nil, &Refused{Pointer: at, Reason: fmt.Sprintf("version %s allows only %s here, not %s", label, strings.Join(allowed, ", "), got)}
	case "str":
		str, ok := v.(string)
		if !ok {
			return nil, w.typeRefusal(at, "a string", v)
		}
		n := len([]rune(str))
		// JSON Schema counts a string's length in code points.
		if (s.MinLength != nil && n < *s.MinLength) || (s.MaxLength != nil && n > *s.MaxLength) || !matches(s.Pattern, str) {
			return nil, &Refused{Pointer: at, Reason: fmt.Sprintf("the string does not meet version %s's length or pattern", label)}
		}
		return v, nil
	case "num":
		num, ok := v.(json.Number)
		if !ok {
			return nil, w.typeRefusal(at, "a number", v)
		}
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil || (s.Integer && f != math.Trunc(f)) || (s.Minimum != nil && f < *s.Minimum) || (s.Maximum != nil && f > *s.Maximum) ||
			(s.ExclusiveMinimum != nil && f <= *s.ExclusiveMinimum) || (s.ExclusiveMaximum != nil && f >= *s.ExclusiveMaximum) {
			return nil, &Refused{Pointer: at, Reason: fmt.Sprintf("%s is out of version %s's range", num, label)}
		}
		return v, nil
	case "bool":
		if _, ok := v.(bool); !ok {
			return nil, w.typeRefusal(at, "a boolean", v)
		}
		return v, nil
	case "null":
		if v != nil {
			return nil, w.typeRefusal(at, "null", v)
		}
		return v, nil
	case "arr":
		items, ok := v.([]any)
		if !ok {
			return nil, w.typeRefusal(at, "an array", v)
		}
		if (s.MinItems != nil && len(items) < *s.MinItems) || (s.MaxItems != nil && len(items) > *s.MaxItems) {
			return nil, &Refused{Pointer: at, Reason: fmt.Sprintf("the array's length is out of version %s's bounds", label)}
		}
		out := make([]any, len(items))
		for i, item := range items {
			x, refusal := w.walk(item, s.Items, fmt.Sprintf("%s/%d", at, i), nil, false)
			if refusal != nil {
				return nil, refusal
			}
			out[i] = x
		}
		return out, nil
	case "ref":
		target, ok := w.data.Definitions[s.Name]
		if !ok {
			return nil, &Refused{Pointer: at, Reason: fmt.Sprintf("version %s has no definition %s", label, s.Name)}
		}
		return w.walk(v, target, at, defaults, open || s.Open)
	case "union":
		return w.union(v, s, at, defaults, open)
	default:
		return w.object(v, s, at, defaults, open)
	}
}

func (w *walker) union(v any, s *Shape, at string, defaults map[string]json.RawMessage, open bool) (any, *Refused) {
	var best *walker
	var bestValue any
	var first *Refused
	agreed := true
	branches, refused := w.tagged(v, s, at, defaults)
	if refused != nil {
		return nil, refused
	}
	for _, branch := range branches {
		b := &walker{data: w.data}
		x, refusal := b.walk(v, branch, at, defaults, open)
		if refusal != nil {
			if first == nil {
				first = refusal
			}
			agreed = agreed && refusal.Pointer == first.Pointer
			continue
		}
		if best == nil || len(b.dropped) < len(best.dropped) {
			best, bestValue = b, x
		}
	}
	if best == nil {
		// One branch named by the tag, or every branch refusing at the same place inside the value: that
		// refusal says where the value fails.
		if first != nil && (len(branches) == 1 || (agreed && first.Pointer != at)) {
			return nil, first
		}
		kind := ""
		if m, ok := v.(map[string]any); ok {
			if t, ok := m["type"].(string); ok {
				kind = fmt.Sprintf(" (type %q)", t)
			}
		}
		detail := ""
		if first != nil && first.Pointer != at {
			detail = fmt.Sprintf(": %s: %s", first.Pointer, first.Reason)
		}
		return nil, &Refused{Pointer: at, Reason: fmt.Sprintf("no variant of version %s accepts this value%s%s", w.data.Label, kind, detail)}
	}
	w.dropped = append(w.dropped, best.dropped...)
	w.added = append(w.added, best.added...)
	return bestValue, nil
}

var anyShape = &Shape{K: "any"}

func (w *walker) object(v any, s *Shape, at string, defaults map[string]json.RawMessage, open bool) (any, *Refused) {
	members, ok := v.(map[string]any)
	if !ok {
		return nil, w.typeRefusal(at, "an object", v)
	}
	out := map[string]any{}
	declared := map[string]bool{}
	for i := range s.Props {
		p := &s.Props[i]
		declared[p.Name] = true
		where := at + "/" + pointerToken(p.Name)
		if member, ok := members[p.Name]; ok {
			x, refusal := w.walk(member, &p.S, where, nil, false)
			if refusal != nil {
				return nil, refusal
			}
			out[p.Name] = x
			continue
		}
		if !p.Required {
			continue
		}
		supplied, ok := defaults[p.Name]
		if !ok {
			supplied, ok = p.Default, p.Default != nil
		}
		if !ok {
			return nil, &Refused{Pointer: where, Reason: fmt.Sprintf("version %s requires this member and gives it no default", w.data.Label)}
		}
		x, err := readJSONValue(supplied)
		if err != nil {
			return nil, &Refused{Pointer: where, Reason: err.Error()}
		}
		out[p.Name] = x
		w.added = append(w.added, where)
	}
	extra := s.Extra
	if extra == nil && open {
		extra = anyShape
	}
	// Undeclared members in code point order (byte order of their UTF-8), as every runtime walks them: the
	// pointers dropped are listed the same on every run, and the first to fail names the refusal.
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if declared[name] {
			continue
		}
		where := at + "/" + pointerToken(name)
		if extra == nil {
			w.dropped = append(w.dropped, where)
			continue
		}
		x, refusal := w.walk(members[name], extra, where, nil, false)
		if refusal != nil {
			return nil, refusal
		}
		out[name] = x
	}
	return out, nil
}

// tagged gives the branches a union's tag names for the value (the value's member, else its default);
// all where it names none.
func (w *walker) tagged(v any, s *Shape, at string, defaults map[string]json.RawMessage) ([]*Shape, *Refused) {
	all := make([]*Shape, len(s.Branches))
	for i := range s.Branches {
		all[i] = &s.Branches[i]
	}
	m, isObject := v.(map[string]any)
	if s.Tag == nil || !isObject {
		return all, nil
	}
	given, ok := m[s.Tag.Member]
	if !ok {
		raw, hasDefault := defaults[s.Tag.Member]
		if !hasDefault {
			return all, nil
		}
		var err error
		if given, err = readJSONValue(raw); err != nil {
			return all, nil
		}
	}
	var named []*Shape
	for i, values := range s.Tag.Values {
		take := values == nil
		for _, raw := range values {
			if lit, err := readJSONValue(raw); err == nil && sameLiteral(lit, given) {
				take = true
			}
		}
		if take && i < len(all) {
			named = append(named, all[i])
		}
	}
	if len(named) == 0 {
		got, _ := json.Marshal(given)
		return nil, &Refused{Pointer: at, Reason: fmt.Sprintf("version %s has no variant whose %s is %s", w.data.Label, s.Tag.Member, got)}
	}
	return named, nil
}

// sameLiteral is JSON equality of primitives (true is not 1; 1 equals 1.0).
func sameLiteral(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, errx := strconv.ParseFloat(string(x), 64)
		fy, erry := strconv.ParseFloat(string(y), 64)
		return errx == nil && erry == nil && fx == fy
	case string, bool, nil:
		return a == b
	}
	return false
}

// patterns holds each pattern compiled once (pattern → *regexp.Regexp, nil when Go's regexp cannot read it);
// projections run on concurrent requests.
var patterns sync.Map

// matches reports whether str matches the pattern (none: it matches); a pattern Go's regexp cannot read matches nothing.
func matches(pattern *string, str string) bool {
	if pattern == nil {
		return true
	}
	re, ok := patterns.Load(*pattern)
	if !ok {
		compiled, err := regexp.Compile(*pattern)
		if err != nil {
			compiled = nil
		}
		re, _ = patterns.LoadOrStore(*pattern, compiled)
	}
	compiled := re.(*regexp.Regexp)
	return compiled != nil && compiled.MatchString(str)
}
