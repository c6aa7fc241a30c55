// The Go driver of the scenario suite (test/scenarios/, docs/scenarios.md): concrete cases on stdin
// ({"cases": [...]}, as test/scenarios/resolve.ts expands them), what the generated Go tree (generated/go,
// required by go.mod) answered on stdout: {"results": {id: actual}, "skipped": {id: why}, "summary": [lines]}.
//
//	gate      → the module's package's Refusal(method, policy) (the version's, or the extension module's, by
//	            its label in Versions()) under the case's side and policy (later: pass →
//	            AcrossEras.Pass; custom: refuse → RefuseCustom): the error object, or null
//	normalize → the version package's NormalizeResult(method, input): {"ok": result} or {"error": {code, message}}
//	stdio     → skipped: the Go tree has no transport (it adapts the Go SDK's server)
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"mcpcodegen"
	"mcpcodegen/mcpruntime"
)

type testCase struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
	Module  string `json:"module"`
	Method  string `json:"method"`
	Side    string `json:"side"`
	Policy  struct {
		Custom string `json:"custom"`
		Later  string `json:"later"`
	} `json:"policy"`
	Input json.RawMessage `json:"input"`
}

type coded interface {
	error
	Code() int
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func main() {
	var input struct {
		Cases []testCase `json:"cases"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&input); err != nil {
		fail("reading the cases: %v", err)
	}
	versions := mcpcodegen.Versions()
	results := map[string]any{}
	skipped := map[string]string{}
	ran := map[string]int{}
	left := map[string]int{}
	why := map[string]string{}
	for _, c := range input.Cases {
		if c.Kind != "gate" && c.Kind != "normalize" {
			why[c.Kind] = "the Go tree has no " + c.Kind + " transport: it adapts the Go SDK's server"
			skipped[c.ID] = why[c.Kind]
			left[c.Kind]++
			continue
		}
		label := c.Version
		if c.Kind == "gate" {
			label = c.Module
		}
		v, ok := versions[label]
		if !ok {
			fail("%s: module %q is not in the generated Go tree", c.ID, label)
		}
		ran[c.Kind]++
		if c.Kind == "gate" {
			policy := mcpruntime.Policy{
				Side:         mcpruntime.Side(c.Side),
				AcrossEras:   mcpruntime.AcrossEras{Pass: c.Policy.Later == "pass"},
				RefuseCustom: c.Policy.Custom == "refuse",
			}
			refusal := v.Refusal(c.Method, policy)
			if refusal == nil {
				results[c.ID] = nil
				continue
			}
			results[c.ID] = map[string]any{"code": refusal.Code(), "message": refusal.Message, "data": refusal.Data()}
			continue
		}
		out, err := v.NormalizeResult(c.Method, c.Input)
		if err == nil {
			results[c.ID] = map[string]any{"ok": out}
			continue
		}
		e, ok := err.(coded)
		if !ok {
			fail("%s: %v", c.ID, err)
		}
		results[c.ID] = map[string]any{"error": map[string]any{"code": e.Code(), "message": e.Error()}}
	}
	kinds := []string{}
	for _, c := range input.Cases {
		if ran[c.Kind]+left[c.Kind] > 0 && !slices.Contains(kinds, c.Kind) {
			kinds = append(kinds, c.Kind)
		}
	}
	slices.Sort(kinds)
	summary := []string{}
	for _, k := range kinds {
		line := fmt.Sprintf("go runs %d %s cases, skips %d", ran[k], k, left[k])
		if left[k] > 0 {
			line += " (" + why[k] + ")"
		}
		summary = append(summary, line)
	}
	text, err := json.Marshal(map[string]any{"results": results, "skipped": skipped, "summary": summary})
	if err != nil {
		fail("writing the answers: %v", err)
	}
	os.Stdout.Write(text)
}
