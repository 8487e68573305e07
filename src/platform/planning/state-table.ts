import type { NodeStore } from "./node-store.js";

/**
 * Open-addressed buckets of node indexes keyed by a state's primary hash,
 * chained through `nodes.nextSameHash`; the newest node of a state comes
 * first (it has the lowest cost found so far).
 */
export class StateTable {
  private heads = new Int32Array(0);
  private count = 0;

  constructor(private readonly nodes: NodeStore) {}

  /** Empties the table for a search of about `capacity` nodes (at least twice as many buckets). */
  reset(capacity: number): void {
    const size = 2 ** Math.ceil(Math.log2(Math.max(16, 2 * capacity)));
    if (this.heads.length < size || this.heads.length > 4 * size) this.heads = new Int32Array(size);
    this.heads.fill(-1);
    this.count = 0;
  }

  find(hash: number, check: number): number {
    const { nodes } = this;
    let node = this.heads[hash & (this.heads.length - 1)] as number;
    while (node >= 0 && (nodes.hash[node] !== hash || nodes.check[node] !== check)) {
      node = nodes.nextSameHash[node] as number;
    }
    return node;
  }

  /** Adds `node`, which must be the node store's newest node. */
  insert(node: number): void {
    if (++this.count > this.heads.length >> 1) this.rehash(this.heads.length * 2);
    else this.link(node);
  }

  private link(node: number): void {
    const bucket = (this.nodes.hash[node] as number) & (this.heads.length - 1);
    this.nodes.nextSameHash[node] = this.heads[bucket] as number;
    this.heads[bucket] = node;
  }

  /** Relinks every node (all of them are in the table), oldest first, so the newest stays first. */
  private rehash(capacity: number): void {
    this.heads = new Int32Array(capacity).fill(-1);
    for (let node = 0; node < this.nodes.size; node++) this.link(node);
  }
}
