/**
 * The `@reactor/host` version new packages are made for (their peer range is
 * `^HOST_VERSION`). A test pins it to packages/host/package.json, so a host
 * release that forgets to update it fails CI.
 */
export const HOST_VERSION = '1.0.0';
