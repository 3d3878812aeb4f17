/**
 * The scaffolder's questions: from flags first, then (on a terminal) prompts,
 * else defaults. Everything is validated the way the host will validate it, so
 * a generated package never fails `reactor-mcp-server check` on its names.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type { ScaffoldAnswers } from './templates.js';
import { HOST_VERSION } from './version.js';

/** The usage text of `npm create @reactor/extension`. */
export const HELP = `Usage: npm create @reactor/extension@latest [dir] -- [options]

Writes a Reactor MCP extension package: src/index.ts with one zod-typed tool, a
test using @reactor/host/testing, the reactorMcp field, tsconfig, eslint, vitest,
a README and a changesets layout. Inside the Reactor MCP monorepo it adds
extensions/<dir> as a workspace package instead.

Options (asked for on a terminal when left out):
  --name NAME          npm package name (default: the directory name)
  --extension NAME     extension name, kebab-case (default: from the package name)
  --toolset NAME       the toolset its tool goes in (default: the extension name)
  --opt-in             the toolset is off until a URL asks for it (the extension is held)
  --default            the toolset is on by default
  --tool NAME          the tool's name, snake_case (default: <toolset>_greet)
  --description TEXT   one sentence: what the extension is for
  --view               give the tool a view (MCP Apps): HTML bundled with esbuild, served with it
  --standalone         write a standalone package even inside the monorepo
  --host-spec SPEC     how to install @reactor/host for development (default ^${HOST_VERSION})
  -y, --yes            ask nothing: defaults for what the flags leave out
  -h, --help           print this help
`;

const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const EXTENSION_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TOOLSET_NAME = /^[A-Za-z0-9._:-]{1,128}$/;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/; // SEP-986, and what every model API accepts in a function name

/** Parsed flags: the directory and whatever answers they give. */
export interface ParsedFlags {
  readonly dir: string | undefined;
  readonly answers: Partial<Omit<ScaffoldAnswers, 'layout' | 'hostVersion'>>;
  readonly yes: boolean;
  readonly help: boolean;
  readonly standalone: boolean;
}

/** Parses argv; throws an Error naming the flag for an invalid one. */
export function parseFlags(argv: readonly string[]): ParsedFlags {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      extension: { type: 'string' },
      toolset: { type: 'string' },
      'opt-in': { type: 'boolean' },
      default: { type: 'boolean' },
      tool: { type: 'string' },
      description: { type: 'string' },
      view: { type: 'boolean' },
      standalone: { type: 'boolean' },
      'host-spec': { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (positionals.length > 1) throw new Error(`takes one directory, received ${positionals.length}: ${positionals.join(' ')}`);
  if (values['opt-in'] && values.default) throw new Error('--opt-in and --default contradict each other; pass one');
  const answers: Record<string, unknown> = {
    packageName: values.name,
    extensionName: values.extension,
    toolset: values.toolset,
    byDefault: values['opt-in'] ? false : values.default ? true : undefined,
    toolName: values.tool,
    description: values.description,
    hostSpec: values['host-spec'],
    view: values.view,
  };
  for (const [key, value] of Object.entries(answers)) if (value === undefined) delete answers[key];
  const parsed = { dir: positionals[0], answers: answers as ParsedFlags['answers'], yes: values.yes === true, help: values.help === true, standalone: values.standalone === true };
  for (const [key, value] of Object.entries(parsed.answers)) {
    const problem = validate(key as keyof ScaffoldAnswers, value);
    if (problem) throw new Error(problem);
  }
  return parsed;
}

/** Why an answer is invalid, or undefined when it is fine. */
export function validate(key: keyof ScaffoldAnswers, value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : '';
  switch (key) {
    case 'packageName':
      return PACKAGE_NAME.test(text) && text.length <= 214 ? undefined : `package name ${JSON.stringify(value)} is not a valid npm name (lowercase, optionally @scope/name)`;
    case 'extensionName':
      return EXTENSION_NAME.test(text) ? undefined : `extension name ${JSON.stringify(value)} is not kebab-case (such as "sandboxes" or "audit-log")`;
    case 'toolset':
      return TOOLSET_NAME.test(text) ? undefined : `toolset name ${JSON.stringify(value)} may use only letters, digits, ".", "_", ":" and "-" (a URL splits on commas and spaces)`;
    case 'toolName':
      return TOOL_NAME.test(text) ? undefined : `tool name ${JSON.stringify(value)} must be 1 to 64 of A-Z a-z 0-9 _ - (SEP-986, and what model APIs accept)`;
    case 'description':
      return text.trim() !== '' ? undefined : 'the description is empty; say in one sentence what the extension is for';
    default:
      return undefined;
  }
}

/** Defaults derived from what is known: `@acme/reactor-greetings` → extension `greetings`. */
export function defaults(known: Partial<ScaffoldAnswers>, dir: string | undefined): Omit<ScaffoldAnswers, 'layout' | 'hostVersion'> {
  const base = (dir ?? 'my-extension').split(/[\\/]/).filter(Boolean).pop() ?? 'my-extension';
  const packageName = known.packageName ?? base.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  const extensionName = known.extensionName ?? (packageName.replace(/^@[^/]+\//, '').replace(/^reactor-(?:mcp-)?/, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'my-extension');
  const toolset = known.toolset ?? extensionName;
  return {
    packageName,
    extensionName,
    toolset,
    byDefault: known.byDefault ?? false,
    toolName: known.toolName ?? `${toolset.replace(/[^A-Za-z0-9]+/g, '_')}_greet`.slice(0, 64),
    description: known.description ?? `${extensionName}: tools for an MCP client.`,
    ...(known.hostSpec === undefined ? {} : { hostSpec: known.hostSpec }),
    ...(known.view === true ? { view: true } : {}),
  };
}

/** Asks on the terminal for every answer the flags left out (Enter keeps the default shown). */
export async function ask(flags: ParsedFlags, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<Omit<ScaffoldAnswers, 'layout' | 'hostVersion'>> {
  const rl = createInterface({ input, output });
  const known: { -readonly [K in keyof ScaffoldAnswers]?: ScaffoldAnswers[K] } = { ...flags.answers };
  try {
    const question = async (key: 'packageName' | 'extensionName' | 'toolset' | 'toolName' | 'description', label: string) => {
      if (known[key] !== undefined) return;
      const fallback = defaults(known, flags.dir)[key];
      for (;;) {
        const answer = (await rl.question(`${label} (${fallback}): `)).trim() || fallback;
        const problem = validate(key, answer);
        if (!problem) {
          known[key] = answer;
          return;
        }
        output.write(`  ${problem}\n`);
      }
    };
    await question('packageName', 'Package name');
    await question('extensionName', 'Extension name');
    await question('toolset', 'Toolset');
    if (known.byDefault === undefined) {
      const answer = (await rl.question('Serve the toolset by default, or only when a URL asks for it? (default/opt-in) (opt-in): ')).trim().toLowerCase();
      known.byDefault = answer === 'default' || answer === 'd';
    }
    await question('toolName', 'Tool name');
    await question('description', 'Description');
    if (known.view === undefined) {
      const answer = (await rl.question('Give the tool a view clients render with its result (MCP Apps)? (y/N): ')).trim().toLowerCase();
      known.view = answer === 'y' || answer === 'yes';
    }
  } finally {
    rl.close();
  }
  return defaults(known, flags.dir);
}
