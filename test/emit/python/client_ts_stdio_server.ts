// The TypeScript conformance router (test/conformance/server.ts, both eras) served over the generated stdio
// transport, for the Python client's tests (client.test.ts): `tsx client_ts_stdio_server.ts`.
import { serveStdio } from "../../../generated/runtime/transport-stdio.js";
import { createConformanceRouter } from "../../conformance/server.js";

serveStdio(createConformanceRouter());
