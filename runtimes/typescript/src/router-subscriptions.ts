// Who takes the notifications `publish` sends: the modern subscriptions (`subscriptions/listen`, their
// SubscriptionFilter as the server honors it) and the legacy connections (the `list_changed`
// notifications their version's capabilities declare, the resources they subscribed to). The cost of
// a delivery is that of the connections it reaches, whatever the number of others.
import { SERVER_ERROR } from "../protocol.js";
import type { RequestContext } from "./dispatcher.js";
import { ErrorCode, isPlainObject, JsonRpcError } from "./jsonrpc.js";
import { LISTEN_LIMITS, META_CLIENT_CAPABILITIES, META_SUBSCRIPTION_ID, type ListChangedMethod } from "./router-api.js";
import { negotiated, type ServedExtension } from "./router-extensions.js";

/** Which SubscriptionFilter key asks for which notification. */
const filterKeys: Readonly<Record<ListChangedMethod, string>> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

/** The list_changed notifications, in filter order. */
export const LIST_CHANGED_METHODS = Object.keys(filterKeys) as ListChangedMethod[];

/** The SubscriptionFilter the server honors: the requested types its capabilities support (the schema says to omit the rest). */
export function honoredFilter(requested: Record<string, unknown>, capabilities: Record<string, unknown>): Record<string, unknown> {
  const flag = (name: string, key: string): boolean => {
    const c = capabilities[name];
    return isPlainObject(c) && c[key] === true;
  };
  const honored: Record<string, unknown> = {};
  if (requested.toolsListChanged === true && flag("tools", "listChanged")) honored.toolsListChanged = true;
  if (requested.promptsListChanged === true && flag("prompts", "listChanged")) honored.promptsListChanged = true;
  if (requested.resourcesListChanged === true && flag("resources", "listChanged")) honored.resourcesListChanged = true;
  if (Array.isArray(requested.resourceSubscriptions) && flag("resources", "subscribe")) {
    honored.resourceSubscriptions = requested.resourceSubscriptions.filter((uri): uri is string => typeof uri === "string");
  }
  return honored;
}

/** Whether a subscription of `filter` takes `method` with `params`. */
export function wants(filter: Record<string, unknown>, method: string, params: Record<string, unknown> | undefined): boolean {
  if (method === "notifications/resources/updated") {
    return Array.isArray(filter.resourceSubscriptions) && filter.resourceSubscriptions.includes(params?.uri);
  }
  const key = (filterKeys as Record<string, string | undefined>)[method];
  return key !== undefined && filter[key] === true;
}

type Deliver = (method: string, params: Record<string, unknown> | undefined) => Promise<void>;

/** A legacy connection as the audience reaches it. */
export interface Member {
  readonly deliver: Deliver;
}

interface Listener {
  readonly filter: Record<string, unknown>;
  readonly deliver: Deliver;
  readonly end: () => void;
}

/** The code a bound answers with (as the Tasks extension's bounds: an implementation-defined server error). */
const LIMIT_REACHED = SERVER_ERROR;

/** The listen-stream bounds (RouterOptions.maxListenStreamsPerPrincipal, maxListenStreams). */
export interface ListenLimits {
  readonly maxListenStreamsPerPrincipal?: number;
  readonly maxListenStreams?: number;
}

/** The subscriptions and legacy connections of one router, indexed by what they take. */
export class Audience {
  private readonly listeners = new Set<Listener>();
  private readonly maxPerPrincipal: number;
  private readonly maxListens: number;
  /** Listen streams open or opening: in all, and by principal (those with one). */
  private listening = 0;
  private readonly listeningOf = new Map<string, number>();

  constructor(limits: ListenLimits = {}) {
    this.maxPerPrincipal = limits.maxListenStreamsPerPrincipal ?? LISTEN_LIMITS.maxListenStreamsPerPrincipal;
    this.maxListens = limits.maxListenStreams ?? LISTEN_LIMITS.maxListenStreams;
  }

  /**
   * Take a listen stream's place under the bounds, synchronously (so concurrent listens cannot all pass),
   * or throw -32000 naming the bound; the returned function gives the place back.
   */
  reserve(principal: string | undefined): () => void {
    if (this.listening >= this.maxListens) throw new JsonRpcError(LIMIT_REACHED, `Too many listen streams: ${this.maxListens} are open (maxListenStreams)`);
    const mine = principal === undefined ? 0 : (this.listeningOf.get(principal) ?? 0);
    if (principal !== undefined && mine >= this.maxPerPrincipal) {
      throw new JsonRpcError(LIMIT_REACHED, `Too many listen streams: ${this.maxPerPrincipal} are open for this principal (maxListenStreamsPerPrincipal)`);
    }
    this.listening += 1;
    if (principal !== undefined) this.listeningOf.set(principal, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.listening -= 1;
      if (principal === undefined) return;
      const left = (this.listeningOf.get(principal) ?? 1) - 1;
      if (left === 0) this.listeningOf.delete(principal);
      else this.listeningOf.set(principal, left);
    };
  }
  /** Legacy connections by the notification they take: a list_changed method → those whose capabilities declare it; a resource uri → its subscribers. */
  private readonly listChanged = new Map<string, Set<Member>>();
  private readonly subscribers = new Map<unknown, Set<Member>>();

  private static join<K>(index: Map<K, Set<Member>>, key: K, member: Member): void {
    let set = index.get(key);
    if (set === undefined) index.set(key, (set = new Set()));
    set.add(member);
  }

  private static leave<K>(index: Map<K, Set<Member>>, key: K, member: Member): void {
    const set = index.get(key);
    if (set === undefined) return;
    set.delete(member);
    if (set.size === 0) index.delete(key);
  }

  /** A legacy connection takes the list_changed notifications its version's `capabilities` declare (`listChanged: true`). */
  joinListChanged(member: Member, capabilities: Record<string, unknown>): void {
    for (const method of LIST_CHANGED_METHODS) {
      const c = capabilities[method.split("/")[1]];
      if (isPlainObject(c) && c.listChanged === true) Audience.join(this.listChanged, method, member);
    }
  }

  subscribe(member: Member, uri: unknown): void {
    Audience.join(this.subscribers, uri, member);
  }

  unsubscribe(member: Member, uri: unknown): void {
    Audience.leave(this.subscribers, uri, member);
  }

  /** A legacy connection is gone: it takes nothing any more (`uris`: those it subscribed to). */
  remove(member: Member, uris: Iterable<unknown>): void {
    for (const method of LIST_CHANGED_METHODS) Audience.leave(this.listChanged, method, member);
    for (const uri of uris) Audience.leave(this.subscribers, uri, member);
  }

  /** A modern subscription takes what `filter` asks for until `end` (which the audience may call itself, at close). */
  listen(filter: Record<string, unknown>, deliver: Deliver, ended: () => void): { end(): void } {
    const listener: Listener = {
      filter,
      deliver,
      end: () => {
        if (!this.listeners.delete(listener)) return;
        ended();
      },
    };
    this.listeners.add(listener);
    return listener;
  }

  /** End every modern subscription (their `subscriptions/listen` results are sent). */
  endAll(): void {
    for (const listener of [...this.listeners]) listener.end();
  }

  /** Deliver a notification to the subscriptions and connections that take it; a failing delivery does not stop the others. */
  async deliver(method: string, params: Record<string, unknown> | undefined): Promise<void> {
    const deliveries: Promise<void>[] = [];
    const attempt = (deliver: () => Promise<void>): void => {
      try {
        deliveries.push(deliver());
      } catch (error) {
        deliveries.push(Promise.reject(error));
      }
    };
    for (const listener of this.listeners) if (wants(listener.filter, method, params)) attempt(() => listener.deliver(method, params));
    const reached = method === "notifications/resources/updated" ? this.subscribers.get(params?.uri) : this.listChanged.get(method);
    for (const member of reached ?? []) attempt(() => member.deliver(method, params));
    await Promise.allSettled(deliveries);
  }
}

/**
 * The `subscriptions/listen` handler of a modern version serving `capabilities` and `extensions`: it
 * acknowledges the honored filter (each served extension's part merged in, Tasks' taskIds), then holds
 * the request open, delivering what the audience publishes, until the client cancels it or the router closes.
 */
export function listenHandler(capabilities: Record<string, unknown>, extensions: ReadonlyArray<{ id: string; served: ServedExtension }>, audience: Audience) {
  const ids = extensions.map((e) => e.id);
  return async (params: { notifications?: unknown }, context: RequestContext): Promise<{ _meta: Record<string, unknown> }> => {
    if (!isPlainObject(params.notifications)) throw new JsonRpcError(ErrorCode.InvalidParams, "Invalid params: subscriptions/listen requires notifications (a SubscriptionFilter)");
    const release = audience.reserve(context.principal);
    try {
      return await stream(params.notifications, context);
    } finally {
      release();
    }
  };

  /** One listen stream, from its acknowledgement until the request ends: its result. */
  async function stream(notifications: Record<string, unknown>, context: RequestContext): Promise<{ _meta: Record<string, unknown> }> {
    const tag = { [META_SUBSCRIPTION_ID]: context.requestId };
    const filter = honoredFilter(notifications, capabilities);
    const deliver = (method: string, params: Record<string, unknown> | undefined) => context.notify(method, { ...params, _meta: { ...(isPlainObject(params?._meta) ? params._meta : {}), ...tag } });
    // Each served extension's part of the filter (Tasks: taskIds), delivered on the same stream.
    const agreed = negotiated(context._meta, META_CLIENT_CAPABILITIES, ids);
    const parts: Array<{ honored: Record<string, unknown>; stop(): void }> = [];
    try {
      for (const e of extensions) {
        const part = await e.served.listen?.(notifications, deliver, agreed.has(e.id), context);
        if (part !== undefined) parts.push(part);
      }
    } catch (error) {
      for (const part of parts) part.stop();
      throw error;
    }
    for (const part of parts) Object.assign(filter, part.honored);
    // The acknowledgement is the first message carrying the subscription id (the schema says so).
    await context.notify("notifications/subscriptions/acknowledged", { notifications: filter, _meta: tag });
    await new Promise<void>((resolve) => {
      const listener = audience.listen(filter, deliver, () => {
        for (const part of parts) part.stop();
        resolve();
      });
      if (context.signal.aborted) listener.end();
      else context.signal.addEventListener("abort", () => listener.end(), { once: true });
    });
    return { _meta: tag };
  }
}
