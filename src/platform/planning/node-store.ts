/**
 * Search nodes stored column-wise in typed arrays (a node is an index), so a
 * search of any size allocates a handful of arrays instead of several small
 * objects per node: the garbage collector never has a live node to copy.
 * Searches reuse one store ({@link NodeStore.reset}).
 */
export class NodeStore {
  size = 0;
  parent = new Int32Array(0);
  depth = new Int32Array(0);
  action = new Int32Array(0);
  hash = new Int32Array(0);
  check = new Int32Array(0);
  unmet = new Int32Array(0);
  nextSameHash = new Int32Array(0);
  closed = new Uint8Array(0);
  g = new Float64Array(0);
  f = new Float64Array(0);
  /** The conditions a node flipped relative to its parent: `changed.items[changedStart[n] … changedEnd[n])`. */
  changedStart = new Int32Array(0);
  changedEnd = new Int32Array(0);
  readonly changed: IntBuffer;
  /** The actions useful at an expanded node: `useful.items[usefulStart[n] … usefulEnd[n])`. */
  usefulStart = new Int32Array(0);
  usefulEnd = new Int32Array(0);
  readonly useful: IntBuffer;

  constructor(capacity = 1024) {
    this.grow(capacity);
    this.changed = new IntBuffer(capacity);
    this.useful = new IntBuffer(capacity);
  }

  /** How many nodes fit before the columns grow. */
  get capacity(): number {
    return this.parent.length;
  }

  /** Empties the store for a new search of about `capacity` nodes (columns are reallocated only to grow or shrink). */
  reset(capacity: number): void {
    this.size = 0;
    this.changed.reset(capacity);
    this.useful.reset(capacity);
    if (this.parent.length < capacity || this.parent.length > 4 * capacity) this.grow(capacity, false);
  }

  /** Appends a node and returns its index (fields other than the ones given start at 0). */
  add(
    parent: number,
    action: number,
    hash: number,
    check: number,
    g: number,
    f: number,
    unmet: number,
  ): number {
    if (this.size === this.parent.length) this.grow(this.size * 2);
    const node = this.size++;
    this.parent[node] = parent;
    this.depth[node] = parent < 0 ? 0 : (this.depth[parent] as number) + 1;
    this.action[node] = action;
    this.hash[node] = hash;
    this.check[node] = check;
    this.g[node] = g;
    this.f[node] = f;
    this.unmet[node] = unmet;
    this.nextSameHash[node] = -1;
    this.closed[node] = 0;
    this.changedStart[node] = this.changedEnd[node] = this.changed.length;
    return node;
  }

  /** Reallocates the columns at `capacity` nodes, keeping the nodes when `keep`. */
  private grow(capacity: number, keep = true): void {
    const grow32 = (array: Int32Array) => {
      const next = new Int32Array(capacity);
      if (keep) next.set(array);
      return next;
    };
    const grow64 = (array: Float64Array) => {
      const next = new Float64Array(capacity);
      if (keep) next.set(array);
      return next;
    };
    this.parent = grow32(this.parent);
    this.depth = grow32(this.depth);
    this.action = grow32(this.action);
    this.hash = grow32(this.hash);
    this.check = grow32(this.check);
    this.unmet = grow32(this.unmet);
    this.nextSameHash = grow32(this.nextSameHash);
    this.changedStart = grow32(this.changedStart);
    this.changedEnd = grow32(this.changedEnd);
    this.usefulStart = grow32(this.usefulStart);
    this.usefulEnd = grow32(this.usefulEnd);
    const closed = new Uint8Array(capacity);
    if (keep) closed.set(this.closed);
    this.closed = closed;
    this.g = grow64(this.g);
    this.f = grow64(this.f);
  }
}

/** An append-only, growable buffer of int32s. */
export class IntBuffer {
  items: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.items = new Int32Array(Math.max(1, capacity));
  }

  /** Empties the buffer, reallocating it only to grow to `capacity` or to shrink from far above it. */
  reset(capacity: number): void {
    this.length = 0;
    if (this.items.length < capacity || this.items.length > 4 * capacity)
      this.items = new Int32Array(Math.max(1, capacity));
  }

  push(value: number): void {
    if (this.length === this.items.length) {
      const next = new Int32Array(this.items.length * 2);
      next.set(this.items);
      this.items = next;
    }
    this.items[this.length++] = value;
  }
}

/** A binary min-heap of node indexes ordered by `before(a, b)`, stored in a growable Int32Array. */
export class IndexHeap {
  private items: Int32Array;
  size = 0;

  constructor(
    private readonly before: (a: number, b: number) => boolean,
    capacity = 1024,
  ) {
    this.items = new Int32Array(Math.max(1, capacity));
  }

  push(item: number): void {
    if (this.size === this.items.length) {
      const next = new Int32Array(this.items.length * 2);
      next.set(this.items);
      this.items = next;
    }
    const items = this.items;
    let index = this.size++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent] as number;
      if (!this.before(item, above)) break;
      items[index] = above;
      index = parent;
    }
    items[index] = item;
  }

  /** Empties the heap, reallocating it only to grow to `capacity` or to shrink from far above it. */
  reset(capacity: number): void {
    this.size = 0;
    if (this.items.length < capacity || this.items.length > 4 * capacity)
      this.items = new Int32Array(Math.max(1, capacity));
  }

  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items[--this.size] as number;
    if (this.size === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child =
        right < this.size && this.before(items[right] as number, items[left] as number) ? right : left;
      if (!this.before(items[child] as number, last)) break;
      items[index] = items[child] as number;
      index = child;
    }
    items[index] = last;
    return top;
  }
}
