// What the bench scripts say to an MCP endpoint over HTTP themselves (no SDK
// client, so the measurement is the server's): opening a 2025 session, and
// reading an SSE response event by event.

/** The headers every POST carries. */
export const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Opens a 2025-11-25 session on `url` as `clientName`: the headers its later requests carry. */
export async function openSession(url, clientName) {
  const init = await fetch(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: clientName, version: '1.0.0' } } }) });
  await init.text();
  const headers = { ...JSON_HEADERS, 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-11-25' };
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return headers;
}

/**
 * Reads an SSE response to its end (or the reader's cancel), handing each
 * event's `id` and `data` to `onEvent` as soon as its chunk arrived.
 */
export async function readSseEvents(reader, onEvent) {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ done: true }));
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop();
    for (const block of blocks) {
      const lines = block.split('\n');
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('').trim();
      onEvent(lines.find((l) => l.startsWith('id:'))?.slice(3).trim(), data);
    }
  }
}
