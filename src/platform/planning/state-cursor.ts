/** A search node as the cursor sees it: the conditions it flipped relative to its parent. */
export interface TreeNode {
  readonly parent: TreeNode | undefined;
  readonly depth: number;
  /** Conditions whose value differs from the parent's state. */
  readonly changed: readonly number[];
}

/**
 * The world state of one search node, materialised in a single mutable
 * bitset. Nodes store only the conditions they flipped; moving the cursor to
 * another node undoes flips up to the common ancestor and applies them down
 * to the target, so memory per node is independent of the number of
 * conditions (a chain-shaped search moves one step at a time).
 */
export class StateCursor {
  private readonly words: Int32Array;
  private at: TreeNode;

  constructor(conditions: number, trueConditions: Iterable<number>, root: TreeNode) {
    this.words = new Int32Array((conditions >>> 5) + 1);
    for (const condition of trueConditions) this.flip(condition);
    this.at = root;
  }

  /** Whether `condition` holds at the current node. */
  has(condition: number): boolean {
    return ((this.words[condition >>> 5] as number) & (1 << (condition & 31))) !== 0;
  }

  /** Makes `target`'s state current. */
  moveTo(target: TreeNode): void {
    let from: TreeNode = this.at;
    let to: TreeNode = target;
    const down: TreeNode[] = [];
    while (from !== to) {
      if (from.depth >= to.depth) {
        for (const condition of from.changed) this.flip(condition);
        from = from.parent as TreeNode;
      } else {
        down.push(to);
        to = to.parent as TreeNode;
      }
    }
    for (let index = down.length - 1; index >= 0; index--) {
      for (const condition of (down[index] as TreeNode).changed) this.flip(condition);
    }
    this.at = target;
  }

  private flip(condition: number): void {
    this.words[condition >>> 5] = (this.words[condition >>> 5] as number) ^ (1 << (condition & 31));
  }
}
