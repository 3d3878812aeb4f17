/**
 * `@reactor/create-extension`: the scaffolder behind
 * `npm create @reactor/extension`, usable as a library too.
 */
export { packageFiles, titleCase, TOOL_VERSIONS } from './templates.js';
export type { ScaffoldAnswers } from './templates.js';
export { scaffold, findReactorMonorepo } from './scaffold.js';
export type { Scaffolded } from './scaffold.js';
export { parseFlags, defaults, validate, ask, HELP } from './options.js';
export type { ParsedFlags } from './options.js';
export { HOST_VERSION } from './version.js';
