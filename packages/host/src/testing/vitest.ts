/**
 * `@reactor/host/testing/vitest`: the extension contract as a vitest suite.
 * Kept apart from `@reactor/host/testing` so that entry stays free of any test
 * runner; other runners use `contractChecks` from it directly.
 */
import { describe, it } from 'vitest';
import { contractChecks, type ContractOptions, type ExtensionUnderTest } from './contract.js';

/** Options of {@link describeExtensionContract}. */
export interface DescribeContractOptions extends ContractOptions {
  /** Time limit of each check, ms. Default 30 000 (the first check loads the tokenizer). */
  readonly timeout?: number;
}

/**
 * Declares a `describe` block running the standard battery on an extension
 * (see `contractChecks`): the checker finds no error, it lists without
 * starting, it starts and stops, every tool answers its sample input truthfully
 * to its annotations, `onServer` only where its toolsets are active.
 *
 * ```ts no-test
 * describeExtensionContract(sandboxes, { samples: { launch_sandbox: { sandboxName: 'demo' } } });
 * ```
 */
export function describeExtensionContract(extension: ExtensionUnderTest, options: DescribeContractOptions): void {
  describe('the extension contract', async () => {
    for (const check of await contractChecks(extension, options)) {
      it(check.name, () => check.run(), options.timeout ?? 30_000);
    }
  });
}

export { contractChecks };
export type { ContractOptions, ContractCheck, ExtensionUnderTest } from './contract.js';
