/** Thrown when a text is not the start of a JSON value. */
class NotJson extends SyntaxError {}

/**
 * The value whose JSON text starts with `prefix` (a line cut at some size):
 * everything complete in it, and the value being written where it stops, cut
 * there. A string cut short ends with `cutNote`; a cut number, `true`,
 * `false` or `null`, and a key without its value, are left out. Keys are
 * own properties (`__proto__` included). Throws a `SyntaxError` when
 * `prefix` is not the start of a JSON text.
 *
 * @example
 * parseJsonPrefix('{"seq":3,"result":{"kind":"text","content":"abcd', "…") // { seq: 3, result: { kind: "text", content: "abcd…" } }
 */
export function parseJsonPrefix(prefix: string, cutNote = "…"): unknown {
  return new PrefixParser(prefix, cutNote).parse();
}

class PrefixParser {
  private index = 0;
  /** Set when the text ran out: every open value returns what it has. */
  private ended = false;

  constructor(
    private readonly text: string,
    private readonly cutNote: string,
  ) {}

  parse(): unknown {
    const value = this.value(0);
    this.space();
    if (!this.ended && this.index < this.text.length) throw new NotJson(`Unexpected text at ${this.index}.`);
    return value;
  }

  private space(): void {
    while (/\s/.test(this.text[this.index] ?? "")) this.index += 1;
    if (this.index >= this.text.length) this.ended = true;
  }

  private value(depth: number): unknown {
    if (depth > 512) throw new NotJson("Nested too deep.");
    this.space();
    if (this.ended) return undefined;
    const char = this.text[this.index];
    if (char === "{") return this.object(depth);
    if (char === "[") return this.array(depth);
    if (char === '"') return this.string();
    return this.literal();
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.index += 1;
    for (let first = true; ; first = false) {
      this.space();
      if (this.ended) return out;
      if (this.text[this.index] === "}") {
        this.index += 1;
        return out;
      }
      if (!first) this.expect(",");
      this.space();
      if (this.ended) return out;
      if (this.text[this.index] !== '"') throw new NotJson(`Expected a key at ${this.index}.`);
      const key = this.string();
      if (this.ended) return out;
      this.space();
      if (this.ended) return out;
      this.expect(":");
      const item = this.value(depth + 1);
      if (item !== undefined) {
        Object.defineProperty(out, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      if (this.ended) return out;
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.index += 1;
    for (let first = true; ; first = false) {
      this.space();
      if (this.ended) return out;
      if (this.text[this.index] === "]") {
        this.index += 1;
        return out;
      }
      if (!first) this.expect(",");
      const item = this.value(depth + 1);
      if (item !== undefined) out.push(item);
      if (this.ended) return out;
    }
  }

  private string(): string {
    const { text } = this;
    let out = "";
    let index = this.index + 1;
    for (;;) {
      QUOTE_OR_ESCAPE.lastIndex = index;
      const stop = QUOTE_OR_ESCAPE.exec(text)?.index ?? -1;
      if (stop < 0) {
        this.index = text.length;
        this.ended = true;
        return out + text.slice(index) + this.cutNote;
      }
      out += text.slice(index, stop);
      index = stop;
      if (text[index] === '"') {
        this.index = index + 1;
        return out;
      }
      const escaped = text[index + 1];
      const unicode = escaped === "u" ? text.slice(index + 2, index + 6) : "";
      if (escaped === undefined || (escaped === "u" && unicode.length < 4)) {
        this.index = text.length;
        this.ended = true;
        return out + this.cutNote;
      }
      out +=
        escaped === "u" ? String.fromCharCode(Number.parseInt(unicode, 16)) : (ESCAPES[escaped] ?? escaped);
      index += escaped === "u" ? 6 : 2;
    }
  }

  private literal(): unknown {
    const match = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      this.text.slice(this.index, this.index + 400),
    );
    if (!match) {
      const rest = this.text.slice(this.index);
      if (["true", "false", "null"].some((word) => word.startsWith(rest)) || /^-?[\d.eE+-]*$/.test(rest)) {
        this.index = this.text.length;
        this.ended = true;
        return undefined;
      }
      throw new NotJson(`Unexpected '${this.text[this.index]}' at ${this.index}.`);
    }
    this.index += match[0].length;
    if (this.index >= this.text.length) {
      // The literal may go on past the cut (`12` of `123`, `nul`): leave it out.
      this.ended = true;
      return undefined;
    }
    return JSON.parse(match[0]);
  }

  private expect(char: string): void {
    if (this.text[this.index] !== char) throw new NotJson(`Expected '${char}' at ${this.index}.`);
    this.index += 1;
  }
}

const QUOTE_OR_ESCAPE = /["\\]/g;
const ESCAPES: Readonly<Record<string, string>> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
