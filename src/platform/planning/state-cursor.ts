import type { NodeStore } from "./node-store.js";

/**
 * The world state of one search node, materialised in a single mutable
 * bitset. Nodes store only the conditions they flipped; moving the cursor to
 * another node undoes flips up to the common ancestor and applies them down
 * to the target, so memory per node is independent of the number of
 * conditions (a chain-shaped search moves one step at a time).
 */
export class StateCursor {
  private readonly words: Int32Array;
  private at = 0;
  private readonly down: number[] = [];

  constructor(
    private readonly nodes: NodeStore,
    conditions: number,
    trueConditions: Iterable<number>,
  ) {
    this.words = new Int32Array((conditions >>> 5) + 1);
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
    const down = this.down;
    down.length = 0;
    while (from !== to) {
      if ((depth[from] as number) >= (depth[to] as number)) {
        this.flipChanged(from);
        from = parent[from] as number;
      } else {
        down.push(to);
        to = parent[to] as number;
      }
    }
    for (let index = down.length - 1; index >= 0; index--) this.flipChanged(down[index] as number);
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
