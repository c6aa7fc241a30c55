// The TypeScript SDK adoption's validation policy (hand-written; copied, as it is, into the TypeScript tree's
// typescript-sdk/ folder): the counterpart of the Python runtime's ValidationPolicy. The generated zod schemas
// (`<version>/schemas.ts`) validate exactly as the schema does; the SDK's own choices are options here, each
// off in `EXACT`, applied to a copy of an era's named schemas (the generated objects are never changed).
// It imports only zod (the SDK's `zod/v4` is the same module) and the table types of sdk-policy.ts.
import * as z from "zod";
import type { WireEra } from "./sdk-policy.js";

/**
 * A member's replacement value, by definition then member: `{ CallToolResult: { content: [] } }`; the
 * definition `*` stands for every object definition with that member (`{ "*": { ttlMs: 0 } }`).
 */
export type MemberValues = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** The SDK's validation choices where they differ from the schema, each off (absent) by default. */
export interface ValidationPolicy {
  /**
   * Request and notification schemas validate a message's `method` and `params` only: the JSON-RPC framing
   * (`jsonrpc`, `id`), which the SDK checks with its own envelope schemas first, is left out of them.
   */
  readonly unframed?: boolean;
  /** A request's or notification's unknown members, and its params' unknown members, are dropped (the schema keeps them). */
  readonly stripUnknownParams?: boolean;
  /** Definitions whose unknown members are dropped (the schema keeps them): `["ClientCapabilities"]`. */
  readonly stripUnknown?: readonly string[];
  /** `EmptyResultSchema` rejects every member but `_meta` (the schema's EmptyResult is any Result). */
  readonly strictEmptyResult?: boolean;
  /** A missing member takes this value (`CallToolResult.content` → `[]`). */
  readonly defaults?: MemberValues;
  /** A member whose value does not validate takes this value instead of failing the whole (`ttlMs` → `0`). */
  readonly catches?: MemberValues;
  /** Members lifted off a result or params before validation (the 2026 `_meta` envelope keys, `resultType`). */
  readonly lifted?: { readonly members?: readonly string[]; readonly metaKeys?: readonly string[] };
  /** Protocol versions validated with another version's table (every legacy version with `2025-11-25`). */
  readonly servedBy?: Readonly<Record<string, string>>;
}

/** The schema's behaviour: no option selected. */
export const EXACT: ValidationPolicy = {};

type Schemas = Readonly<Record<string, unknown>>;

function objectOf(schema: unknown): z.ZodObject | undefined {
  return schema instanceof z.ZodObject ? schema : undefined;
}

/** The object schema `schema` is, or is optionally; undefined for anything else. */
function innerObject(schema: unknown): z.ZodObject | undefined {
  return schema instanceof z.ZodOptional ? objectOf(schema.unwrap()) : objectOf(schema);
}

/** `schema` (an object, or an optional object) with `change` applied to its object, optional still; anything else as it is. */
function reshaped(schema: z.ZodType, change: (object: z.ZodObject) => z.ZodObject): z.ZodType {
  const inner = innerObject(schema);
  if (inner === undefined) return schema;
  return schema instanceof z.ZodOptional ? change(inner).optional() : change(inner);
}

/** An object schema of `shape` that treats unknown members as `like` does (its catchall, if any). */
function withShape(shape: Record<string, z.ZodType>, like: z.ZodObject): z.ZodObject {
  const catchall = like.def.catchall;
  return catchall === undefined ? z.object(shape) : z.object(shape).catchall(catchall);
}

/** `schema` (an object, or an optional object) with unknown members dropped; anything else as it is. */
function stripped(schema: z.ZodType): z.ZodType {
  return reshaped(schema, (object) => z.object(object.shape));
}

/** A request or notification schema under the policy. */
function message(schema: z.ZodObject, policy: ValidationPolicy): z.ZodObject {
  const shape: Record<string, z.ZodType> = { ...(schema.shape as Record<string, z.ZodType>) };
  if (policy.unframed) {
    delete shape["jsonrpc"];
    delete shape["id"];
  }
  if (!policy.stripUnknownParams) return withShape(shape, schema);
  if (shape["params"] !== undefined) shape["params"] = stripped(shape["params"]);
  return z.object(shape);
}

/** `schema` with its members' defaults and catches. */
function withMembers(schema: z.ZodObject, defaults: Readonly<Record<string, unknown>>, catches: Readonly<Record<string, unknown>>): z.ZodObject {
  const shape = schema.shape as Record<string, z.ZodType>;
  const changed: Record<string, z.ZodType> = {};
  for (const [member, value] of Object.entries(defaults)) if (shape[member] !== undefined) changed[member] = shape[member].default(value as never);
  for (const [member, value] of Object.entries(catches)) if (shape[member] !== undefined) changed[member] = (changed[member] ?? shape[member]).catch(value as never);
  return schema.extend(changed);
}

/** The entries of `values` whose member `schema` has. */
function pickMembers(values: Readonly<Record<string, unknown>>, schema: z.ZodObject): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([member]) => Object.prototype.hasOwnProperty.call(schema.shape, member)));
}

/** `schema` with each member that is (or optionally is) a replaced schema replaced, or undefined when none is. */
function withReplacedMembers(schema: z.ZodObject, replaced: ReadonlyMap<unknown, z.ZodType>): z.ZodObject | undefined {
  const changed: Record<string, z.ZodType> = {};
  for (const [member, value] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const direct = replaced.get(value);
    if (direct !== undefined && direct !== value) changed[member] = direct;
    else if (value instanceof z.ZodOptional) {
      const inner = replaced.get(value.unwrap());
      if (inner !== undefined) changed[member] = inner.optional();
    }
  }
  return Object.keys(changed).length === 0 ? undefined : schema.extend(changed);
}

/** A union rebuilt over its options' replacements, or undefined when no option was replaced. */
function rebuiltUnion(schema: unknown, replaced: ReadonlyMap<unknown, z.ZodType>): z.ZodType | undefined {
  if (!(schema instanceof z.ZodUnion)) return undefined;
  const options = schema.options as readonly z.ZodType[];
  if (!options.some((o) => replaced.has(o))) return undefined;
  const next = options.map((o) => replaced.get(o) ?? o) as [z.ZodType, ...z.ZodType[]];
  if (schema instanceof z.ZodDiscriminatedUnion) {
    return z.discriminatedUnion(schema.def.discriminator, next as unknown as [z.ZodObject, ...z.ZodObject[]]);
  }
  return z.union(next);
}

/**
 * An era's named schemas (`<Definition>Schema`) under `policy`, as a new record; `era` names the era's request
 * and notification definitions. A replaced schema is replaced wherever a union of the record holds it (the role
 * unions `ClientRequestSchema`, …); EmptyResult alone is replaced by name (the schema's EmptyResult is Result
 * itself, which the other results compose). With `EXACT` the record is returned as it is.
 */
export function applyValidationPolicy<S extends Schemas>(schemas: S, era: WireEra, policy: ValidationPolicy): S {
  const out: Record<string, unknown> = { ...schemas };
  const replaced = new Map<unknown, z.ZodType>();
  const replace = (name: string, next: z.ZodType) => {
    replaced.set(schemas[name], next);
    out[name] = next;
  };
  if (policy.unframed || policy.stripUnknownParams) {
    const rows = [...Object.values(era.requests), ...Object.values(era.notifications)];
    for (const name of new Set(rows.map((r) => `${r.definition}Schema`))) {
      const own = objectOf(schemas[name]);
      if (own !== undefined) replace(name, message(own, policy));
    }
  }
  for (const definition of policy.stripUnknown ?? []) {
    const own = objectOf(schemas[`${definition}Schema`]);
    if (own !== undefined) replace(`${definition}Schema`, z.object(own.shape));
  }
  const every = (values: MemberValues | undefined) => values?.["*"] ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    const own = objectOf(out[name]);
    if (own === undefined || !name.endsWith("Schema")) continue;
    const definition = name.slice(0, -"Schema".length);
    const pick = (values: MemberValues | undefined) => ({ ...pickMembers(every(values), own), ...(values?.[definition] ?? {}) });
    const [defaults, catches] = [pick(policy.defaults), pick(policy.catches)];
    if (Object.keys(defaults).length > 0 || Object.keys(catches).length > 0) {
      replaced.set(schema, withMembers(own, defaults, catches));
      out[name] = replaced.get(schema);
    }
  }
  // An object holding a replaced schema as a member (or an optional member) holds the replacement, to a fixpoint.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, schema] of Object.entries(out)) {
      const own = objectOf(schema);
      if (own === undefined) continue;
      const next = withReplacedMembers(own, replaced);
      if (next === undefined) continue;
      const original = schemas[name];
      replaced.set(original, next);
      if (schema !== original) replaced.set(schema, next);
      out[name] = next;
      changed = true;
    }
  }
  for (const [name, schema] of Object.entries(schemas)) {
    const union = rebuiltUnion(schema, replaced);
    if (union !== undefined) out[name] = union;
  }
  if (policy.strictEmptyResult) {
    const own = objectOf(schemas["EmptyResultSchema"]);
    if (own !== undefined) out["EmptyResultSchema"] = z.strictObject(own.shape);
  }
  return out as S;
}

/** `schema` without `members` (an object, or an optional object; anything else as it is). */
function without(schema: z.ZodType, members: readonly string[]): z.ZodType {
  return reshaped(schema, (object) => {
    const shape: Record<string, z.ZodType> = { ...(object.shape as Record<string, z.ZodType>) };
    for (const member of members) delete shape[member];
    return withShape(shape, object);
  });
}

/** An object schema whose every member is optional (it accepts `{}`). */
function allOptional(schema: z.ZodObject): boolean {
  return Object.values(schema.shape as Record<string, z.ZodType>).every((m) => m.safeParse(undefined).success);
}

/**
 * What `schema` validates once the policy's `lifted` members and `_meta` keys are taken off a value (`liftOff`):
 * a result without those members; a request's or notification's params whose `_meta` lacks those keys, `_meta`
 * optional when nothing it requires is left, and `params` optional when nothing they require is left. The
 * member schemas that remain are the same objects. With no `lifted` option, `schema` itself.
 */
export function liftedSchema(schema: unknown, policy: ValidationPolicy): z.ZodType {
  const own = objectOf(schema);
  if (own === undefined || policy.lifted === undefined) return schema as z.ZodType;
  const shape: Record<string, z.ZodType> = { ...(own.shape as Record<string, z.ZodType>) };
  for (const member of policy.lifted.members ?? []) delete shape[member];
  const params = shape["params"];
  const paramsObject = innerObject(params);
  if (params !== undefined && paramsObject !== undefined) {
    const inner: Record<string, z.ZodType> = { ...(paramsObject.shape as Record<string, z.ZodType>) };
    const meta = inner["_meta"];
    if (meta !== undefined) {
      const rest = without(meta, policy.lifted.metaKeys ?? []);
      const restObject = innerObject(rest);
      inner["_meta"] = restObject !== undefined && allOptional(restObject) && !(rest instanceof z.ZodOptional) ? rest.optional() : rest;
    }
    const lifted = withShape(inner, paramsObject);
    shape["params"] = allOptional(lifted) ? lifted.optional() : lifted;
  }
  return withShape(shape, own);
}

/** `value` without the policy's lifted members and `_meta` keys (a `_meta` left empty goes too); others as they are. */
export function liftOff(value: unknown, policy: ValidationPolicy): unknown {
  if (policy.lifted === undefined || typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const member of policy.lifted.members ?? []) delete out[member];
  const meta = out["_meta"];
  if ((policy.lifted.metaKeys ?? []).length > 0 && typeof meta === "object" && meta !== null && !Array.isArray(meta)) {
    const rest: Record<string, unknown> = { ...(meta as Record<string, unknown>) };
    for (const key of policy.lifted.metaKeys ?? []) delete rest[key];
    if (Object.keys(rest).length === 0) delete out["_meta"];
    else out["_meta"] = rest;
  }
  return out;
}

/** The version whose table validates `version`: the policy's `servedBy` entry, else the version itself. */
export function servingVersion(version: string, policy: ValidationPolicy): string {
  return policy.servedBy !== undefined && Object.prototype.hasOwnProperty.call(policy.servedBy, version) ? policy.servedBy[version]! : version;
}
