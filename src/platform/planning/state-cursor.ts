import type { NodeStore } from "./node-store.js";

/**
 * The world state of one search node, materialised in a single mutable
 * bitset. Nodes store only the conditions they flipped; moving the cursor to
 * another node undoes flips up to the common ancestor and applies them down
 * to the target, so memory per node is independent of the number of
 * conditions (a chain-shaped search moves one step at a time).
 */
export class StateCursor {
  private words = new Int32Array(0);
  private at = 0;
  private readonly down: number[] = [];

  constructor(private readonly nodes: NodeStore) {}

  /** Starts a new search at its root (node 0), whose true conditions are `trueConditions` of `conditions`. */
  reset(conditions: number, trueConditions: readonly number[]): void {
    const length = (conditions >>> 5) + 1;
    if (this.words.length < length || this.words.length > 4 * length) this.words = new Int32Array(length);
    else this.words.fill(0);
    this.at = 0;
    for (const condition of trueConditions) this.flip(condition);
  }

  /** Whether `condition` holds at the current node. */
  has(condition: number): boolean {
    return ((this.words[condition >>> 5] as number) & (1 << (condition & 31))) !== 0;
  }

  /** Makes node `target`'s state current (the root is node 0). */
  moveTo(target: number): void {
    const { parent, depth } = this.nodes;
    let from = this.at;
    let to = target;
    // `down` keeps its capacity between moves (emptying it with `length = 0` would free it).
    const down = this.down;
    let downLength = 0;
    while (from !== to) {
      if ((depth[from] as number) >= (depth[to] as number)) {
        this.flipChanged(from);
        from = parent[from] as number;
      } else {
        down[downLength++] = to;
        to = parent[to] as number;
      }
    }
    for (let index = downLength - 1; index >= 0; index--) this.flipChanged(down[index] as number);
    this.at = target;
  }

  private flipChanged(node: number): void {
    const { changedStart, changedEnd, changed } = this.nodes;
    for (let i = changedStart[node] as number, end = changedEnd[node] as number; i < end; i++) {
      this.flip(changed.items[i] as number);
    }
  }

  private flip(condition: number): void {
    this.words[condition >>> 5] = (this.words[condition >>> 5] as number) ^ (1 << (condition & 31));
  }
}
