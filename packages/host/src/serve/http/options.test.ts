import { describe, expect, it } from 'vitest';
import { parseSelection } from '../../selection/selection.js';
import { DEFAULT_MAX_BODY_BYTES, resolveAppOptions, type McpAppOptions } from './options.js';

describe('resolveAppOptions', () => {
  it('fills the defaults', () => {
    const resolved = resolveAppOptions({});
    expect(resolved).toMatchObject({ path: '/mcp', healthzPath: '/healthz', toolsetsPath: '/toolsets', sessions: {}, maxBodyBytes: DEFAULT_MAX_BODY_BYTES });
    expect(resolved.defaultSelection).toBeUndefined();
    expect(resolved.allowedHosts).toBeUndefined();
    // Payloads are never logged unless asked for.
    expect(resolved).toMatchObject({ accessLog: true, logPayloads: false });
  });

  it('normalizes paths (no trailing slash) and turns routes off with false', () => {
    expect(resolveAppOptions({ path: '/api/mcp/', healthz: '/health', toolsetsRoute: false })).toMatchObject({ path: '/api/mcp', healthzPath: '/health', toolsetsPath: undefined });
  });

  it('parses a default selection string with the ignored keys, and drops an empty one', () => {
    const resolved = resolveAppOptions({ defaultSelection: 'only=spaces&utm=1', ignoreQueryKeys: ['utm'] });
    expect([...(resolved.defaultSelection?.only ?? [])]).toEqual(['spaces']);
    expect(resolved.defaultSelection?.named.size).toBe(0);
    expect(resolveAppOptions({ defaultSelection: parseSelection('') }).defaultSelection).toBeUndefined();
  });

  it('normalizes allowed hosts to host names', () => {
    expect(resolveAppOptions({ allowedHosts: ['MCP.example.com:443', 'https://app.example.com'] }).allowedHosts).toEqual(['mcp.example.com', 'app.example.com']);
  });

  it('turns sessions off with false and keeps the given limits', () => {
    expect(resolveAppOptions({ sessions: false }).sessions).toBeUndefined();
    expect(resolveAppOptions({ sessions: { max: 5 } }).sessions).toEqual({ max: 5, idleTimeoutMs: 30 * 60_000 });
  });

  it.each<[string, McpAppOptions]>([
    ['path', { path: 'mcp' }],
    ['path', { path: '/mcp?x' }],
    ['healthz', { healthz: '/mcp/health' }],
    ['maxBodyBytes', { maxBodyBytes: 0 }],
    ['sessions.idleTimeoutMs', { sessions: { idleTimeoutMs: -5 } }],
    ['sessions', { sessions: 'yes' as unknown as boolean }],
    ['logPayloads', { logPayloads: 'yes' as unknown as boolean }],
    ['logPayloads', { logPayloads: true, accessLog: false }],
    ['allowedHosts', { allowedHosts: 'localhost' as unknown as string[] }],
    ['defaultSelection', { defaultSelection: { only: 'x' } as never }],
    ['tenant', { tenant: 'acme' as never }],
  ])('refuses a bad %s with REACTOR_OPTION_INVALID naming it', (name, options) => {
    expect(() => resolveAppOptions(options)).toThrow(expect.objectContaining({ code: 'REACTOR_OPTION_INVALID', message: expect.stringContaining(`"${name}"`) }));
  });
});
