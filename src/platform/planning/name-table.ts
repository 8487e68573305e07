/**
 * Interns strings to dense ids (0, 1, 2, … in first-seen order) in an
 * open-addressed table of typed arrays, hashing the characters (FNV-1a).
 * Compiling a big agent interns tens of thousands of condition names: a
 * `Map` spends most of that time growing and chasing its chains (about 4×
 * slower on 40,000 names), and allocates a new table at every doubling.
 */
export class NameTable {
  /** Id → name. */
  readonly names: string[] = [];
  /** Per slot: id + 1 (0 = empty) at `2s`, the name's hash at `2s + 1`, side by side for one cache line. */
  private slots: Int32Array;
  private mask: number;

  /** `expected`: about how many names will be added (the table grows past it). */
  constructor(expected = 8) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(8, 2 * expected)));
    this.slots = new Int32Array(2 * size);
    this.mask = size - 1;
  }

  /** How many names the table holds. */
  get size(): number {
    return this.names.length;
  }

  /** The id of `name`, or -1 when it was never added. */
  find(name: string): number {
    const hash = hashOf(name);
    const { slots, mask, names } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[2 * slot] as number;
      if (stored === 0) return -1;
      if (slots[2 * slot + 1] === hash && names[stored - 1] === name) return stored - 1;
    }
  }

  /** The id of `name`, added (as the next id) when new. */
  intern(name: string): number {
    const hash = hashOf(name);
    const { slots, mask, names } = this;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const stored = slots[2 * slot] as number;
      if (stored === 0) break;
      if (slots[2 * slot + 1] === hash && names[stored - 1] === name) return stored - 1;
    }
    const id = names.length;
    names.push(name);
    slots[2 * slot] = id + 1;
    slots[2 * slot + 1] = hash;
    // At most half full, so probe runs stay short.
    if (2 * names.length > mask + 1) this.grow();
    return id;
  }

  /** Doubles the table, placing every name again by its stored hash. */
  private grow(): void {
    const old = this.slots;
    const size = 2 * (this.mask + 1);
    const slots = new Int32Array(2 * size);
    const mask = size - 1;
    for (let index = 0; index < old.length; index += 2) {
      const stored = old[index] as number;
      if (stored === 0) continue;
      const hash = old[index + 1] as number;
      let slot = hash & mask;
      while (slots[2 * slot] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = stored;
      slots[2 * slot + 1] = hash;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** FNV-1a over the UTF-16 code units: a 32-bit hash of `name`. */
function hashOf(name: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 16777619);
  return hash;
}
