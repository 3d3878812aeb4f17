/**
 * Refusing unknown option keys. TypeScript users get a typo (`session: false`,
 * `allowedHost`) at compile time; JavaScript callers and options read from
 * config files only at run time — here, as an error naming the key and the
 * nearest valid one.
 *
 * The valid keys of each options object are declared once, beside its
 * interface, as `{ key: true, … } satisfies Record<keyof Options, true>`: adding
 * an option to the interface without listing it there fails the typecheck.
 */
import { describeValue, ErrorCodes, ReactorError } from './errors.js';
import { nearest } from './didYouMean.js';

/** Every key of `T`, each `true`: the compiler checks the list is complete and exact. */
export type OptionKeys<T> = { readonly [K in keyof Required<T>]: true };

/**
 * Throws `REACTOR_OPTION_INVALID` for the first key of `options` that `valid`
 * does not list. `owner` names the options in the message (`createMcpApp`,
 * `buildHost`, `createMcpApp option "sessions"`).
 */
export function assertKnownKeys(options: unknown, valid: Readonly<Record<string, true>>, owner: string): void {
  if (typeof options !== 'object' || options === null) return;
  const names = Object.keys(valid);
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(valid, key)) continue;
    const suggestion = nearest(key, names);
    throw new ReactorError(ErrorCodes.OPTION_INVALID, {
      subject: `${owner} option "${key}"`,
      problem: 'is not an option, so it would do nothing',
      expected: `one of ${names.join(', ')}`,
      received: describeValue((options as Record<string, unknown>)[key]),
      hint: suggestion === undefined ? 'remove it, or check the spelling against the list above' : `did you mean "${suggestion}"?`,
    });
  }
}
