/**
 * The JSON texts of strings written again and again (an access line's method
 * and path, a shared server's revision), each escaped once and kept — up to a
 * bound, as some of them are a client's choice; past it, a string is escaped
 * each time it is asked for.
 */
export class JsonTexts {
  readonly #texts = new Map<string, string>();

  constructor(private readonly max: number) {}

  /** `JSON.stringify(value)`. */
  of(value: string): string {
    let text = this.#texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      if (this.#texts.size < this.max) this.#texts.set(value, text);
    }
    return text;
  }
}
