import { IndexHeap, NodeStore } from "./node-store.js";
import { StateCursor } from "./state-cursor.js";
import { StateTable } from "./state-table.js";

/**
 * The node store, open list, state table and state cursor of one A* search,
 * reused by the next: a plan call allocates none of them, and since these
 * objects stay alive, a full garbage collection between plans does not drop
 * their hidden classes (which would throw away the planner's optimised code
 * and make the next plan run unoptimised while it is compiled again).
 */
export class SearchWorkspace {
  readonly nodes = new NodeStore(1024);
  readonly states = new StateTable(this.nodes);
  readonly state = new StateCursor(this.nodes);
  /** Lowest f first; ties to fewer unmet goal literals, then to the earlier node. */
  readonly open = new IndexHeap((a, b) => {
    const { f, unmet } = this.nodes;
    const fa = f[a] as number;
    const fb = f[b] as number;
    if (fa !== fb) return fa < fb;
    const ua = unmet[a] as number;
    const ub = unmet[b] as number;
    return ua !== ub ? ua < ub : a < b;
  });
  /** The useful actions of the node being expanded. */
  found = new Int32Array(16);
  /** Action → the stamp of the last expansion that looked at it. */
  seen = new Int32Array(16);
  /** The conditions an action being applied flips. */
  changed = new Int32Array(16);
  private stamp = 0;
  private busy = false;

  /**
   * The shared workspace, emptied for a search of about `capacity` nodes over
   * `conditions` conditions, or a new one while the shared one is in use.
   * Give it back with {@link SearchWorkspace.release}.
   */
  static acquire(capacity: number, conditions: number, trueConditions: readonly number[]): SearchWorkspace {
    const workspace = shared.busy ? new SearchWorkspace() : shared;
    workspace.busy = true;
    workspace.nodes.reset(capacity);
    workspace.states.reset(capacity);
    workspace.state.reset(conditions, trueConditions);
    workspace.open.reset(capacity);
    return workspace;
  }

  /** Sizes the scratch arrays for a domain of `actions` actions, `relevant` of them relevant, at most `mostEffects` effects each. */
  prepareScratch(actions: number, relevant: number, mostEffects: number): void {
    if (this.found.length < relevant) this.found = new Int32Array(relevant);
    if (this.seen.length < actions) {
      this.seen = new Int32Array(actions);
      this.stamp = 0;
    }
    if (this.changed.length < mostEffects) this.changed = new Int32Array(mostEffects);
  }

  /** A stamp no entry of `seen` holds yet. */
  nextStamp(): number {
    if (this.stamp === 0x3fffffff) {
      this.seen.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** Ends a search; a workspace grown past {@link KEPT_NODES} nodes gives its memory back. */
  release(): void {
    this.busy = false;
    if (this.nodes.capacity > KEPT_NODES) {
      this.nodes.reset(1024);
      this.states.reset(1024);
      this.open.reset(1024);
    }
    if (this.seen.length > KEPT_NODES) {
      this.seen = new Int32Array(16);
      this.found = new Int32Array(16);
      this.stamp = 0;
    }
  }
}

/** The most nodes a workspace keeps room for between searches (about 6 MB). */
const KEPT_NODES = 1 << 17;

const shared = new SearchWorkspace();
