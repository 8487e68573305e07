/**
 * Interns strings to dense ids (0, 1, 2, … in first-seen order) in an
 * open-addressed table of typed arrays, hashing the characters (FNV-1a).
 * Compiling a big agent interns tens of thousands of condition names: a
 * `Map` spends most of that time growing and chasing its chains (about 4×
 * slower on 40,000 names; compiling a 10,000-action planner, 6× slower).
 */
export class NameTable {
  /** Id → name. */
  readonly names: string[] = [];
  /** Per slot: id + 1 (0 = empty) at `2s`, the name's hash at `2s + 1`, side by side for one cache line. */
  private slots: Int32Array;

  /** `expected`: about how many names will be added (the table grows past it). */
  constructor(expected: number) {
    this.slots = new Int32Array(2 * 2 ** Math.ceil(Math.log2(Math.max(8, 2 * expected))));
  }

  /** The id of `name`, or -1 when it was never added. */
  find(name: string): number {
    return (this.slots[2 * this.slotOf(name, hashOf(name))] as number) - 1;
  }

  /** The id of `name`, added (as the next id) when new. */
  intern(name: string): number {
    const hash = hashOf(name);
    const slot = this.slotOf(name, hash);
    if (this.slots[2 * slot] !== 0) return (this.slots[2 * slot] as number) - 1;
    const id = this.names.push(name) - 1;
    this.slots[2 * slot] = id + 1;
    this.slots[2 * slot + 1] = hash;
    // At most half full, so probe runs stay short: past that, every name is placed again in a table twice the size.
    if (4 * this.names.length > this.slots.length) {
      const old = this.slots;
      this.slots = new Int32Array(2 * old.length);
      for (let index = 0; index < old.length; index += 2)
        if (old[index] !== 0) {
          const at = 2 * this.slotOf(undefined, old[index + 1] as number);
          this.slots[at] = old[index] as number;
          this.slots[at + 1] = old[index + 1] as number;
        }
    }
    return id;
  }

  /** The slot holding `name`, or the empty slot it goes to (`undefined` matches no name: the first empty slot). */
  private slotOf(name: string | undefined, hash: number): number {
    const { slots, names } = this;
    const mask = (slots.length >> 1) - 1;
    let slot = hash & mask;
    for (let stored = slots[2 * slot] as number; stored !== 0; stored = slots[2 * slot] as number) {
      if (slots[2 * slot + 1] === hash && names[stored - 1] === name) break;
      slot = (slot + 1) & mask;
    }
    return slot;
  }
}

/** FNV-1a over the UTF-16 code units: a 32-bit hash of `name`. */
function hashOf(name: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 16777619);
  return hash;
}
