package mcpruntime

import (
	"encoding/json"
	"fmt"
	"strings"

	"mcpcodegen/protocol"
)

// ParamsRow is a method table row's params column.
type ParamsRow struct {
	Definition *string `json:"definition"`
	Required   bool    `json:"required"`
}

// RowNormalizer is a method table row's normalizer column: the result shape ("empty" or "object") and the
// resultType values (the default first; nil in the legacy era).
type RowNormalizer struct {
	Shape       string   `json:"shape"`
	ResultTypes []string `json:"resultTypes"`
}

// Verdict is a method table row's verdict on the method arriving at one side: accepted, or the refusal
// (the JSON-RPC error's code and message, data.reason, and the gate policy that may let the method
// through: "custom", "later", or nil for none). The model decides it; the gate looks it up.
type Verdict struct {
	Accepted bool    `json:"accepted"`
	Code     int     `json:"code"`
	Reason   string  `json:"reason"`
	Message  string  `json:"message"`
	Policy   *string `json:"policy"`
}

// MarshalJSON writes the verdict as the table prints it: {"accepted":true}, or the whole refusal.
func (v Verdict) MarshalJSON() ([]byte, error) {
	if v.Accepted {
		return []byte(`{"accepted":true}`), nil
	}
	type refusal Verdict
	return json.Marshal(refusal(v))
}

// Verdicts is a method table row's verdicts column: the verdict at each receiving side.
type Verdicts struct {
	Client Verdict `json:"client"`
	Server Verdict `json:"server"`
}

// unknownVerdict is the gate's verdict on a method no row names: the protocol module's UnknownMethod (the
// model's; its message's {method} and {protocolVersion} are filled by Refusal).
func unknownVerdict() Verdict {
	u := protocol.UnknownMethod
	var policy *string
	if u.Policy != "" {
		policy = &u.Policy
	}
	return Verdict{Accepted: u.Accepted, Code: u.Code, Reason: u.Reason, Message: u.Message, Policy: policy}
}

// MethodRow is one row of a version's method table; its JSON is the row `mcp-codegen table --format json`
// prints (`mcp-codegen table --help` says what each column means).
type MethodRow struct {
	Kind           string         `json:"kind"`
	Status         string         `json:"status"`
	Nearest        *string        `json:"nearest"`
	Since          *string        `json:"since"`
	OtherEra       bool           `json:"otherEra"`
	Extensions     []string       `json:"extensions"`
	Sender         string         `json:"sender"`
	Receivers      []string       `json:"receivers"`
	Verdicts       Verdicts       `json:"verdicts"`
	Params         *ParamsRow     `json:"params"`
	Results        []string       `json:"results"`
	Normalizer     *RowNormalizer `json:"normalizer"`
	ResultTypes    []string       `json:"resultTypes"`
	Capabilities   [][]string     `json:"capabilities"`
	NameParam      *string        `json:"nameParam"`
	TaskResult     *string        `json:"taskResult"`
	TaskCapability []string       `json:"taskCapability"`
	Paginated      bool           `json:"paginated"`
}

// MethodTable is a version's method table: method → row.
type MethodTable map[string]MethodRow

// Str is a pointer to s (the table's nullable text columns).
func Str(s string) *string { return &s }

// Side is the side a method arrives at: the server (sent by a client) or the client (sent by a server).
type Side string

// The two sides.
const (
	ServerSide Side = "server"
	ClientSide Side = "client"
)

// AcrossEras is what a gate does with a method the negotiated version lacks but another generated version has.
type AcrossEras struct {
	// Pass lets methods only later versions have through like unknown ones (removed ones are still refused).
	Pass bool `json:"pass"`
	// Serve lists methods served on every version whatever it says (only when Pass is false).
	Serve []string `json:"serve"`
}

// Policy is a gate's policy.
type Policy struct {
	Side       Side       `json:"side"`
	AcrossEras AcrossEras `json:"acrossEras"`
	// RefuseCustom refuses a method no generated version has (by default it passes to its host).
	RefuseCustom bool `json:"refuseCustom"`
}

// MethodNotFound is the gate's refusal: the verdict's JSON-RPC error (-32601) with its data.
type MethodNotFound struct {
	Method          string
	ProtocolVersion string
	// Reason is unknown, wrong_side, removed or other_era.
	Reason  string
	Message string
	// ErrorCode is the verdict's JSON-RPC error code.
	ErrorCode int
}

// Code is the JSON-RPC error code, the verdict's.
func (e *MethodNotFound) Code() int { return e.ErrorCode }

func (e *MethodNotFound) Error() string { return e.Message }

// Data is the error's data member.
func (e *MethodNotFound) Data() map[string]string {
	return map[string]string{"method": e.Method, "protocolVersion": e.ProtocolVersion, "reason": e.Reason}
}

// Refusal is the gate's answer for method arriving over a connection of version (whose table is table):
// nil lets it through. A lookup: the row's verdict at policy.Side, else unknownVerdict (the verdict on a method
// no row names, its message's {method} and {protocolVersion} filled); then the policy: AcrossEras.Serve
// for a method another version has (the row's nearest), and the verdict's own policy ("custom":
// RefuseCustom; "later": AcrossEras.Pass).
func Refusal(table MethodTable, version, method string, policy Policy) *MethodNotFound {
	row, named := table[method]
	verdict := unknownVerdict()
	if named {
		verdict = row.Verdicts.Server
		if policy.Side == ClientSide {
			verdict = row.Verdicts.Client
		}
	}
	if verdict.Accepted {
		return nil
	}
	if named && row.Nearest != nil && !policy.AcrossEras.Pass && contains(policy.AcrossEras.Serve, method) {
		return nil
	}
	if verdict.Policy != nil && ((*verdict.Policy == "custom" && !policy.RefuseCustom) || (*verdict.Policy == "later" && policy.AcrossEras.Pass)) {
		return nil
	}
	message := verdict.Message
	if !named {
		message = strings.NewReplacer("{method}", method, "{protocolVersion}", version).Replace(message)
	}
	return &MethodNotFound{Method: method, ProtocolVersion: version, Reason: verdict.Reason, Message: message, ErrorCode: verdict.Code}
}

// ResultError is a handler's return that cannot be its method's result: JSON-RPC's internal error.
type ResultError struct{ Message string }

func (e *ResultError) Error() string { return e.Message }

// Code is the JSON-RPC error code, protocol.InternalError.
func (e *ResultError) Code() int { return protocol.InternalError }

// EmptyResult is the result of a request whose result carries only `_meta`: `{"_meta": meta}` when the
// handler's return is an object whose `_meta` is an object, else `{}`; with `resultType` set to
// resultTypes[0] when resultTypes is not nil (the modern era). Everything else of the return is dropped.
func EmptyResult(value json.RawMessage, resultTypes []string) (json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	if m, err := DecodeObject(value, "result"); err == nil {
		if meta, ok := m["_meta"]; ok {
			if _, err := DecodeObject(meta, "_meta"); err == nil {
				out["_meta"] = meta
			}
		}
	}
	if resultTypes != nil {
		out["resultType"], _ = json.Marshal(resultTypes[0])
	}
	return json.Marshal(out)
}

// ObjectResult is the result of a request whose result is an object: the handler's members without
// null values and without a `_meta` that is not an object; with resultTypes (the modern era) a
// `resultType` defaulted to resultTypes[0] and refused when not among them. A return that is not an
// object is a ResultError.
func ObjectResult(value json.RawMessage, method, expected string, resultTypes []string) (json.RawMessage, error) {
	m, err := DecodeObject(value, "result")
	if err != nil {
		return nil, &ResultError{Message: fmt.Sprintf("Internal error: the %s handler returned %s; expected %s", method, describe(value), expected)}
	}
	out := map[string]json.RawMessage{}
	for key, raw := range m {
		if IsNull(raw) {
			continue
		}
		if key == "_meta" {
			if _, err := DecodeObject(raw, "_meta"); err != nil {
				continue
			}
		}
		out[key] = raw
	}
	if resultTypes == nil {
		return json.Marshal(out)
	}
	given, ok := out["resultType"]
	if !ok {
		out["resultType"], _ = json.Marshal(resultTypes[0])
		return json.Marshal(out)
	}
	var s string
	if json.Unmarshal(given, &s) != nil || !contains(resultTypes, s) {
		return nil, &ResultError{Message: fmt.Sprintf("Internal error: the %s handler returned resultType %s; expected %s with resultType %v", method, given, expected, resultTypes)}
	}
	return json.Marshal(out)
}

// MustTable reads a method table printed as JSON by the generator (it panics only on text the
// generator did not print).
func MustTable(text string) MethodTable {
	var t MethodTable
	if err := json.Unmarshal([]byte(text), &t); err != nil {
		panic("mcpruntime: a generated method table does not read: " + err.Error())
	}
	return t
}

// UnknownRequest is the error for normalizing a method that is not a request of the version.
func UnknownRequest(method, version string) error {
	return fmt.Errorf("%q is not a request of protocol version %s", method, version)
}
