/**
 * Reads SSE events (id and JSON data) off an open response one at a time, as
 * they arrive — for streams that stay open, where reading the body whole
 * would never end.
 */

/** One SSE event carrying a JSON-RPC message. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly message: Record<string, unknown>;
}

/** The events of an open SSE response, in order. */
export interface SseReader {
  /** The next event with data; rejects when the stream ends first. */
  next(): Promise<SseEvent>;
  /** Stops reading and cancels the body. */
  close(): void;
}

export function readSse(response: Response): SseReader {
  if (!response.body) throw new Error(`the response has no body (HTTP ${response.status})`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const queued: SseEvent[] = [];
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const event = queued.shift();
        if (event) return event;
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended before the next event');
        buffer += decoder.decode(value, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const lines = block.split('\n');
          const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n').trim();
          const id = lines.find((l) => l.startsWith('id:'))?.slice(3).trim();
          if (data !== '') queued.push({ id, message: JSON.parse(data) as Record<string, unknown> });
        }
      }
    },
    close() {
      void reader.cancel().catch(() => undefined);
    },
  };
}
