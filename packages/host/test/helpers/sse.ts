/**
 * Reads JSON-RPC messages off an SSE response one at a time, as they arrive:
 * for streams that stay open (a `subscriptions/listen` stream), where reading
 * the whole body would never end.
 */

/** The messages of an open SSE response, in order. */
export interface SseReader {
  /** The next message; rejects when the stream ends first. */
  next(): Promise<Record<string, unknown>>;
}

/** Starts reading `response`; `signal` cancels the body. */
export function readSse(response: Response, signal: AbortSignal): SseReader {
  if (!response.body) throw new Error(`the response has no body (HTTP ${response.status})`);
  const reader = response.body.getReader();
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  const decoder = new TextDecoder();
  const queued: Array<Record<string, unknown>> = [];
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const message = queued.shift();
        if (message) return message;
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended before the next message');
        buffer += decoder.decode(value, { stream: true });
        const events = buffer.split('\n\n');
        buffer = events.pop() ?? '';
        for (const event of events) {
          const data = event.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5)).join('\n').trim();
          if (data !== '') queued.push(JSON.parse(data) as Record<string, unknown>);
        }
      }
    },
  };
}
