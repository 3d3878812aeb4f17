/**
 * `reactor-mcp-server cluster status|enable|disable`: an operator's control of
 * running replicas through the Redis they share. It writes exactly what a
 * replica's `host.enable/disable` writes (through `@reactor/redis`, loaded
 * only here, like `--redis-url`), so every replica applies the change and
 * its listen streams hear list-changed. Exit codes: 0 done, 1 Redis could not
 * be reached (or another failure), 2 an invalid command line or an extension
 * no live replica has (nothing is written then).
 */
import { parseArgs } from 'node:util';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';
import { nearest } from '../kernel/didYouMean.js';
import { EXTENSION_NAME_PATTERN } from '../contract/extension.js';
import { importRedis, REDIS_PACKAGE } from './commandRedis.js';
import { parseRedisKeyPrefix } from './commandOptions.js';

/** The usage text of `cluster`. */
export const CLUSTER_HELP = `Usage: reactor-mcp-server cluster status [--json]
       reactor-mcp-server cluster disable <extension> [--force]
       reactor-mcp-server cluster enable <extension> [--force]

Operates running replicas (reactor-mcp-server --redis-url) through their Redis.
enable/disable change the extension on every replica at once, as host.enable /
host.disable on one replica does: each replica applies it, its listen streams
hear list-changed, and /healthz shows the new cluster revision. status prints
the disabled extensions, the cluster revision and the live replicas (from their
heartbeats) with their extensions. Needs the @reactor/redis package.

Options (flags win over environment variables):
  --redis-url URL             REACTOR_MCP_REDIS_URL       the replicas' Redis (required)
  --redis-key-prefix PREFIX   REACTOR_MCP_REDIS_KEY_PREFIX  the replicas' key prefix (default reactor:mcp)
  --root DIR                  REACTOR_MCP_ROOT            where to find @reactor/redis (default: the nearest
                                                          application at or above the working directory)
  --force                     record an extension no live replica reports (replicas started later apply it)
  --json                      print JSON instead of text
  -h, --help                  print this help

Exit codes: 0 done; 1 Redis could not be reached; 2 an invalid command line, or
an extension that no live replica has (nothing was changed).
`;

/** Where `cluster` reads and writes. */
export interface ClusterCommandIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** A live replica, as `@reactor/redis` reads its heartbeat. */
export interface ClusterNodeView {
  readonly node: string;
  readonly heartbeatTtlMs: number;
  readonly extensions: ReadonlyArray<{ readonly name: string; readonly state: string }> | undefined;
  readonly revision: number | undefined;
}

/** The cluster's state, as `@reactor/redis`'s `readClusterStatus` answers it. */
export interface ClusterStatusView {
  readonly keyPrefix: string;
  readonly revision: number;
  readonly disabled: readonly string[];
  readonly nodes: readonly ClusterNodeView[];
}

/** What the command needs of `@reactor/redis`'s `connectClusterControl`. */
interface ClusterControl {
  readonly where: string;
  status(): Promise<ClusterStatusView>;
  setEnabled(name: string, enabled: boolean): Promise<number>;
  close(): Promise<void>;
}

type ConnectClusterControl = (options: { url: string; keyPrefix?: string }) => Promise<ClusterControl>;

const HINT = 'run reactor-mcp-server cluster --help for the usage';

function invalid(subject: string, problem: string, expected?: string, received?: string, hint = HINT): ReactorError {
  return new ReactorError(ErrorCodes.OPTION_INVALID, { subject, problem, ...(expected === undefined ? {} : { expected }), ...(received === undefined ? {} : { received }), hint });
}

const FLAGS = {
  'redis-url': { type: 'string' },
  'redis-key-prefix': { type: 'string' },
  root: { type: 'string' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What the command line asks. */
interface ClusterArgs {
  readonly action: 'status' | 'enable' | 'disable';
  readonly extension: string | undefined;
  readonly url: string;
  readonly keyPrefix: string | undefined;
  readonly root: string | undefined;
  readonly force: boolean;
  readonly json: boolean;
}

function readArgs(args: readonly string[]) {
  try {
    return parseArgs({ args: [...args], options: FLAGS, allowPositionals: true });
  } catch (error) {
    // node:util's message names the flag ("Unknown option '--prefix'").
    throw invalid('reactor-mcp-server cluster', errorMessage(error));
  }
}

/** Parses `cluster`'s arguments; undefined for `--help`. Throws `REACTOR_OPTION_INVALID`. */
export function parseClusterArgs(args: readonly string[], env: NodeJS.ProcessEnv): ClusterArgs | undefined {
  const { values, positionals } = readArgs(args);
  if (values.help) return undefined;
  const [action, extension, ...extra] = positionals;
  if (action !== 'status' && action !== 'enable' && action !== 'disable') {
    throw invalid('reactor-mcp-server cluster', action === undefined ? 'needs an action' : 'does not know this action', 'status, enable <extension> or disable <extension>', action === undefined ? 'nothing' : describeValue(action));
  }
  if (action === 'status' && extension !== undefined) throw invalid('cluster status', 'takes no extension name', undefined, describeValue(extension));
  if (action !== 'status') {
    if (extension === undefined) throw invalid(`cluster ${action}`, 'needs the name of the extension', `cluster ${action} <extension>`, 'nothing');
    if (!EXTENSION_NAME_PATTERN.test(extension)) throw invalid(`cluster ${action}`, 'names an invalid extension', 'a kebab-case extension name such as "spaces"', describeValue(extension));
  }
  if (extra.length > 0) throw invalid(`cluster ${action}`, 'takes one extension name', undefined, `also ${extra.map((e) => describeValue(e)).join(', ')}`);
  const url = values['redis-url'] ?? (env['REACTOR_MCP_REDIS_URL'] || undefined);
  const urlFrom = values['redis-url'] === undefined ? 'environment variable REACTOR_MCP_REDIS_URL' : 'flag "--redis-url"';
  if (url === undefined) throw invalid(`cluster ${action}`, 'needs the replicas\' Redis', '--redis-url redis://host:6379 (or REACTOR_MCP_REDIS_URL)', 'neither');
  if (!/^rediss?:\/\/[^\s]+$/.test(url)) throw invalid(urlFrom, 'is not a Redis URL', 'redis://[[user]:password@]host[:port][/db] or rediss://…', describeValue(url.replace(/:[^:@/]*@/, ':***@')));
  const prefixFlag = values['redis-key-prefix'];
  const keyPrefix = parseRedisKeyPrefix(prefixFlag !== undefined ? { value: prefixFlag, from: 'flag "--redis-key-prefix"' } : env['REACTOR_MCP_REDIS_KEY_PREFIX'] ? { value: env['REACTOR_MCP_REDIS_KEY_PREFIX'], from: 'environment variable REACTOR_MCP_REDIS_KEY_PREFIX' } : undefined);
  return { action, extension, url, keyPrefix, root: values.root ?? (env['REACTOR_MCP_ROOT'] || undefined), force: values.force === true, json: values.json === true };
}

/** Runs `cluster` with the arguments after it; answers the exit code. Throws `REACTOR_OPTION_INVALID` (exit 2) for a bad command line. */
export async function runClusterCommand(args: readonly string[], io: ClusterCommandIo): Promise<number> {
  const parsed = parseClusterArgs(args, io.env);
  if (parsed === undefined) {
    io.stdout(CLUSTER_HELP);
    return 0;
  }
  const loaded = await importRedis<{ connectClusterControl: ConnectClusterControl }>(parsed.root, 'reactor-mcp-server cluster', `install it in the application (pnpm add ${REDIS_PACKAGE}), or pass --root <dir> of an application that has it`);
  if (typeof loaded.connectClusterControl !== 'function') throw invalid(REDIS_PACKAGE, 'exports no connectClusterControl function', 'a version of the package with the cluster control', 'an older version', `update ${REDIS_PACKAGE}`);
  let control: ClusterControl;
  try {
    control = await loaded.connectClusterControl({ url: parsed.url, ...(parsed.keyPrefix === undefined ? {} : { keyPrefix: parsed.keyPrefix }) });
  } catch (error) {
    io.stderr(`reactor-mcp-server cluster: ${errorMessage(error)}; nothing was read or changed; hint: check that Redis is running and that --redis-url (or REACTOR_MCP_REDIS_URL) is the URL the replicas were started with\n`);
    return 1;
  }
  try {
    const status = await control.status();
    if (parsed.action === 'status') {
      io.stdout(parsed.json ? `${JSON.stringify({ redis: control.where, ...status }, null, 2)}\n` : describeStatus(control.where, status));
      return 0;
    }
    const name = parsed.extension!;
    const enabled = parsed.action === 'enable';
    const reporting = status.nodes.filter((n) => n.extensions !== undefined);
    const having = reporting.filter((n) => n.extensions!.some((e) => e.name === name)).map((n) => n.node);
    const known = [...new Set(reporting.flatMap((n) => n.extensions!.map((e) => e.name)))].sort();
    if (reporting.length > 0 && having.length === 0 && !parsed.force) {
      const guess = nearest(name, known);
      throw invalid(`extension "${name}"`, `is not an extension of any live replica (${reporting.map((n) => n.node).join(', ')}); nothing was changed`, `one of ${known.join(', ') || '(none)'}`, describeValue(name), `${guess === undefined ? '' : `did you mean "${guess}"? `}pass --force to record it anyway (a replica started later that has it applies it)`);
    }
    const revision = await control.setEnabled(name, enabled);
    const lacking = reporting.filter((n) => !having.includes(n.node)).map((n) => n.node);
    const silent = status.nodes.filter((n) => n.extensions === undefined).map((n) => n.node);
    if (parsed.json) {
      io.stdout(`${JSON.stringify({ redis: control.where, keyPrefix: status.keyPrefix, action: parsed.action, extension: name, revision, nodesWithIt: having, nodesWithout: lacking, nodesNotReporting: silent }, null, 2)}\n`);
      return 0;
    }
    const lines = [`${enabled ? 'enabled' : 'disabled'} "${name}" on the cluster at ${control.where} (key prefix ${status.keyPrefix}): cluster revision ${revision}`];
    if (having.length > 0) lines.push(`  applied now by the live replicas that have it: ${having.join(', ')} (their listen streams hear list-changed)`);
    if (lacking.length > 0) lines.push(`  live replicas without "${name}" (nothing changes there): ${lacking.join(', ')}`);
    if (silent.length > 0) lines.push(`  live replicas that report no extensions (an older @reactor/redis, or toggles not shared): ${silent.join(', ')}`);
    if (status.nodes.length === 0) lines.push('  no replica is alive now: it is recorded in Redis, and every replica that has it applies it when it starts');
    else if (reporting.length === 0) lines.push(`  no live replica reports its extensions: "${name}" is recorded in Redis and applied by every replica that has it`);
    io.stdout(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await control.close();
  }
}

/** `cluster status` as text. */
function describeStatus(where: string, status: ClusterStatusView): string {
  const lines = [
    `cluster at ${where} (key prefix ${status.keyPrefix})`,
    `cluster revision: ${status.revision}`,
    `disabled extensions: ${status.disabled.length === 0 ? '(none)' : status.disabled.join(', ')}`,
    `live replicas: ${status.nodes.length === 0 ? '(none)' : String(status.nodes.length)}`,
  ];
  for (const node of status.nodes) {
    const extensions = node.extensions === undefined ? 'extensions not reported' : node.extensions.map((e) => `${e.name} (${e.state})`).join(', ') || '(no extensions)';
    lines.push(`  ${node.node}: revision ${node.revision === undefined ? '?' : String(node.revision)}; ${extensions}`);
  }
  return `${lines.join('\n')}\n`;
}
