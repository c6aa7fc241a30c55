module mcpcodegen/runtimes/go

go 1.22
