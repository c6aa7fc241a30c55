// The Go side of the Go target's tests, over a generated tree registered by registry.go (which the tests
// write beside this file):
//   - `proof CASES`: every instance of a corpus is judged by jsonschema-go against its version's schema,
//     decoded with the generated Go type of its definition and, when it decodes, encoded again; one JSON
//     line per instance (types.test.ts compares the encoding with the instance as JSON);
//   - `table`: every package's MethodTable as JSON, label → method → row;
//   - `calls CALLS`: each generated package's Refusal (the gate) and NormalizeResult on the given calls;
//   - `project PROJECTIONS`: values of a method's result projected onto another version's (its package's
//     Projection, read by mcpruntime's interpreter), each projected value judged by jsonschema-go against the
//     target version's result definitions; one JSON line per value.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/google/jsonschema-go/jsonschema"
	"mcpcodegen/mcpruntime"
)

// Codec decodes an instance with one generated type and encodes the value again.
type Codec func(data []byte) ([]byte, error)

// registry: version label → definition → its codec (registry.go fills it).
var registry = map[string]map[string]Codec{}

// Package is what a generated version package offers besides its types (registry.go fills packages).
type Package struct {
	Table     mcpruntime.MethodTable
	Refusal   func(method string, policy mcpruntime.Policy) *mcpruntime.MethodNotFound
	Normalize func(method string, value json.RawMessage) (json.RawMessage, error)
}

var packages = map[string]Package{}

// projections: version label → its package's projection data (registry.go fills it; extension modules have none).
var projections = map[string]*mcpruntime.Projection{}

// RoundTrip is the codec of the type T. It encodes a *T, so that a MarshalJSON on the pointer receiver (as
// the go-sdk's types have) is the one used, as when a caller encodes the value it decoded into. A panic
// while decoding or encoding is returned as an error starting "panic: ".
func RoundTrip[T any](data []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return json.Marshal(&v)
}

// Case is one definition's instances, with the schema document that judges them.
type Case struct {
	Label      string            `json:"label"`
	Schema     string            `json:"schema"`
	Definition string            `json:"definition"`
	Pointer    string            `json:"pointer"`
	Instances  []json.RawMessage `json:"instances"`
}

// Verdict is what happened to one instance.
type Verdict struct {
	Label       string  `json:"label"`
	Definition  string  `json:"definition"`
	Index       int     `json:"index"`
	Schema      bool    `json:"schema"`
	SchemaError string  `json:"schemaError,omitempty"`
	Decoded     bool    `json:"decoded"`
	DecodeError string  `json:"decodeError,omitempty"`
	Encoded     *string `json:"encoded"`
}

func main() {
	var err error
	switch os.Args[1] {
	case "proof":
		err = run(os.Args[2])
	case "table":
		err = tables()
	case "calls":
		err = calls(os.Args[2])
	case "project":
		err = project(os.Args[2])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(casesFile string) error {
	text, err := os.ReadFile(casesFile)
	if err != nil {
		return err
	}
	var cases []Case
	if err := json.Unmarshal(text, &cases); err != nil {
		return err
	}
	documents := schemaFiles{}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, c := range cases {
		doc, err := documents.load(c.Schema)
		if err != nil {
			return err
		}
		resolved, err := resolve(doc, c.Pointer)
		if err != nil {
			return fmt.Errorf("%s %s: %w", c.Label, c.Definition, err)
		}
		codec, ok := registry[c.Label][c.Definition]
		if !ok {
			return fmt.Errorf("no Go type registered for %s %s", c.Label, c.Definition)
		}
		for i, instance := range c.Instances {
			v := Verdict{Label: c.Label, Definition: c.Definition, Index: i}
			var value any
			if err := json.Unmarshal(instance, &value); err != nil {
				return err
			}
			if err := resolved.Validate(value); err != nil {
				v.SchemaError = err.Error()
			} else {
				v.Schema = true
			}
			encoded, err := codec(instance)
			if err != nil {
				v.DecodeError = err.Error()
			} else {
				v.Decoded = true
				s := string(encoded)
				v.Encoded = &s
			}
			line, err := json.Marshal(v)
			if err != nil {
				return err
			}
			out.Write(append(line, '\n'))
		}
	}
	return nil
}

// resolve is the schema of the definition at pointer inside doc: the document with a root $ref to it.
func resolve(doc map[string]any, pointer string) (*jsonschema.Resolved, error) {
	root := map[string]any{}
	for k, v := range doc {
		root[k] = v
	}
	root["$ref"] = pointer
	text, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(text, &s); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
}

func tables() error {
	out := map[string]mcpruntime.MethodTable{}
	for label, p := range packages {
		out[label] = p.Table
	}
	text, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(text)
	return err
}

// Call is one gate question (Policy set) or one normalization (Value set) at a version.
type Call struct {
	Label  string             `json:"label"`
	Method string             `json:"method"`
	Policy *mcpruntime.Policy `json:"policy,omitempty"`
	Value  json.RawMessage    `json:"value,omitempty"`
}

// Answer is a call's outcome: the refusal's reason ("" lets the method through), or the normalized result or its error.
type Answer struct {
	Reason string          `json:"reason"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

func calls(file string) error {
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var list []Call
	if err := json.Unmarshal(text, &list); err != nil {
		return err
	}
	answers := make([]Answer, len(list))
	for i, c := range list {
		p, ok := packages[c.Label]
		if !ok {
			return fmt.Errorf("no package for %s", c.Label)
		}
		if c.Policy != nil {
			if r := p.Refusal(c.Method, *c.Policy); r != nil {
				answers[i].Reason = r.Reason
			}
			continue
		}
		result, err := p.Normalize(c.Method, c.Value)
		if err != nil {
			answers[i].Error = err.Error()
		} else {
			answers[i].Result = result
		}
	}
	out, err := json.Marshal(answers)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(out)
	return err
}

// Projection is values of a method's result (valid at From) to project onto To, whose result definitions are
// at Pointers of the schema document Schema.
type Projection struct {
	From      string            `json:"from"`
	To        string            `json:"to"`
	Method    string            `json:"method"`
	Schema    string            `json:"schema"`
	Pointers  []string          `json:"pointers"`
	Instances []json.RawMessage `json:"instances"`
}

// Projected is what happened to one value: refused (with the pointer and reason), or projected and judged.
type Projected struct {
	From        string          `json:"from"`
	To          string          `json:"to"`
	Method      string          `json:"method"`
	Index       int             `json:"index"`
	Refused     bool            `json:"refused"`
	Pointer     string          `json:"pointer"`
	Reason      string          `json:"reason,omitempty"`
	Value       json.RawMessage `json:"value,omitempty"`
	Dropped     []string        `json:"dropped"`
	Added       []string        `json:"added"`
	Valid       bool            `json:"valid"`
	SchemaError string          `json:"schemaError,omitempty"`
}

func project(file string) error {
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var list []Projection
	if err := json.Unmarshal(text, &list); err != nil {
		return err
	}
	documents := schemaFiles{}
	resolved := map[string]*jsonschema.Resolved{}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, c := range list {
		doc, err := documents.load(c.Schema)
		if err != nil {
			return err
		}
		target, ok := projections[c.To]
		if !ok {
			return fmt.Errorf("no projection data registered for %s", c.To)
		}
		for i, instance := range c.Instances {
			v := Projected{From: c.From, To: c.To, Method: c.Method, Index: i}
			projected, refused := target.ProjectResult(c.Method, instance)
			if refused != nil {
				v.Refused, v.Pointer, v.Reason = true, refused.Pointer, refused.Reason
			} else {
				v.Value, v.Dropped, v.Added = projected.Value, projected.Dropped, projected.Added
				var value any
				if err := json.Unmarshal(projected.Value, &value); err != nil {
					return err
				}
				// Valid when one of the target's result definitions accepts it.
				for _, pointer := range c.Pointers {
					key := c.Schema + pointer
					r, ok := resolved[key]
					if !ok {
						if r, err = resolve(doc, pointer); err != nil {
							return fmt.Errorf("%s %s: %w", c.To, pointer, err)
						}
						resolved[key] = r
					}
					if err := r.Validate(value); err != nil {
						v.SchemaError = err.Error()
					} else {
						v.Valid, v.SchemaError = true, ""
						break
					}
				}
			}
			line, err := json.Marshal(v)
			if err != nil {
				return err
			}
			out.Write(append(line, '\n'))
		}
	}
	return nil
}

// schemaFiles holds each schema file read once, by path.
type schemaFiles map[string]map[string]any

// load reads the schema file at path (once).
func (f schemaFiles) load(path string) (map[string]any, error) {
	if doc, ok := f[path]; ok {
		return doc, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	f[path] = doc
	return doc, nil
}
