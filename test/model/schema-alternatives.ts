// What a definition of a schema file allows at its root, read from the file itself (never the model): the
// independent oracle the projection tests hold every interpreter's output to.

type RawSchema = Record<string, unknown>;

/**
 * One object alternative a definition allows: the members it declares and requires, whether it is left open
 * (`additionalProperties` other than false), and its `content` member's schema.
 */
export interface Alternative {
  declared: Set<string>;
  required: Set<string>;
  open: boolean;
  content: RawSchema | undefined;
}

/**
 * The object alternatives a schema allows: `$ref`s followed, `allOf` parts merged, each `anyOf`/`oneOf` branch
 * an alternative of its own (an early draft's CallToolResult is a union of an unstructured and a structured
 * result).
 */
export function alternatives(defs: Readonly<Record<string, RawSchema>>, schema: RawSchema, seen: ReadonlySet<string> = new Set()): Alternative[] {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop()!;
    const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref"));
    return seen.has(name) ? [] : combine(alternatives(defs, defs[name], new Set([...seen, name])), alternatives(defs, rest, seen));
  }
  const props = (schema.properties as Record<string, RawSchema> | undefined) ?? {};
  let out: Alternative[] = [
    {
      declared: new Set(Object.keys(props)),
      required: new Set((schema.required as string[] | undefined) ?? []),
      open: schema.additionalProperties !== undefined && schema.additionalProperties !== false,
      content: props.content,
    },
  ];
  for (const part of (schema.allOf as RawSchema[] | undefined) ?? []) out = combine(out, alternatives(defs, part, seen));
  for (const key of ["anyOf", "oneOf"]) {
    const branches = (schema[key] as RawSchema[] | undefined) ?? [];
    if (branches.length > 0) out = combine(out, branches.flatMap((b) => alternatives(defs, b, seen)));
  }
  return out;
}

/** Every pairing of one alternative of each side, merged (an `allOf` of both). */
function combine(left: Alternative[], right: Alternative[]): Alternative[] {
  return left.flatMap((a) =>
    right.map((b) => ({ declared: new Set([...a.declared, ...b.declared]), required: new Set([...a.required, ...b.required]), open: a.open || b.open, content: b.content ?? a.content })),
  );
}

/** Whether a value's root members are those of some alternative (or it lands in an open one). */
export function fitsSome(alts: readonly Alternative[], value: object): boolean {
  const keys = Object.keys(value);
  return alts.some((a) => a.open || keys.every((k) => a.declared.has(k)));
}

/** Whether a raw definition leaves its root open on purpose (`additionalProperties` other than false), following `$ref` and `allOf`. */
export function openRoot(defs: Readonly<Record<string, RawSchema>>, schema: RawSchema): boolean {
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return true;
  if (((schema.allOf as RawSchema[] | undefined) ?? []).some((part) => openRoot(defs, part))) return true;
  return typeof schema.$ref === "string" && openRoot(defs, defs[schema.$ref.split("/").pop()!]);
}

/** The content block `type`s any of the result definitions `results` allows in its `content` member. */
export function resultContentTypes(defs: Readonly<Record<string, RawSchema>>, results: readonly string[]): Set<string> {
  return new Set(results.flatMap((name) => alternatives(defs, defs[name]).flatMap((a) => (a.content ? [...contentTypes(defs, a.content)] : []))));
}

/** The `type` constants of a `content` member's items (`$ref`, `anyOf`/`oneOf` followed). */
function contentTypes(defs: Readonly<Record<string, RawSchema>>, content: RawSchema): Set<string> {
  const out = new Set<string>();
  const resolve = (s: RawSchema): RawSchema => (typeof s.$ref === "string" ? resolve(defs[s.$ref.split("/").pop()!]) : s);
  const walk = (s: RawSchema) => {
    const r = resolve(s);
    for (const key of ["anyOf", "oneOf"]) for (const b of (r[key] as RawSchema[] | undefined) ?? []) walk(b);
    const t = (r.properties as Record<string, RawSchema> | undefined)?.type;
    if (t?.const !== undefined) out.add(String(t.const));
    for (const e of (t?.enum as unknown[] | undefined) ?? []) out.add(String(e));
  };
  const items = resolve(content).items;
  if (items) walk(items as RawSchema);
  return out;
}

/** Whether `pointer` names a place in `value` (or a member of an object there, for a required member it lacks). */
export function pointsInto(value: unknown, pointer: string): boolean {
  if (pointer === "") return true;
  if (!pointer.startsWith("/")) return false;
  const tokens = pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  let at: unknown = value;
  for (const [i, t] of tokens.entries()) {
    if (typeof at !== "object" || at === null) return false;
    if (!Object.hasOwn(at, t)) return i === tokens.length - 1 && !Array.isArray(at);
    at = (at as Record<string, unknown>)[t];
  }
  return true;
}
