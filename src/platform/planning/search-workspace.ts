import { doubled } from "./doubled.js";

/** Room for this many nodes at first; the columns double when full. */
const NODES = 1024;

/**
 * The memory of an A* search, in typed arrays the next search reuses: a plan
 * call allocates none of it, and since it stays alive, a full garbage
 * collection between plans drops neither its hidden class nor the planner's
 * optimised code that depends on it.
 *
 * - Nodes, column-wise (a node is an index), so a search of any size holds a
 *   handful of arrays and no object per node.
 * - `runs`: lists of integers, each a count then its items, appended as the
 *   search goes: the conditions each node flipped relative to its parent,
 *   and the actions useful at each expanded node.
 * - The open list: a binary heap of nodes, lowest f first, ties to fewer
 *   unmet goal literals, then to the earlier node.
 * - The state table: a state's hashes → its newest node (the cheapest found
 *   so far), by open addressing.
 * - The cursor: one node's state as a bitset. Moving it to another node
 *   undoes flips up to their common ancestor and redoes them down to the
 *   target, so memory per node does not grow with the number of conditions.
 */
export class SearchWorkspace {
  /** How many nodes there are. */
  size = 0;
  parent = new Int32Array(NODES);
  depth = new Int32Array(NODES);
  action = new Int32Array(NODES);
  /** The state's two independent 30-bit Zobrist hashes (a false match needs a 60-bit collision). */
  hash = new Int32Array(NODES);
  check = new Int32Array(NODES);
  /** How many goal literals do not hold. */
  unmet = new Int32Array(NODES);
  g = new Float64Array(NODES);
  f = new Float64Array(NODES);
  /** 1 once expanded, or once a cheaper node of its state is found. */
  closed = new Uint8Array(NODES);
  /** Where in `runs` a node's flipped conditions are. */
  flips = new Int32Array(NODES);
  /** Where in `runs` an expanded node's useful actions are. */
  useful = new Int32Array(NODES);
  runs = new Int32Array(NODES);
  runsLength = 0;
  open = new Int32Array(NODES);
  openSize = 0;
  /** Action → the stamp of the last expansion that looked at it. */
  seen = new Int32Array(0);
  /** The state table: 0 = empty, else node + 1. */
  private slots = new Int32Array(2 * NODES);
  private states = 0;
  /** The cursor: its node, its state, and the path it walks down (kept, to keep its capacity). */
  private at = 0;
  private words = new Int32Array(0);
  private readonly down: number[] = [];
  private stamp = 0;

  /** Empties the workspace for a search over `conditions` conditions and `actions` actions, the root state holding `trueConditions`. */
  reset(conditions: number, actions: number, trueConditions: readonly number[]): void {
    this.size = this.runsLength = this.openSize = this.states = this.at = 0;
    this.slots.fill(0);
    const words = (conditions >>> 5) + 1;
    if (this.words.length < words) this.words = new Int32Array(words);
    else this.words.fill(0);
    for (const condition of trueConditions) this.flip(condition);
    if (this.seen.length < actions) {
      this.seen = new Int32Array(actions);
      this.stamp = 0;
    }
  }

  /**
   * Adds a node, its flipped conditions the run at `flips`, as its state's
   * node in the table and to the open list (its `useful` is set on expansion).
   */
  add(
    parent: number,
    action: number,
    hash: number,
    check: number,
    g: number,
    unmet: number,
    f: number,
    flips: number,
  ): void {
    const node = this.size++;
    if (node === this.parent.length) {
      this.parent = doubled(this.parent);
      this.depth = doubled(this.depth);
      this.action = doubled(this.action);
      this.hash = doubled(this.hash);
      this.check = doubled(this.check);
      this.unmet = doubled(this.unmet);
      this.g = doubled(this.g);
      this.f = doubled(this.f);
      this.closed = doubled(this.closed);
      this.flips = doubled(this.flips);
      this.useful = doubled(this.useful);
    }
    this.parent[node] = parent;
    this.depth[node] = parent < 0 ? 0 : (this.depth[parent] as number) + 1;
    this.action[node] = action;
    this.hash[node] = hash;
    this.check[node] = check;
    this.g[node] = g;
    this.unmet[node] = unmet;
    this.f[node] = f;
    this.closed[node] = 0;
    this.flips[node] = flips;
    this.insert(node);
    this.push(node);
  }

  /** Appends `value` to `runs`. */
  append(value: number): void {
    if (this.runsLength === this.runs.length) this.runs = doubled(this.runs);
    this.runs[this.runsLength++] = value;
  }

  private push(node: number): void {
    if (this.openSize === this.open.length) this.open = doubled(this.open);
    const open = this.open;
    let index = this.openSize++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = open[parent] as number;
      if (!this.before(node, above)) break;
      open[index] = above;
      index = parent;
    }
    open[index] = node;
  }

  /** Takes the first node off the open list (which must not be empty). */
  pop(): number {
    const open = this.open;
    const top = open[0] as number;
    const last = open[--this.openSize] as number;
    let index = 0;
    for (let child = 1; child < this.openSize; child = 2 * index + 1) {
      if (child + 1 < this.openSize && this.before(open[child + 1] as number, open[child] as number)) child++;
      if (!this.before(open[child] as number, last)) break;
      open[index] = open[child] as number;
      index = child;
    }
    open[index] = last;
    return top;
  }

  private before(a: number, b: number): boolean {
    const { f, unmet } = this;
    if (f[a] !== f[b]) return (f[a] as number) < (f[b] as number);
    return unmet[a] !== unmet[b] ? (unmet[a] as number) < (unmet[b] as number) : a < b;
  }

  /** The newest node of the state with these hashes, or -1. */
  find(hash: number, check: number): number {
    return (this.slots[this.slotOf(hash, check)] as number) - 1;
  }

  /** Makes `node` (the newest) its state's node in the table. */
  private insert(node: number): void {
    const slot = this.slotOf(this.hash[node] as number, this.check[node] as number);
    if (this.slots[slot] === 0 && ++this.states > this.slots.length >> 1) {
      // At most half full, so probe runs stay short: place every state again in a table twice the size.
      const old = this.slots;
      this.slots = new Int32Array(2 * old.length);
      this.states = 0;
      for (const entry of old) if (entry > 0) this.insert(entry - 1);
      this.insert(node);
    } else this.slots[slot] = node + 1;
  }

  /** Where the state with these hashes is in the table, or the empty slot it goes to. */
  private slotOf(hash: number, check: number): number {
    const { slots } = this;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (let node = (slots[slot] as number) - 1; node >= 0; node = (slots[slot] as number) - 1) {
      if (this.hash[node] === hash && this.check[node] === check) break;
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** A stamp no entry of `seen` holds yet. */
  nextStamp(): number {
    if (this.stamp === 0x3fffffff) {
      this.seen.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** Whether `condition` holds at the cursor's node. */
  has(condition: number): boolean {
    return ((this.words[condition >>> 5] as number) & (1 << (condition & 31))) !== 0;
  }

  /** Moves the cursor to `target`'s state (the root is node 0). */
  moveTo(target: number): void {
    const { parent, depth, down } = this;
    let from = this.at;
    let to = target;
    let downLength = 0;
    while (from !== to) {
      if ((depth[from] as number) >= (depth[to] as number)) {
        this.flipRun(from);
        from = parent[from] as number;
      } else {
        down[downLength++] = to;
        to = parent[to] as number;
      }
    }
    while (downLength > 0) this.flipRun(down[--downLength] as number);
    this.at = target;
  }

  private flipRun(node: number): void {
    const { runs } = this;
    const run = this.flips[node] as number;
    for (let i = run + 1, end = run + 1 + (runs[run] as number); i < end; i++) this.flip(runs[i] as number);
  }

  private flip(condition: number): void {
    this.words[condition >>> 5] = (this.words[condition >>> 5] as number) ^ (1 << (condition & 31));
  }
}
