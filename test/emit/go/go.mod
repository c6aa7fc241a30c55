module mcpcodegen/goproof

go 1.23.0

require github.com/google/jsonschema-go v0.4.3 
