/**
 * Kernels extends spaces' `read_notebook` by deriving its description and
 * output schema from spaces' own, never retyping them: every field spaces
 * declares stays as declared (cells keep their type and source, `truncated`
 * stays required), and kernels adds a cell's `id` and `live_kernel`.
 */
import { readNotebookOutput } from '@reactor/ext-spaces';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createReadNotebookExtension } from './readNotebookExtension.js';

const extension = createReadNotebookExtension(() => undefined);
const page = {
  space: 'lab',
  path: 'alpha.ipynb',
  nbformat: '4.5',
  cellCount: 1,
  cells: [{ index: 0, type: 'code', source: 'x = 1', id: 'c-1' }],
  nextCell: null,
  truncated: false,
  live_kernel: { live: false, hint: 'No kernel.' },
};

describe("read_notebook's output schema once kernels extends it", () => {
  const derived = (() => {
    if (typeof extension.outputSchema !== 'function') throw new Error('expected outputSchema to derive from the original');
    return extension.outputSchema(readNotebookOutput) as z.ZodObject;
  })();

  it("is spaces' schema with live_kernel added: every field spaces declares, as it declares it", () => {
    expect(Object.keys(derived.shape)).toEqual([...Object.keys(readNotebookOutput.shape), 'live_kernel']);
    expect(derived.safeParse(page).success).toBe(true);
    const { truncated: _truncated, ...withoutTruncated } = page;
    expect(derived.safeParse(withoutTruncated).success).toBe(false);
  });

  it("keeps a cell's own fields required and adds its optional id", () => {
    expect(derived.safeParse({ ...page, cells: [{ index: 0, id: 'c-1' }] }).success).toBe(false); // type and source are spaces' required fields
    expect(derived.safeParse({ ...page, cells: [{ index: 0, type: 'code', source: '' }] }).success).toBe(true);
    const json = z.toJSONSchema(derived, { io: 'output' }) as unknown as { properties: { cells: { items: { properties: Record<string, unknown> } } } };
    expect(Object.keys(json.properties.cells.items.properties)).toContain('id');
  });

  it("derives the description from spaces' own", () => {
    const describe = extension.description as (original: string) => string;
    expect(describe('Read a notebook.')).toMatch(/^Read a notebook\. Each cell carries its id/);
  });
});
