/**
 * Interns strings to dense ids (0, 1, 2, … in first-seen order) in an
 * open-addressed table of ids in an `Int32Array`, hashing the characters
 * (FNV-1a). Compiling a big agent interns tens of thousands of condition
 * names: a `Map` spends most of that time growing and chasing its chains
 * (about 4× slower on 40,000 names).
 */
export class NameTable {
  /** Id → name. */
  readonly names: string[] = [];
  /** Per slot: id + 1, or 0 when empty. At most half full, so probe runs stay short. */
  private slots: Int32Array;

  /** `expected`: about how many names will be added (the table grows past it). */
  constructor(expected: number) {
    this.slots = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(8, 2 * expected))));
  }

  /** The id of `name`, or -1 when it was never added. */
  find(name: string): number {
    return (this.slots[this.slotOf(name)] as number) - 1;
  }

  /** The id of `name`, added (as the next id) when new. */
  intern(name: string): number {
    const slot = this.slotOf(name);
    if (this.slots[slot] !== 0) return (this.slots[slot] as number) - 1;
    const { names } = this;
    this.slots[slot] = names.push(name);
    if (2 * names.length > this.slots.length) {
      // Every name placed again in a table twice the size.
      this.slots = new Int32Array(2 * this.slots.length);
      for (let id = 0; id < names.length; id++) this.slots[this.slotOf(names[id] as string)] = id + 1;
    }
    return names.length - 1;
  }

  /** The slot holding `name`, or the empty slot it goes to. */
  private slotOf(name: string): number {
    const { slots, names } = this;
    const mask = slots.length - 1;
    let slot = hashOf(name) & mask;
    for (
      let stored = slots[slot] as number;
      stored !== 0 && names[stored - 1] !== name;
      stored = slots[slot] as number
    )
      slot = (slot + 1) & mask;
    return slot;
  }
}

/** FNV-1a over the UTF-16 code units: a 32-bit hash of `name`. */
function hashOf(name: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 16777619);
  return hash;
}
