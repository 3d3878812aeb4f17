import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../kernel/errors.js';
import { CLUSTER_HELP, parseClusterArgs } from './commandCluster.js';

const ENV = { REACTOR_MCP_REDIS_URL: 'redis://cache:6379' };

describe('parseClusterArgs (reactor-mcp-server cluster …)', () => {
  it('reads the action, the extension, and the Redis URL and key prefix from flags over the environment', () => {
    expect(parseClusterArgs(['disable', 'spaces'], ENV)).toEqual({ action: 'disable', extension: 'spaces', url: 'redis://cache:6379', keyPrefix: undefined, root: undefined, force: false, json: false });
    expect(parseClusterArgs(['status', '--json', '--redis-url', 'redis://other:6380', '--redis-key-prefix', 'shop:mcp'], { ...ENV, REACTOR_MCP_REDIS_KEY_PREFIX: 'ignored' })).toMatchObject({ action: 'status', url: 'redis://other:6380', keyPrefix: 'shop:mcp', json: true });
    expect(parseClusterArgs(['enable', 'spaces', '--force'], { ...ENV, REACTOR_MCP_REDIS_KEY_PREFIX: 'shop:mcp', REACTOR_MCP_ROOT: '/srv/app' })).toMatchObject({ keyPrefix: 'shop:mcp', root: '/srv/app', force: true });
  });

  it('answers undefined for --help, whose text lists every flag and the exit codes', () => {
    expect(parseClusterArgs(['--help'], {})).toBeUndefined();
    for (const flag of ['--redis-url', '--redis-key-prefix', '--root', '--force', '--json']) expect(CLUSTER_HELP).toContain(flag);
    expect(CLUSTER_HELP).toContain('Exit codes: 0 done; 1 Redis could not be reached; 2');
  });

  it.each([
    [[], ENV, /needs an action/],
    [['restart'], ENV, /does not know this action; expected status, enable <extension> or disable <extension>, received the string "restart"/],
    [['disable'], ENV, /cluster disable: needs the name of the extension/],
    [['disable', 'Spaces!'], ENV, /names an invalid extension/],
    [['status', 'spaces'], ENV, /cluster status: takes no extension name/],
    [['enable', 'a', 'b'], ENV, /takes one extension name/],
    [['status'], {}, /needs the replicas' Redis; expected --redis-url/],
    [['status', '--redis-url', 'http://cache'], {}, /flag "--redis-url": is not a Redis URL/],
    [['status', '--redis-key-prefix', 'a b'], ENV, /is not a Redis key prefix/],
    [['status', '--prefix', 'x'], ENV, /Unknown option '--prefix'/],
  ])('refuses %j with a REACTOR_OPTION_INVALID naming the problem', (args, env, message) => {
    expect(() => parseClusterArgs(args, env)).toThrow(expect.objectContaining({ code: ErrorCodes.OPTION_INVALID, message: expect.stringMatching(message) as unknown }));
  });
});
