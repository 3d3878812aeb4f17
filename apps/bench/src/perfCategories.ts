/**
 * What Linux `perf` saw a server process do, per request, by kind of work:
 * `perf script` output (call stacks, innermost frame first) parsed and each
 * sample put in one category. The V8 CPU profile (`profile.ts`) sees
 * JavaScript and counts wall time; this sees everything the CPU ran — the
 * kernel's share of a write, waking the reader, the garbage collector's
 * threads, V8's builtins — and only CPU time.
 */

/** One frame: its symbol and the object it is in (`/usr/bin/node`, `[kernel.kallsyms]`, a perf map). */
export interface PerfFrame {
  readonly symbol: string;
  readonly object: string;
}

/** One sample's stack, innermost frame first. */
export type PerfSample = readonly PerfFrame[];

/** The kinds of work, in the order they are looked for: the first that matches a sample's stack takes it. */
export const CATEGORIES = [
  // A write that wakes the process reading the other end (the load generator): the scheduler's work, on a VM an interrupt to another CPU.
  { name: 'waking the reader (kernel)', stack: /\bsock_def_readable\b/ },
  { name: 'writing (kernel)', stack: /\b(?:do_writev|__x64_sys_writev|do_iter_write|sock_write_iter)\b/ },
  { name: 'reading (kernel)', stack: /\b(?:ksys_read|__x64_sys_read|sock_read_iter)\b/ },
  { name: 'waiting for I/O (epoll)', stack: /\bepoll_(?:p?wait)\b|\bdo_epoll_wait\b/ },
  { name: 'garbage collection', stack: /Scavenge|MarkCompact|ConcurrentMarking|IncrementalMarking|Sweeper|Heap::CollectGarbage/ },
  { name: 'JSON.parse and JSON.stringify', stack: /Builtin_Json(?:Parse|Stringify)|JsonParser|JsonStringifier/ },
  { name: 'JavaScript (compiled code)', innermost: /^(?:JS:|LazyCompile:|Function:|Script:)/ },
  { name: 'V8 builtins and runtime', innermost: /^(?:Builtins_|v8::|Builtin_|Runtime_)/ },
  { name: 'Node and libuv (C++)', innermost: /^(?:node::|uv_|uv__|llhttp)/ },
  { name: 'kernel, other', object: /\[kernel\.kallsyms\]/ },
  { name: 'other', innermost: /[\s\S]*/ },
] as const;

export type CategoryName = (typeof CATEGORIES)[number]['name'];

/** Parses `perf script` output (the default fields, with `-g` call stacks). */
export function parsePerfScript(text: string): PerfSample[] {
  const samples: PerfSample[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    // The first line is the sample's header (command, pid, time, event); the frames follow.
    if (lines.length < 2) continue;
    samples.push(lines.slice(1).map(parseFrame));
  }
  return samples;
}

/** `<address> <symbol>+<offset> (<object>)`, the symbol possibly with spaces (a JavaScript function and its file). */
function parseFrame(line: string): PerfFrame {
  const match = /^\s*[0-9a-f]+\s+(.*?)(?:\+0x[0-9a-f]+)?\s+\(([^)]*)\)\s*$/.exec(line);
  if (!match) return { symbol: line.trim(), object: '' };
  return { symbol: match[1]!, object: match[2]! };
}

/** The category a sample falls in. */
export function categoryOf(sample: PerfSample): CategoryName {
  const stack = sample.map((frame) => frame.symbol).join('\n');
  const innermost = sample[0];
  for (const category of CATEGORIES) {
    if ('stack' in category && category.stack.test(stack)) return category.name;
    if ('innermost' in category && innermost && category.innermost.test(innermost.symbol)) return category.name;
    if ('object' in category && innermost && category.object.test(innermost.object)) return category.name;
  }
  return 'other';
}

/** CPU time per request by category, in microseconds, most first: `hz` samples a second, `requests` answered while recording. */
export function perRequest(samples: readonly PerfSample[], requests: number, hz: number): Array<{ readonly category: CategoryName; readonly micros: number }> {
  const counts = new Map<CategoryName, number>();
  for (const sample of samples) {
    const category = categoryOf(sample);
    counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  const microsPerSample = 1e6 / hz;
  return [...counts]
    .map(([category, count]) => ({ category, micros: (count * microsPerSample) / requests }))
    .sort((a, b) => b.micros - a.micros);
}

/** The innermost frames that took the most samples (self time), per request. */
export function topSymbols(samples: readonly PerfSample[], requests: number, hz: number, count: number): Array<{ readonly symbol: string; readonly micros: number }> {
  const counts = new Map<string, number>();
  for (const sample of samples) {
    const symbol = sample[0]?.symbol ?? '?';
    counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  }
  const microsPerSample = 1e6 / hz;
  return [...counts]
    .map(([symbol, n]) => ({ symbol, micros: (n * microsPerSample) / requests }))
    .sort((a, b) => b.micros - a.micros)
    .slice(0, count);
}
