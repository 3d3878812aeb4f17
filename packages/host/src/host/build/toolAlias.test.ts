/**
 * Deprecated tool names: an alias is callable, never listed, logs a
 * deprecation warning naming the new tool, marks the result's `_meta`, is
 * listed by `describe()`, and loses a collision with a real tool's name.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../kernel/errors.js';
import { defineExtension } from '../../contract/extension.js';
import { buildHost } from '../host.js';
import { captureLogger, connect } from '../../testing/index.js';
import { defineTool } from '../../contract/tool.js';
import { DEPRECATED_NAME_META } from './toolAlias.js';

const renamed = defineExtension({
  manifest: { name: 'runs', version: '2.0.0' },
  tools: () => [defineTool({ name: 'get_run', description: 'Get a run.', aliases: ['fetch_run', 'run'], handler: () => 'a run' })],
});

describe('tool aliases', () => {
  it('are callable and never listed; each call warns and marks _meta', async () => {
    const logger = captureLogger();
    const host = await buildHost([renamed], { logger });
    const conn = await connect(host);
    expect(await conn.toolNames()).toEqual(['get_run']);
    const result = await conn.callTool('fetch_run');
    expect(result.content).toEqual([{ type: 'text', text: 'a run' }]);
    expect(result._meta?.[DEPRECATED_NAME_META]).toEqual({
      calledAs: 'fetch_run',
      use: 'get_run',
      message: 'Tool "fetch_run" was renamed to "get_run"; the old name still works for now but will be removed: call "get_run" instead.',
    });
    expect(logger.entries.filter((e) => e.level === 'warn' && e.msg?.includes('deprecated tool name "fetch_run"'))).toHaveLength(1);
    expect((await conn.callTool('get_run'))._meta?.[DEPRECATED_NAME_META]).toBeUndefined();
    await conn.close();
  });

  it('are listed by describe() with their tool', async () => {
    const host = await buildHost([renamed]);
    expect((await host.describe()).provenance['get_run']).toEqual({ offeredBy: 'runs', extendedBy: [], aliases: ['fetch_run', 'run'] });
  });

  it('lose a collision with another tool\'s name: the real tool wins, and the collision is reported', async () => {
    const other = defineExtension({
      manifest: { name: 'other', version: '1.0.0' },
      tools: () => [defineTool({ name: 'run', description: 'Run something else.', handler: () => 'the real run' })],
    });
    const host = await buildHost([renamed, other], { logger: captureLogger() });
    const conn = await connect(host);
    expect((await conn.callTool('run')).content).toEqual([{ type: 'text', text: 'the real run' }]);
    expect((await host.describe()).provenance['get_run']?.aliases).toEqual(['fetch_run']);
    const problem = host.report().problems.find((p) => p.code === ErrorCodes.TOOL_CONFLICT && p.subject === 'run');
    expect(problem?.message).toContain('alias "run" of tool "get_run" (extension "runs") is also the name of tool "run" (extension "other")');
    await conn.close();
  });

  it('are validated like names', () => {
    expect(() => defineTool({ name: 'x', description: 'X.', aliases: ['bad name'], handler: () => 1 })).toThrow(/has an invalid alias/);
    expect(() => defineTool({ name: 'x', description: 'X.', aliases: ['x'], handler: () => 1 })).toThrow(/has a repeated alias/);
    expect(() => defineTool({ name: 'x', description: 'X.', aliases: ['y', 'y'], handler: () => 1 })).toThrow(/has a repeated alias/);
  });
});
