/**
 * The `notifications/tasks` listen caps: 1 024 streams per node and 256 per
 * principal, held even when listens arrive together — the slot is taken
 * before the first await (the store's read), so a burst cannot all pass the
 * check and then all open. Driven on the engine, with a store whose reads
 * wait until the whole burst is in.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../kernel/logger.js';
import { createMemoryTaskStore } from './memoryTaskStore.js';
import { MAX_TASK_LISTENS, MAX_TASK_LISTENS_PER_PRINCIPAL, resolveTaskSettings, TaskEngine } from './taskEngine.js';
import type { TaskRecord, TaskStore } from './taskStore.js';

const engines: TaskEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

/** An engine over a store whose `get` answers a working task of the caller, once `release()` is called. */
function gatedEngine(): { engine: TaskEngine; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inner = createMemoryTaskStore();
  const store: TaskStore = {
    ...inner,
    name: 'gated',
    async get(taskId, owner): Promise<TaskRecord> {
      await gate;
      const now = Date.now();
      return { taskId, owner, status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, expiresAt: now + 60_000, pollIntervalMs: 1000 };
    },
  };
  const settings = resolveTaskSettings({ store, secret: 'a-test-secret-of-at-least-thirty-two-bytes' }, {}, (option) => new Error(option));
  const engine = new TaskEngine(settings, silentLogger, undefined);
  // Every id is taken as signed: the test is about the caps, not the ids.
  vi.spyOn(engine, 'verifies').mockReturnValue(true);
  engines.push(engine);
  return { engine, release };
}

function token(sub: string): AuthInfo {
  return { token: sub, clientId: 'app', scopes: [], extra: { sub } };
}

/** Opens `count` listens at once (none answered before all are asked), then lets the store answer. */
async function burst(engine: TaskEngine, release: () => void, count: number, authInfo: AuthInfo | undefined): Promise<{ open: Response[]; refused: Array<{ error: { message: string; data?: unknown } }> }> {
  const pending = Array.from({ length: count }, (_, i) => engine.listen(i, [`task-${i}`], true, undefined, authInfo, undefined));
  release();
  const answers = await Promise.all(pending);
  const open = answers.filter((response) => response.headers.get('content-type') === 'text/event-stream');
  const refused = await Promise.all(answers.filter((response) => !open.includes(response)).map(async (response) => (await response.json()) as { error: { message: string; data?: unknown } }));
  return { open, refused };
}

describe('notifications/tasks listen caps', () => {
  it('a burst of anonymous listens opens at most 1 024 streams; the rest are refused, saying why', async () => {
    const { engine, release } = gatedEngine();
    const { open, refused } = await burst(engine, release, MAX_TASK_LISTENS + 10, undefined);
    expect(open).toHaveLength(MAX_TASK_LISTENS);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.error.message).toMatch(/Subscription limit reached: this replica holds 1024 notifications\/tasks streams \(at most 1024\)/);
    expect(refused[0]!.error.data).toEqual({ reason: 'listen_limit', limit: 'total' });
    for (const response of open) await response.body!.cancel();
  });

  it('one principal holds at most 256 streams on a node; another principal still gets one; a closed stream gives its slot back', async () => {
    const { engine, release } = gatedEngine();
    const alice = token('alice');
    const { open, refused } = await burst(engine, release, MAX_TASK_LISTENS_PER_PRINCIPAL + 5, alice);
    expect(open).toHaveLength(MAX_TASK_LISTENS_PER_PRINCIPAL);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.error.data).toEqual({ reason: 'listen_limit', limit: 'principal' });
    expect(refused[0]!.error.message).toContain('this principal holds 256 notifications/tasks streams on this replica (at most 256)');
    const bobs = await engine.listen('b', ['task-b'], true, undefined, token('bob'), undefined);
    expect(bobs.headers.get('content-type')).toBe('text/event-stream');
    await open[0]!.body!.cancel();
    const again = await engine.listen('a', ['task-a'], true, undefined, alice, undefined);
    expect(again.headers.get('content-type')).toBe('text/event-stream');
    for (const response of [...open.slice(1), bobs, again]) await response.body!.cancel();
  });
});
