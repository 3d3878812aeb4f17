/**
 * The `summarize_notebook` prompt: a notebook rendered as a transcript (cells
 * and summarised outputs) with a request to summarise its purpose, data,
 * method, results and loose ends.
 */
import type { PromptSpec } from '@reactor/host';
import { z } from 'zod';
import { fileOfPath, readNotebookFile } from './files.js';
import { isNotebookPath } from './fileTypes.js';
import { notebookTranscript } from './notebook.js';
import type { SpacesRuntime } from './runtime.js';
import { resolveFile, spaceRealDir } from './safePath.js';
import { walk } from './walk.js';

/** The longest transcript the prompt embeds, in characters (about 25k tokens). */
export const MAX_TRANSCRIPT_CHARS = 100_000;

/** Makes the `summarize_notebook` prompt. */
export function createSummarizeNotebookPrompt(runtime: SpacesRuntime): PromptSpec {
  return {
    name: 'summarize_notebook',
    title: 'Summarize a notebook',
    description: 'Summarise a Jupyter notebook of a space: what it sets out to do, the data it uses, its method, its results and what is left open.',
    argsSchema: z.object({
      space: z.string().min(1).describe('The space\'s name (see list_spaces).'),
      path: z.string().min(1).describe('The notebook\'s path in the space, e.g. "analysis.ipynb".'),
    }),
    get: async (args) => {
      const space = await runtime.space(args.space ?? '');
      const file = fileOfPath(await resolveFile(space, args.path ?? ''));
      const notebook = await readNotebookFile(file, runtime.limits.maxFileBytes, runtime.limits.maxOutputChars);
      const about = [notebook.title ? `"${notebook.title}"` : undefined, `${notebook.cells.length} cells`, notebook.language].filter((x) => x !== undefined).join(', ');
      const text = [
        `Summarise the Jupyter notebook \`${file.relative}\` from the space \`${space.name}\` (${about}).`,
        '',
        'Cover, briefly and concretely:',
        '1. **Purpose** — the question it asks.',
        '2. **Data** — the files and datasets it reads, by name.',
        '3. **Method** — the main steps and libraries.',
        '4. **Results** — the key numbers and findings, quoted from the outputs.',
        '5. **Loose ends** — errors, warnings, TODOs and anything unfinished.',
        '',
        'Base the summary only on the transcript below (outputs are summarised: long text is shortened, images appear as [image/png …]).',
        '',
        '---',
        '',
        notebookTranscript(notebook, MAX_TRANSCRIPT_CHARS),
      ].join('\n');
      return {
        description: `Summary of ${space.name}/${file.relative}`,
        messages: [{ role: 'user', content: { type: 'text', text } }],
      };
    },
    complete: {
      space: async (value) => {
        const prefix = value.toLowerCase();
        return (await runtime.spaces()).map((s) => s.name).filter((name) => name.toLowerCase().startsWith(prefix));
      },
      // The space the client already chose (context.arguments) narrows the walk to it; without one, every space is walked.
      path: async (value, _ctx, context) => {
        const prefix = value.toLowerCase();
        const chosen = context.arguments.space;
        const all = await runtime.spaces();
        const spaces = chosen === undefined || chosen === '' ? all : all.filter((s) => s.name === chosen);
        const paths = new Set<string>();
        for (const space of spaces) {
          const walked = await walk(space, { relative: '', absolute: await spaceRealDir(space) }, { includeDirectories: false, maxEntries: runtime.limits.maxWalkEntries });
          for (const entry of walked.entries) if (isNotebookPath(entry.path) && entry.path.toLowerCase().startsWith(prefix)) paths.add(entry.path);
        }
        return [...paths].slice(0, 100);
      },
    },
  };
}
