/**
 * The extension's MCP Apps views. scripts/build-views.mjs bundles each
 * views/<name>.ts (with ext-apps' `App`) into one self-contained
 * dist/views/<name>.html; the URL is taken from the package root, so it is
 * the same file whether this module runs from src/ (tests) or dist/.
 */
import { defineView } from '@reactor/host';

const packageRoot = new URL('..', import.meta.url);

/** `read_notebook` drawn as a notebook: Markdown rendered, code with its outputs, images included. */
export const READ_NOTEBOOK_VIEW = defineView({
  uri: 'ui://spaces/notebook',
  title: 'Notebook',
  description: 'A notebook as a notebook: Markdown rendered, code cells with their outputs, images included.',
  html: new URL('dist/views/readNotebook.html', packageRoot),
});
