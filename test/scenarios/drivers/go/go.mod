module scenariodriver

go 1.22

// The generated Go tree of the project (generated/go), as committed.
require mcpcodegen v0.0.0

replace mcpcodegen => ../../../../generated/go
