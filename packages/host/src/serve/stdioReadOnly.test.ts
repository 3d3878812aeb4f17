/**
 * `serveStdio(host, { readOnly: true })`: the operator's read-only bound over
 * stdio, whatever the selection says. In process, over a pair of streams.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { defineExtension } from '../contract/extension.js';
import { buildHost } from '../host/host.js';
import { silentLogger } from '../kernel/logger.js';
import { serveStdio } from './stdio.js';
import { defineTool } from '../contract/tool.js';

const files = defineExtension({
  manifest: { name: 'files', version: '1.0.0' },
  tools: () => [
    defineTool({ name: 'read_file', description: 'Read a file.', annotations: { readOnlyHint: true }, handler: () => 'text' }),
    defineTool({ name: 'delete_file', description: 'Delete a file.', annotations: { readOnlyHint: false, destructiveHint: true }, handler: () => 'gone' }),
  ],
});

async function listOverStdio(options: { selection: string; readOnly?: boolean }): Promise<string[]> {
  const host = await buildHost([files], { logger: silentLogger });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Array<{ id?: number; result?: { tools?: Array<{ name: string }> } }> = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, at)) as (typeof lines)[number]);
      buffer = buffer.slice(at + 1);
    }
  });
  const answered = new Promise<string[]>((resolve) => {
    stdout.on('data', () => {
      const list = lines.find((l) => l.id === 2);
      if (list) resolve((list.result?.tools ?? []).map((t) => t.name).sort());
    });
  });
  const serving = await serveStdio(host, { ...options, stdin, stdout, logger: silentLogger });
  const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  const names = await answered;
  await serving.close();
  await host.stop();
  return names;
}

describe('serveStdio with the operator\'s read-only bound', () => {
  it('serves every tool without it', async () => {
    expect(await listOverStdio({ selection: '' })).toEqual(['delete_file', 'read_file']);
  });

  it('serves only read-only tools with it, even when the selection says readonly=false', async () => {
    expect(await listOverStdio({ selection: 'readonly=false', readOnly: true })).toEqual(['read_file']);
  });
});
