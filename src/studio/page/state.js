// What the page shows now, shared by its panels.
export const main = document.getElementById("main");
export const detail = document.getElementById("detail");
export const runsList = document.getElementById("runs");
export const liveBadge = document.getElementById("live-badge");

/** The open run, its latest view, the selected node, the live event source and the pending refresh. */
export const state = {
  currentRunId: undefined,
  currentView: undefined,
  selectedId: undefined,
  events: undefined,
  refreshTimer: undefined,
};
/** The ids of the collapsed nodes. */
export const collapsed = new Set();
