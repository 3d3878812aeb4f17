/**
 * The fast path's servers: minted once per (blueprint, selection, revision,
 * client identity) and kept connected to a {@link SharedExchangeTransport}
 * (2026-07-28) or a {@link LegacyExchangeTransport} (2025 stateless),
 * instead of once per request. Found by blueprint (weakly, so a rebuilt
 * blueprint's servers go with it) and bounded in total: a client can make
 * a new blueprint per request (a view per `tools=` value, `toolView.ts`),
 * so past {@link MAX_SHARED_SERVERS} the least recently used server is let
 * go — closed once no exchange is in flight on it — and nothing here keeps
 * its blueprint alive. Closed with the app.
 */
import { JsonTexts } from '../../../kernel/jsonTexts.js';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Blueprint } from '../../../host/build/blueprint.js';
import type { BuiltServer } from '../../../host/build/builtServer.js';
import type { EncodedAnswer } from './encodedAnswer.js';
import type { HostStats } from '../../../kernel/stats.js';
import { selectionToQuery, type Selection } from '../../../selection/selection.js';
import { buildContextWithoutSpreads } from './handlerContext.js';
import { keepEnvelopeChecks } from './envelopeCheck.js';
import { leanDispatch } from './leanDispatch.js';
import { installLeanToolsCall, leanToolsCallOf } from './leanToolsCall.js';
import { advertiseListChanged } from '../listChanged.js';
import { LegacyExchangeTransport } from './legacyExchange.js';
import { abortHandler, requestDelivery, seedClientIdentity, serveModernRevision, SharedExchangeTransport } from './sharedExchange.js';

/** The `revision` under which 2025 stateless requests share a server (no revision is negotiated: the server is never initialized). */
export const LEGACY_STATELESS = '2025 stateless';

/** One shared server and its transport. */
export interface SharedServer {
  readonly server: McpServer;
  readonly transport: SharedExchangeTransport | LegacyExchangeTransport;
  /** Aborts the handler of an exchange whose client went away. */
  abort(id: string | number): void;
  /** Per shared server: `tools/list` answers already encoded, by their params (see `serve/http/fast/fastPath.ts`). */
  readonly encoded: Map<string, EncodedAnswer>;
}

/** What the envelope of a request says about its client. */
export interface ClientIdentity {
  readonly clientInfo: unknown;
  readonly clientCapabilities: unknown;
}

/** How many selections' queries {@link RecentQueries} keeps. */
const RECENT_QUERIES = 8;

/**
 * The canonical queries of the selections seen last, as JSON text (a shared
 * server's key begins with it), found by identity: the app hands every
 * request of one URL the same (memoized) selection, and the query's sorting
 * and percent-encoding cost a request more than the rest of its server's key.
 * A ring, not a `WeakMap`: a selection made per request (a header decides it)
 * would add an entry on every request, which the garbage collector pays for;
 * here it only takes a slot. Selections are not changed once made (their sets
 * are read-only).
 */
export class RecentQueries {
  readonly #selections: Array<Selection | undefined> = new Array<Selection | undefined>(RECENT_QUERIES).fill(undefined);
  readonly #texts: string[] = new Array<string>(RECENT_QUERIES).fill('""');
  #next = 0;

  /** `JSON.stringify(selectionToQuery(selection))`, written once for a selection seen again. */
  textOf(selection: Selection): string {
    for (let i = 0; i < RECENT_QUERIES; i++) if (this.#selections[i] === selection) return this.#texts[i]!;
    const text = JSON.stringify(selectionToQuery(selection));
    this.#selections[this.#next] = selection;
    this.#texts[this.#next] = text;
    this.#next = (this.#next + 1) % RECENT_QUERIES;
    return text;
  }
}

/** The JSON text of the revisions a shared server is keyed by (the fast path's two constants), made once. */
const REVISION_TEXTS = new JsonTexts(8);

/**
 * An identity member's JSON text, as `JSON.stringify([…])` writes it in an
 * array: `null` for none, `{}` for an empty plain object (most clients'
 * capabilities in a stateless call) without asking `JSON.stringify`.
 */
function identityText(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && !hasOwnKeys(value) && (value as { toJSON?: unknown }).toJSON === undefined) return '{}';
  return JSON.stringify(value) ?? 'null';
}

function hasOwnKeys(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/** More identities than this per blueprint (a client varying its envelope per request) are served by the per-request path. */
const MAX_SERVERS_PER_BLUEPRINT = 32;

/** Shared servers kept at once, over every blueprint, selection and identity; past it the least recently used is let go. */
export const MAX_SHARED_SERVERS = 128;

/** One kept server: where it is found, and when it was last asked for. */
interface Slot {
  readonly key: string;
  /** Its blueprint's servers, this slot among them. */
  readonly servers: Map<string, Slot>;
  readonly made: Promise<SharedServer | undefined>;
  /** Set once minted. */
  shared: SharedServer | undefined;
  /** The tick of {@link SharedServers}' clock it was last asked for at. */
  used: number;
}

export class SharedServers {
  private readonly byBlueprint = new WeakMap<Blueprint, Map<string, Slot>>();
  /** Every slot kept, at most {@link MAX_SHARED_SERVERS}. */
  private readonly slots = new Set<Slot>();
  /** Servers let go while an exchange was in flight on them: closed once idle (looked at on each mint), or with the app. */
  private readonly retired = new Set<SharedServer>();
  private readonly queries = new RecentQueries();
  private clock = 0;
  private closed = false;

  /** `stats` counts the calls answered by the lean `tools/call` (leanToolsCall.ts). */
  constructor(private readonly stats: HostStats) {}

  /** @internal How many servers are kept (minted or being minted), and how many let go wait for their exchanges to end: for the memory tests. */
  get size(): { readonly kept: number; readonly retired: number } {
    return { kept: this.slots.size, retired: this.retired.size };
  }

  /** The shared server for this request, minted on first use; `undefined` when there is none to be had (the caller falls through). */
  serverFor(built: BuiltServer, blueprint: Blueprint, selection: Selection, revision: string, identity: ClientIdentity): Promise<SharedServer | undefined> | SharedServer | undefined {
    if (this.closed) return undefined;
    let servers = this.byBlueprint.get(blueprint);
    if (!servers) this.byBlueprint.set(blueprint, (servers = new Map<string, Slot>()));
    const key = `[${this.queries.textOf(selection)},${REVISION_TEXTS.of(revision)},${identityText(identity.clientInfo)},${identityText(identity.clientCapabilities)}]`;
    const known = servers.get(key);
    if (known) {
      // A tick, not a reordering: a server asked for again costs no map operation.
      known.used = ++this.clock;
      return known.made;
    }
    if (servers.size >= MAX_SERVERS_PER_BLUEPRINT) return undefined;
    this.closeIdleRetired();
    if (this.slots.size >= MAX_SHARED_SERVERS && !this.letGoLeastRecent()) return undefined;
    const slot: Slot = { key, servers, made: this.mint(built, selection, revision, identity), shared: undefined, used: ++this.clock };
    servers.set(key, slot);
    this.slots.add(slot);
    // A failed mint is not remembered: the next request tries again.
    slot.made.then(
      (shared) => {
        if (!shared) return this.forget(slot);
        slot.shared = shared;
        // Minted as the app closed (after the mint's own last look): closed here, as close() would have.
        if (this.closed) void closeQuietly(shared.server);
      },
      () => this.forget(slot),
    );
    return slot.made;
  }

  private forget(slot: Slot): void {
    if (slot.servers.get(slot.key) === slot) slot.servers.delete(slot.key);
    this.slots.delete(slot);
  }

  /**
   * Lets the least recently used minted server go: no request finds it
   * again; it is closed now when idle, else once its exchanges ended (its
   * in-flight handlers are not aborted by a stranger's new selection).
   * False when every kept server is still being minted.
   */
  private letGoLeastRecent(): boolean {
    let oldest: Slot | undefined;
    for (const slot of this.slots) if (slot.shared && (!oldest || slot.used < oldest.used)) oldest = slot;
    if (!oldest) return false;
    this.forget(oldest);
    const shared = oldest.shared!;
    if (shared.transport.inFlight === 0) void closeQuietly(shared.server);
    else this.retired.add(shared);
    return true;
  }

  private closeIdleRetired(): void {
    for (const shared of this.retired) {
      if (shared.transport.inFlight > 0) continue;
      this.retired.delete(shared);
      void closeQuietly(shared.server);
    }
  }

  private async mint(built: BuiltServer, selection: Selection, revision: string, identity: ClientIdentity): Promise<SharedServer | undefined> {
    const server = await built.createServer({ selection });
    const legacy = revision === LEGACY_STATELESS;
    // 2025: as the SDK's stateless fallback serves each of its servers, connected and never initialized.
    const transport = legacy ? new LegacyExchangeTransport() : new SharedExchangeTransport({ era: 'modern', revision });
    if (!legacy) {
      advertiseListChanged(server);
      seedClientIdentity(server, identity.clientInfo, identity.clientCapabilities);
      serveModernRevision(server, revision);
    }
    await server.connect(transport);
    // A server factory that does not serve this revision stays unbound: the per-request path answers for it.
    if (this.closed || (!legacy && server.server.getNegotiatedProtocolVersion() !== revision)) {
      await server.close();
      return undefined;
    }
    transport.deliver = requestDelivery(server);
    // Its handler contexts built without the spreads that cost a young-generation collection dearly on Node 20 (handlerContext.ts).
    buildContextWithoutSpreads(server);
    // Its tools/call answered without the SDK's per-call parses where they cannot change the answer (leanToolsCall.ts).
    if (!legacy) installLeanToolsCall(server, this.stats);
    // Its dispatch's envelope check asked once per distinct envelope, not parsed on every request (envelopeCheck.ts).
    if (!legacy) keepEnvelopeChecks(server);
    // And a plain tools/call handed to its lean handler without the SDK's `_onrequest` (leanDispatch.ts).
    const lean = legacy ? undefined : leanToolsCallOf(server);
    const dispatch = lean && leanDispatch(server, lean);
    const deliver = transport.deliver;
    if (dispatch && deliver) {
      const stats = this.stats;
      transport.deliver = (message, extra, deferAbort) => {
        if (deferAbort && dispatch(message, extra)) stats.leanDispatches++;
        else deliver(message, extra, deferAbort);
      };
    }
    return { server, transport, abort: (id) => abortHandler(server, id), encoded: new Map() };
  }

  /** Closes every shared server (their in-flight handlers are aborted, as the SDK's per-request servers' are). */
  async close(): Promise<void> {
    this.closed = true;
    const servers = [...[...this.slots].flatMap((slot) => (slot.shared ? [slot.shared.server] : [])), ...[...this.retired].map((shared) => shared.server)];
    this.slots.clear();
    this.retired.clear();
    await Promise.allSettled(servers.map((server) => server.close()));
  }
}

/** Closes a server let go; a failure to close one no request can reach any more is not the caller's. */
async function closeQuietly(server: McpServer): Promise<void> {
  try {
    await server.close();
  } catch {
    // Nothing to do: the server is unreachable either way.
  }
}
