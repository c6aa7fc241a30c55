// Cross-language: the generated Python router (mcp_codegen.router) answers a corpus of messages as the
// generated TypeScript router (generated/router.ts's createServerRouter) does, with equivalent handlers,
// at every locked version: valid requests, handler failures, notifications, cancellations (notifications/cancelled, in and out of scope, and the transport giving a
// request up), modern envelopes, server/discover, an unserved modern version, listen with publish and its
// bounds, the log gate, server→client requests, progress. The answers, what each peer was sent, the
// failures reported and the requests left in flight are compared as JSON text. Invalid params by schema
// agree on the code and the failing JSON pointers (data.paths); their message text names pydantic's or
// zod's words, which differ (as in cross-language.test.ts of the dispatcher).
import { describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile } from "../../support.js";
import { comparable, corpora, runPython, runTypeScript } from "./router-scenarios.js";
import { versionView } from "./support.js";

const lock = await readLock(lockFile);
const labels = Object.keys(lock.versions).sort();
const eraOf = async (label: string): Promise<string> => ((await import(`../../../generated/${label}/index.ts`)) as { era: string }).era;
const eras = Object.fromEntries(await Promise.all(labels.map(async (l) => [l, await eraOf(l)] as const)));
const legacyLabels = labels.filter((l) => eras[l] === "legacy");
const modernLabels = labels.filter((l) => eras[l] === "modern");
const { legacyCorpus, modernCorpus } = corpora(eras);

describe("the Python router answers as the TypeScript one", () => {
  it.each(legacyLabels)("legacy connection initialized at %s", async (label) => {
    const scenario = legacyCorpus(label, (await versionView(label)).METHOD_TABLE["notifications/cancelled"]?.status === "present");
    const ts = await runTypeScript(scenario);
    const py = runPython(scenario);
    // Something was answered and sent: the corpus reached the handlers.
    expect(ts.answers.filter((a) => a !== null).length).toBeGreaterThan(12);
    expect((ts.sent.c ?? []).length).toBeGreaterThan(3);
    expect(comparable(py)).toBe(comparable(ts));
  });

  it.each(modernLabels)("modern requests at %s", async (label) => {
    const scenario = modernCorpus(label);
    const ts = await runTypeScript(scenario);
    const py = runPython(scenario);
    expect(ts.answers.filter((a) => a !== null).length).toBeGreaterThan(20);
    expect(Object.keys(ts.sent).length).toBeGreaterThan(3);
    expect(comparable(py)).toBe(comparable(ts));
  });
});
