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

  /** Ends a search; a workspace grown past {@link KEPT_NODES} nodes gives its memory back. */
  release(): void {
    this.busy = false;
    if (this.nodes.capacity > KEPT_NODES) {
      this.nodes.reset(1024);
      this.states.reset(1024);
      this.open.reset(1024);
    }
  }
}

/** The most nodes a workspace keeps room for between searches (about 6 MB). */
const KEPT_NODES = 1 << 17;

const shared = new SearchWorkspace();
