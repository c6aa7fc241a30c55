// The protocol module the runtime's sources import as `../protocol.js`. In a generated tree that path is
// the tree's own protocol.ts, printed from the model beside runtime/; here, for the runtime's own checks
// and unit tests, it is this file, which re-exports the project's generated tree's. Not copied.
export * from "../../generated/protocol.js";
