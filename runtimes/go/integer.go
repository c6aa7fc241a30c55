package mcpruntime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
)

// Integer is a JSON integer of any size, kept as its JSON text: JSON Schema's integer, which counts
// 1.0 and 1e21 as integers too, so a decoded value encodes as the same number. Int64 reads it.
type Integer string

// IntegerOf is n as an Integer.
func IntegerOf(n int64) Integer { return Integer(strconv.FormatInt(n, 10)) }

// UnmarshalJSON accepts a JSON number whose value is integral.
func (i *Integer) UnmarshalJSON(data []byte) error {
	text := bytes.TrimSpace(data)
	if len(text) == 0 || !(text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) || !json.Valid(text) {
		return fmt.Errorf("expected an integer, got %s", describe(text))
	}
	r, ok := new(big.Rat).SetString(string(text))
	if !ok || !r.IsInt() {
		return fmt.Errorf("expected an integer, got %s", text)
	}
	*i = Integer(text)
	return nil
}

// MarshalJSON writes the integer's text (the zero value is 0).
func (i Integer) MarshalJSON() ([]byte, error) {
	if i == "" {
		return []byte("0"), nil
	}
	if _, err := i.Rat(); err != nil {
		return nil, err
	}
	return []byte(i), nil
}

// Rat is the integer's exact value.
func (i Integer) Rat() (*big.Rat, error) {
	if i == "" {
		return new(big.Rat), nil
	}
	r, ok := new(big.Rat).SetString(string(i))
	if !ok || !r.IsInt() {
		return nil, fmt.Errorf("%q is not an integer", string(i))
	}
	return r, nil
}

// Int64 is the integer's value, or an error when it does not fit an int64.
func (i Integer) Int64() (int64, error) {
	r, err := i.Rat()
	if err != nil {
		return 0, err
	}
	if !r.Num().IsInt64() {
		return 0, fmt.Errorf("%s does not fit an int64", string(i))
	}
	return r.Num().Int64(), nil
}
