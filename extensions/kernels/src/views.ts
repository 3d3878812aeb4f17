/**
 * The extension's MCP Apps views. scripts/build-views.mjs bundles each
 * views/<name>.ts (with ext-apps' `App`) into one self-contained
 * dist/views/<name>.html; the URL is taken from the package root, so it is
 * the same file whether this module runs from src/ (tests) or dist/.
 */
import { defineView } from '@reactor/host';

const packageRoot = new URL('..', import.meta.url);

/** A run's result drawn (`execute_cell`, `execute_code`, `get_execution`): streams, images, an error's traceback. */
export const EXECUTION_VIEW = defineView({
  uri: 'ui://kernels/execution',
  title: 'Execution result',
  description: 'A run\'s result: its status, streams, rich outputs (images) and an error\'s traceback.',
  html: new URL('dist/views/execution.html', packageRoot),
});
