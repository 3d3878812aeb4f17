import { inputRequired, type ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../kernel/errors.js';
import { createRequestStateSeal, INVALID_REQUEST_STATE_MESSAGE } from './requestState.js';
import { captureLogger } from '../../testing/captureLogger.js';

const KEY = 'k'.repeat(32);

/** The part of a handler context the seal reads: the echoed state and who asks. */
function context(echoed?: string, clientId?: string): ServerContext {
  return {
    mcpReq: { method: 'tools/call', requestState: () => echoed },
    ...(clientId ? { http: { authInfo: { token: 't', clientId, scopes: [] } } } : {}),
  } as unknown as ServerContext;
}

/** The selection the seals below are bound to (a blueprint's tenant, activation key and filter). */
const SPACES = { tenant: undefined, key: 'core,spaces' };
const seals = (options: Parameters<typeof createRequestStateSeal>[0]) => createRequestStateSeal(options).forSelection(SPACES);

const asking = (requestState: string) => inputRequired({ inputRequests: { q: inputRequired.listRoots() }, requestState });

describe('createRequestStateSeal', () => {
  it('seals the requestState of an input-required result and opens it for the same target, unchanged', async () => {
    const seal = seals({ key: KEY, logger: captureLogger() });
    const sealed = await seal.seal(asking('step-2'), 'tools/call:t', context());
    expect(sealed.requestState).not.toBe('step-2');
    const opened = await seal.open(context(sealed.requestState), 'tools/call:t');
    expect(opened.mcpReq.requestState()).toBe('step-2');
  });

  it('passes other results, and input-required results without state, through untouched', async () => {
    const seal = seals({ key: KEY, logger: captureLogger() });
    const complete = { content: [] };
    expect(await seal.seal(complete, 'tools/call:t', context())).toBe(complete);
    const stateless = inputRequired({ inputRequests: { q: inputRequired.listRoots() } });
    expect(await seal.seal(stateless, 'tools/call:t', context())).toBe(stateless);
    const plain = context();
    expect(await seal.open(plain, 'tools/call:t')).toBe(plain); // a first round carries no state
  });

  it.each([
    ['another target', 'tools/call:other', undefined],
    ['another principal', 'tools/call:t', 'mallory'],
  ])('refuses a state echoed for %s with -32602', async (_what, target, clientId) => {
    const seal = seals({ key: KEY, logger: captureLogger() });
    const { requestState } = await seal.seal(asking('s'), 'tools/call:t', context(undefined, 'alice'));
    await expect(seal.open(context(requestState, clientId ?? 'alice'), target)).rejects.toMatchObject({ code: -32602, message: INVALID_REQUEST_STATE_MESSAGE });
  });

  it('refuses a state echoed under another selection (tenant, toolsets or tool filter), and opens it under an equal one', async () => {
    const host = createRequestStateSeal({ key: KEY, logger: captureLogger() });
    const { requestState } = await host.forSelection(SPACES).seal(asking('s'), 'tools/call:t', context(undefined, 'alice'));
    const filter = { tools: new Set(['t']), excludeTools: undefined, readOnly: false, readOnlyBy: undefined, ignored: [] };
    for (const other of [{ ...SPACES, tenant: 'acme' }, { ...SPACES, key: 'core,kernels,spaces' }, { ...SPACES, filter }]) {
      await expect(host.forSelection(other).open(context(requestState, 'alice'), 'tools/call:t')).rejects.toMatchObject({ code: -32602 });
    }
    const opened = await host.forSelection({ tenant: undefined, key: 'core,spaces' }).open(context(requestState, 'alice'), 'tools/call:t');
    expect(opened.mcpReq.requestState()).toBe('s');
  });

  it('warns once that a random key does not survive replicas or restarts, and not at all with a key', async () => {
    const random = captureLogger();
    const seal = seals({ logger: random });
    await seal.seal(asking('a'), 't', context());
    await seal.seal(asking('b'), 't', context());
    expect(random.entries.filter((e) => e.level === 'warn').map((e) => e.msg)).toEqual([expect.stringContaining('random per-process key')]);
    const keyed = captureLogger();
    await seals({ key: KEY, logger: keyed }).seal(asking('a'), 't', context());
    expect(keyed.entries).toEqual([]);
  });

  it('refuses a key under 32 bytes with REACTOR_OPTION_INVALID', () => {
    expect(() => createRequestStateSeal({ key: 'short', logger: captureLogger() })).toThrow(expect.objectContaining({ code: ErrorCodes.OPTION_INVALID }));
  });
});
