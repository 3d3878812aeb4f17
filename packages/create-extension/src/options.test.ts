import { PassThrough } from 'node:stream';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ask, defaults, parseFlags } from './options.js';
import { HOST_VERSION } from './version.js';

describe('parseFlags and defaults', () => {
  it('derives everything from the directory: @scope and reactor- prefixes dropped for the extension name', () => {
    expect(defaults({ packageName: '@acme/reactor-mcp-sandboxes' }, undefined)).toMatchObject({ extensionName: 'sandboxes', toolset: 'sandboxes', toolName: 'sandboxes_greet', byDefault: false });
    expect(defaults({}, 'some/dir/my-ext')).toMatchObject({ packageName: 'my-ext', extensionName: 'my-ext', toolName: 'my_ext_greet' });
  });

  it('takes flags and refuses invalid names with the rule', () => {
    const flags = parseFlags(['my-ext', '--toolset', 'greetings', '--default', '--tool', 'say_hi', '-y']);
    expect(flags).toMatchObject({ dir: 'my-ext', yes: true, answers: { toolset: 'greetings', byDefault: true, toolName: 'say_hi' } });
    expect(() => parseFlags(['--extension', 'My Ext'])).toThrow('is not kebab-case');
    expect(() => parseFlags(['--tool', 'has.dot'])).toThrow('SEP-986');
    expect(() => parseFlags(['--opt-in', '--default'])).toThrow('contradict');
  });

  it('asks for what the flags left out, re-asking after an invalid answer', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    // Answer each prompt as it appears, as a person at a terminal would.
    const replies = ['', 'Bad Toolset', 'tools', 'default', '', 'Tools for me.'];
    output.on('data', (chunk: Buffer) => {
      shown += chunk.toString();
      if (chunk.toString().endsWith(': ')) input.write(`${replies.shift()}\n`);
    });
    const answers = ask(parseFlags(['my-ext', '--name', 'my-ext']), input, output);
    expect(await answers).toMatchObject({ packageName: 'my-ext', extensionName: 'my-ext', toolset: 'tools', byDefault: true, toolName: 'tools_greet', description: 'Tools for me.' });
    expect(shown).toContain('toolset name "Bad Toolset" may use only');
  });

  it('adds a view with --view, or when asked at the terminal', async () => {
    expect(parseFlags(['my-ext', '--view', '-y']).answers).toMatchObject({ view: true });
    expect(defaults(parseFlags(['my-ext', '--view']).answers, 'my-ext')).toMatchObject({ view: true });
    expect(defaults(parseFlags(['my-ext']).answers, 'my-ext')).not.toHaveProperty('view');
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    const replies = ['', '', '', '', '', '', 'y'];
    output.on('data', (chunk: Buffer) => {
      shown += chunk.toString();
      if (chunk.toString().endsWith(': ')) input.write(`${replies.shift()}\n`);
    });
    expect(await ask(parseFlags(['my-ext']), input, output)).toMatchObject({ view: true });
    expect(shown).toContain('Give the tool a view clients render with its result (MCP Apps)? (y/N): ');
  });

  it('makes packages for the host version of this repository (update src/version.ts on a host release)', () => {
    const host = JSON.parse(readFileSync(new URL('../../host/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(HOST_VERSION).toBe(host.version);
  });
});
