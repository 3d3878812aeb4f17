/**
 * `server.json` for the official MCP registry, generated from the
 * application's package.json and the toolsets its extensions declare (the
 * `reactor-mcp-server server-json` command). The npm package (unless private)
 * runs the command over stdio with `--toolsets` as an optional argument; a
 * remote (`--remote-url`) takes the selection as a URL variable, in the path
 * form `{url}/{toolsets}` that every client can keep. The toolsets themselves
 * go in `_meta` under the registry's publisher-provided key.
 */
import { describeValue, ErrorCodes, ReactorError } from '../kernel/errors.js';
import type { Toolset } from '../contract/toolset.js';

/** The registry schema this generator targets. */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** The package.json fields the generator reads. */
export interface AppPackageJson {
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  readonly private?: boolean;
  readonly homepage?: string;
  /** The registry name (`io.github.owner/name`); the registry checks npm packages against it. */
  readonly mcpName?: string;
  readonly repository?: string | { readonly type?: string; readonly url?: string; readonly directory?: string };
}

/** What `serverJson` needs beyond package.json. */
export interface ServerJsonInput {
  readonly pkg: AppPackageJson;
  readonly toolsets: readonly Toolset[];
  /** Overrides `mcpName`. */
  readonly registryName?: string | undefined;
  /** A deployment's public MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  readonly remoteUrl?: string | undefined;
  /** True when that endpoint wants `Authorization: Bearer …`. */
  readonly remoteAuth?: boolean | undefined;
}

const NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

function fail(problem: string, expected: string, received: unknown, hint: string): never {
  throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: 'reactor-mcp-server server-json', problem, expected, received: describeValue(received), hint });
}

/** A one-line list of the toolsets: what a user may put in `--toolsets` or the URL. */
function toolsetHelp(toolsets: readonly Toolset[]): string {
  const list = toolsets.map((t) => `${t.name}${t.always === true ? ' (always)' : t.default === false ? ' (opt-in)' : ' (default)'}`).join(', ');
  return `Toolsets to serve, in the selection grammar ("only=a,b", "b", "without=a"); empty: the defaults. Available: ${list || 'none'}.`;
}

function repositoryOf(repository: AppPackageJson['repository']): { url: string; source: string; subfolder?: string } | undefined {
  if (repository === undefined) return undefined;
  const raw = typeof repository === 'string' ? repository : repository.url;
  if (raw === undefined) return undefined;
  const short = /^(github|gitlab):([\w.-]+\/[\w.-]+)$/.exec(raw) ?? (/^([\w.-]+\/[\w.-]+)$/.test(raw) ? ['', 'github', raw] : null);
  const url = short ? `https://${short[1]}.com/${short[2]}` : raw.replace(/^git\+/, '').replace(/\.git$/, '').replace(/^git:\/\//, 'https://');
  let source = 'git';
  try {
    const host = new URL(url).hostname;
    source = host === 'github.com' ? 'github' : host === 'gitlab.com' ? 'gitlab' : host;
  } catch {
    fail('cannot read package.json "repository"', 'a URL such as https://github.com/owner/repo', raw, 'fix "repository" in package.json');
  }
  const directory = typeof repository === 'object' ? repository.directory : undefined;
  return { url, source, ...(directory ? { subfolder: directory } : {}) };
}

/** The `server.json` for an application. Throws `REACTOR_OPTION_INVALID` when package.json lacks what the registry requires. */
export function serverJson(input: ServerJsonInput): Record<string, unknown> {
  const { pkg } = input;
  const name = input.registryName ?? pkg.mcpName;
  if (name === undefined || !NAME_PATTERN.test(name)) {
    fail('has no valid registry name', 'namespace/name in reverse-DNS form, e.g. "io.github.owner/my-server"', name, 'add "mcpName" to package.json (the registry checks npm packages against it) or pass --registry-name');
  }
  if (typeof pkg.version !== 'string' || pkg.version === '') fail('has no version', 'package.json "version"', pkg.version, 'set "version" in package.json');
  const description = (pkg.description ?? '').trim();
  if (description === '') fail('has no description', 'package.json "description" (up to 100 characters)', pkg.description, 'describe the server in package.json "description"');
  if (input.remoteUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(input.remoteUrl)) fail('has an invalid --remote-url', 'an http(s) URL of the MCP endpoint', input.remoteUrl, 'e.g. --remote-url https://mcp.example.com/mcp');
  const help = toolsetHelp(input.toolsets);
  const repository = repositoryOf(pkg.repository);
  const packages =
    pkg.private === true || pkg.name === undefined
      ? []
      : [
          {
            registryType: 'npm',
            identifier: pkg.name,
            version: pkg.version,
            runtimeHint: 'npx',
            transport: { type: 'stdio' },
            packageArguments: [
              { type: 'named', name: '--transport', value: 'stdio' },
              { type: 'named', name: '--toolsets', description: help, isRequired: false, format: 'string' },
            ],
          },
        ];
  const remotes =
    input.remoteUrl === undefined
      ? []
      : [
          {
            type: 'streamable-http',
            url: `${input.remoteUrl.replace(/\/+$/, '')}/{toolsets}`,
            variables: { toolsets: { description: help, isRequired: false, default: '' } },
            ...(input.remoteAuth === true
              ? { headers: [{ name: 'Authorization', description: 'Bearer token', isRequired: true, isSecret: true, value: 'Bearer {token}', variables: { token: { description: 'The access token', isRequired: true, isSecret: true } } }] }
              : {}),
          },
        ];
  return {
    $schema: SERVER_JSON_SCHEMA,
    name,
    description: description.length > 100 ? `${description.slice(0, 99)}…` : description,
    version: pkg.version,
    ...(repository ? { repository } : {}),
    ...(pkg.homepage ? { websiteUrl: pkg.homepage } : {}),
    ...(packages.length > 0 ? { packages } : {}),
    ...(remotes.length > 0 ? { remotes } : {}),
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        tool: 'reactor-mcp-server server-json',
        toolsets: input.toolsets.map((t) => ({
          name: t.name,
          ...(t.title !== undefined ? { title: t.title } : {}),
          ...(t.description !== undefined ? { description: t.description } : {}),
          default: t.default !== false,
          always: t.always === true,
        })),
      },
    },
  };
}
