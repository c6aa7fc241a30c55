module mcpcodegen/runtimes/go

go 1.22

// The protocol module (protocol/protocol.go) is generated: here, for the runtime's own checks, it is the
// project's generated tree's; in a tree, the copy imports the tree's own (its module path rewritten).
require mcpcodegen v0.0.0

replace mcpcodegen => ../../generated/go
