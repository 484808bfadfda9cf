/** The position in a text that the json and literal readers share, and how they refuse. */

/** Thrown where Python would raise; the public readers turn it into undefined. */
export class Refused extends Error {}

/** How deeply containers may nest before a reader refuses (Python's own limit is recursion). */
export const MAX_DEPTH = 64;

export class Cursor {
  i = 0;
  constructor(
    readonly text: string,
    readonly mode: 'json' | 'python',
  ) {}

  fail(): never {
    throw new Refused();
  }

  /** Skips whitespace; in python mode also line continuations and comments. */
  ws(): void {
    const t = this.text;
    for (;;) {
      while (this.i < t.length && /[ \t\n\r\f\v]/.test(t[this.i]!)) this.i++;
      if (this.mode === 'python' && t[this.i] === '\\' && t[this.i + 1] === '\n') this.i += 2;
      else if (this.mode === 'python' && t[this.i] === '#') {
        while (this.i < t.length && t[this.i] !== '\n') this.i++;
      } else return;
    }
  }

  end(): void {
    this.ws();
    if (this.i !== this.text.length) this.fail();
  }

  eat(s: string): boolean {
    this.ws();
    if (this.text.startsWith(s, this.i)) {
      this.i += s.length;
      return true;
    }
    return false;
  }

  /** Consumes the first of `words` at the cursor (one not followed by a word character when `whole`). */
  word<V>(words: readonly (readonly [string, V])[], whole: boolean): { value: V } | undefined {
    const t = this.text;
    for (const [word, value] of words) {
      if (t.startsWith(word, this.i) && !(whole && /\w/.test(t[this.i + word.length] ?? ''))) {
        this.i += word.length;
        return { value };
      }
    }
    return undefined;
  }
}

/** The read value, or undefined where the reader refused (or a number was out of range). */
export function readOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof Refused || error instanceof RangeError) return undefined;
    throw error;
  }
}
