import { describe, expect, it } from 'vitest';
import { categoryOf, parsePerfScript, perRequest, topSymbols } from '../src/perfCategories.js';

/** Four samples as `perf script` prints them: a write waking the reader, a plain write, compiled JavaScript, a scavenge. */
const SCRIPT = `node 26521 66463.823997:     500000 cpu-clock: 
	ffffffff8225f759 pvm_irq_enable+0x19 ([kernel.kallsyms])
	ffffffff81e82f7e sock_def_readable+0x3e ([kernel.kallsyms])
	ffffffff8207f299 tcp_rcv_established+0xa49 ([kernel.kallsyms])
	ffffffff81a0e111 do_writev+0x81 ([kernel.kallsyms])
	          108cae __GI___writev+0x6e (/usr/lib/x86_64-linux-gnu/libc.so.6)

node 26521 66463.824371:     500000 cpu-clock: 
	ffffffff8207e000 tcp_sendmsg_locked+0x10 ([kernel.kallsyms])
	ffffffff81a0e111 do_writev+0x81 ([kernel.kallsyms])

node 26521 66463.824871:     500000 cpu-clock: 
	    7f2fbc1791f9 JS:*serveFast file:///work/packages/host/dist/http/fastPath.js:35:32+0x6b9 (/tmp/perf-26521.map)
	         14ce0dc Builtins_JSEntryTrampoline+0x5c (/usr/bin/node)

node 26521 66463.825371:     500000 cpu-clock: 
	         1234567 v8::internal::Scavenger::ScavengePage+0x10 (/usr/bin/node)
	         1234568 v8::internal::ScavengerCollector::CollectGarbage+0x20 (/usr/bin/node)
`;

describe('perf samples by kind of work', () => {
  const samples = parsePerfScript(SCRIPT);

  it('reads each sample’s stack, innermost frame first, a JavaScript name with its spaces', () => {
    expect(samples).toHaveLength(4);
    expect(samples[0]![1]).toEqual({ symbol: 'sock_def_readable', object: '[kernel.kallsyms]' });
    expect(samples[2]![0]).toEqual({ symbol: 'JS:*serveFast file:///work/packages/host/dist/http/fastPath.js:35:32', object: '/tmp/perf-26521.map' });
  });

  it('puts a write that wakes the reader apart from the rest of the write', () => {
    expect(samples.map(categoryOf)).toEqual(['waking the reader (kernel)', 'writing (kernel)', 'JavaScript (compiled code)', 'garbage collection']);
  });

  it('turns samples into CPU microseconds per request', () => {
    // 4 samples at 2 kHz are 2,000 µs of CPU; over 100 requests, 5 µs each category.
    const rows = perRequest(samples, 100, 2000);
    expect(rows.map((row) => row.micros)).toEqual([5, 5, 5, 5]);
    expect(new Set(rows.map((row) => row.category)).size).toBe(4);
    expect(topSymbols(samples, 100, 2000, 2)).toEqual([
      { symbol: 'pvm_irq_enable', micros: 5 },
      { symbol: 'tcp_sendmsg_locked', micros: 5 },
    ]);
  });
});
