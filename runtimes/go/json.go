// Package mcpruntime is the hand-written part of every Go tree mcp-codegen generates: the JSON helpers the
// generated types' (Un)MarshalJSON methods call, the method table's row type, the gate and the result
// normalizers. It knows nothing of MCP's definitions: every protocol fact is printed by the generator.
package mcpruntime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Members is a JSON object as its raw members, by name.
type Members map[string]json.RawMessage

// DecodeObject reads data as a JSON object (null and every other JSON type are refused), naming `what` in errors.
func DecodeObject(data []byte, what string) (Members, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("%s: expected a JSON object, got %s", what, describe(trimmed))
	}
	var m Members
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return m, nil
}

// IsNull reports whether raw is the JSON null.
func IsNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

func describe(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// decodeValue decodes raw into dst; null is refused unless nullable (encoding/json would leave dst unchanged).
func decodeValue(raw json.RawMessage, dst any, nullable bool, what string) error {
	if !nullable && IsNull(raw) {
		return fmt.Errorf("%s: null is not allowed", what)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// Required decodes the member `key` of m into dst; a missing member is an error.
func Required[T any](m Members, key string, dst *T, nullable bool, what string) error {
	raw, ok := m[key]
	if !ok {
		return fmt.Errorf("%s: the member %q is required", what, key)
	}
	return decodeValue(raw, dst, nullable, what+"."+key)
}

// Optional decodes the member `key` of m into a new *T, or leaves dst nil when m has no such member.
func Optional[T any](m Members, key string, dst **T, nullable bool, what string) error {
	raw, ok := m[key]
	if !ok {
		*dst = nil
		return nil
	}
	v := new(T)
	if err := decodeValue(raw, v, nullable, what+"."+key); err != nil {
		return err
	}
	*dst = v
	return nil
}

// Rest decodes the members of m not named in known into an additional-members map (nil when there are none).
func Rest[T any](m Members, known []string, nullable bool, what string) (map[string]T, error) {
	var out map[string]T
	for key, raw := range m {
		if contains(known, key) {
			continue
		}
		var v T
		if err := decodeValue(raw, &v, nullable, what+"."+key); err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]T{}
		}
		out[key] = v
	}
	return out, nil
}

// Closed refuses a member of m not named in known (an object whose schema forbids additional members).
func Closed(m Members, known []string, what string) error {
	keys := make([]string, 0, len(m))
	for key := range m {
		if !contains(known, key) {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	sort.Strings(keys)
	return fmt.Errorf("%s: the member %q is not allowed", what, keys[0])
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Object builds a JSON object's members for MarshalJSON.
type Object struct {
	members map[string]json.RawMessage
	err     error
}

// NewObject starts an empty object.
func NewObject() *Object {
	return &Object{members: map[string]json.RawMessage{}}
}

// Set encodes v as the member key.
func (o *Object) Set(key string, v any) {
	if o.err != nil {
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		o.err = fmt.Errorf("%s: %w", key, err)
		return
	}
	o.members[key] = raw
}

// SetOptional encodes *v as the member key when v is not nil.
func SetOptional[T any](o *Object, key string, v *T) {
	if v != nil {
		o.Set(key, *v)
	}
}

// SetRest encodes the additional members (declared members take precedence).
func SetRest[T any](o *Object, rest map[string]T) {
	for key, v := range rest {
		if _, taken := o.members[key]; !taken {
			o.Set(key, v)
		}
	}
}

// Bytes is the object's JSON text, members in code-unit order.
func (o *Object) Bytes() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	return json.Marshal(o.members)
}

// DecodeIn decodes data into dst and refuses a value not among allowed (an enum or a const).
func DecodeIn[T comparable](data []byte, dst *T, allowed []T, what string) error {
	if err := decodeValue(data, dst, false, what); err != nil {
		return err
	}
	for _, a := range allowed {
		if *dst == a {
			return nil
		}
	}
	return fmt.Errorf("%s: %v is not one of %v", what, *dst, allowed)
}

// DecodeRawIn keeps data when it equals one of the allowed JSON texts (a const or enum of mixed JSON types).
func DecodeRawIn(data []byte, dst *json.RawMessage, allowed []string, what string) error {
	compact, err := Canonical(data)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	for _, a := range allowed {
		if compact == a {
			*dst = append((*dst)[:0], data...)
			return nil
		}
	}
	return fmt.Errorf("%s: %s is not one of %v", what, compact, allowed)
}

// Canonical is data's JSON text with objects' members sorted and no insignificant space.
func Canonical(data []byte) (string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	out, err := json.Marshal(v)
	return string(out), err
}

// Arm is one way a union's value may decode: its decoder, tried in the union's order.
type Arm[U any] func(data []byte) (U, error)

// DecodeUnion is the first arm that decodes data (the arms in the order the schema lists them).
func DecodeUnion[U any](data []byte, what string, arms ...Arm[U]) (U, error) {
	var zero U
	var errs []string
	for _, arm := range arms {
		v, err := arm(data)
		if err == nil {
			return v, nil
		}
		errs = append(errs, err.Error())
	}
	return zero, fmt.Errorf("%s: no arm of the union accepts the value (%v)", what, errs)
}

// As decodes data into a new T (strictly: null is refused unless nullable).
func As[T any](data []byte, nullable bool, what string) (T, error) {
	var v T
	err := decodeValue(data, &v, nullable, what)
	return v, err
}

// DecodeNull accepts only the JSON null.
func DecodeNull(data []byte, what string) error {
	if !IsNull(data) {
		return fmt.Errorf("%s: expected null, got %s", what, describe(bytes.TrimSpace(data)))
	}
	return nil
}
