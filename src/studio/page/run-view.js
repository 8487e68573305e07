// One run: its tree, kept live while it runs, and its open requests (approve, deny, answer).
import { getJson } from "./api.js";
import { closeDetail, showDetail } from "./detail-panel.js";
import { count, duration, el, money, status, textOf } from "./dom.js";
import { loadRuns, showError } from "./runs-panel.js";
import { liveBadge, main, state } from "./state.js";
import { addRows, allNodes } from "./trace-rows.js";

export async function openRun(runId) {
  if (runId !== state.currentRunId) {
    state.events?.close();
    state.events = undefined;
    state.selectedId = undefined;
    closeDetail();
  }
  state.currentRunId = runId;
  let view;
  try {
    view = await getJson(`/api/runs/${encodeURIComponent(runId)}`);
  } catch (error) {
    liveBadge.hidden = true;
    showError(error.status === 404 ? "No such run" : "This trace cannot be shown", error.message);
    return;
  }
  if (runId !== state.currentRunId) return;
  state.currentView = view;
  renderRun(view);
  liveBadge.hidden = !view.live;
  if (view.live && !state.events) follow(runId);
  if (state.selectedId) {
    const node = findNode(view.roots, state.selectedId);
    if (node) showDetail(node);
  }
}

export function follow(runId) {
  state.events = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
  const refresh = () => {
    clearTimeout(state.refreshTimer);
    state.refreshTimer = setTimeout(() => openRun(runId), 150);
  };
  state.events.addEventListener("record", refresh);
  state.events.addEventListener("end", () => {
    state.events?.close();
    state.events = undefined;
    setTimeout(() => {
      openRun(runId);
      loadRuns();
    }, 50);
  });
}

export function findNode(nodes, id) {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = node.children ? findNode(node.children, id) : undefined;
    if (found) return found;
  }
  return undefined;
}

export function renderRun(view) {
  const totals = view.totals;
  const title = textOf(view.meta.example ?? view.roots[0]?.agent ?? "run");
  const head = el(
    "div",
    { class: "run-head" },
    el("h1", {}, title, " ", status(view.status)),
    view.meta.input ? el("div", { class: "muted" }, `input: ${textOf(view.meta.input)}`) : undefined,
    el(
      "div",
      { class: "facts" },
      el("span", {}, el("b", {}, duration(view.durationMs)), " total"),
      el("span", {}, count(totals.llmCalls, "LLM call")),
      totals.llmRetries ? el("span", {}, count(totals.llmRetries, "LLM retry", "LLM retries")) : undefined,
      el("span", {}, count(totals.toolCalls, "tool call")),
      totals.processes > 1 ? el("span", {}, count(totals.processes - 1, "subagent run")) : undefined,
      el(
        "span",
        {},
        el("b", {}, totals.tokens.totalTokens),
        ` tokens (${totals.tokens.inputTokens} in / ${totals.tokens.outputTokens} out)`,
      ),
      el("span", {}, el("b", {}, money(totals.costUsd)), " cost"),
    ),
  );
  const start = view.startedAt;
  const end = Math.max(
    start + 1,
    ...allNodes(view.roots).map((node) => node.startedAt + (node.durationMs ?? 0)),
  );
  const rows = [];
  for (const root of view.roots) addRows(root, 0, rows, { start, span: end - start });
  const waits =
    view.awaiting?.length > 0
      ? renderWaits(view.awaiting, view.answerable)
      : view.unanswered?.length > 0
        ? renderExitedWhileWaiting(view)
        : undefined;
  main.replaceChildren(head, waits ?? "", el("div", { class: "tree", id: "tree" }, rows));
}

/** `r1 approve issue_refund`: who is asked what, as one line. */
export function requestLine(request) {
  return [el("b", {}, textOf(request.id)), " ", textOf(request.what)];
}

// A run that ended while it waited: nothing here can answer it any more; say so, and how it can be.
export function renderExitedWhileWaiting(view) {
  const processId = textOf(view.roots[0]?.id ?? "<process-id>");
  const first = view.unanswered[0];
  return el(
    "section",
    { class: "waits exited", id: "exited-waiting" },
    el("h2", {}, "Ended while waiting for a person"),
    el(
      "p",
      {},
      "The program that ran this run exited before these requests were answered, so they cannot be answered here:",
    ),
    el(
      "ul",
      {},
      view.unanswered.map((request) =>
        el("li", { "data-request": textOf(request.id) }, requestLine(request)),
      ),
    ),
    el(
      "p",
      { class: "muted" },
      "A run sent to workers (run --redis) still waits in Redis: answer it with ",
      el(
        "code",
        {},
        `embabel-ts respond [<module>] ${processId} ${textOf(first?.id ?? "<request-id>")} approve --redis <url>`,
      ),
      ". A run without --redis ended with its program: run it again from this page, on a terminal, or with --approve-all / --deny-all.",
    ),
  );
}

// A waiting run's requests, each with its arguments and Approve / Deny (with a reason) buttons.
export function renderWaits(requests, answerable) {
  return el(
    "section",
    { class: "waits", id: "waits" },
    el("h2", {}, "Waiting for you"),
    requests.map((request) => {
      const reason = el("input", {
        class: "reason",
        placeholder: "reason (for Deny)",
        "aria-label": "reason",
      });
      const answer = (response) => respond(request.id, response);
      const shown =
        request.kind === "approval"
          ? request.arguments
          : request.kind === "form"
            ? request.schema
            : request.payload;
      const buttons =
        request.kind === "form" || answerable === false
          ? [] // forms are answered from code, the terminal or `embabel-ts respond … submit`
          : [
              el("button", { class: "approve", onclick: () => answer({ approved: true }) }, "Approve"),
              el(
                "button",
                {
                  class: "deny",
                  onclick: () =>
                    answer(
                      reason.value.trim()
                        ? { approved: false, reason: reason.value.trim() }
                        : { approved: false },
                    ),
                },
                "Deny",
              ),
              reason,
            ];
      return el(
        "div",
        { class: "wait", "data-request": request.id },
        el("div", {}, requestLine(request)),
        request.message ? el("div", { class: "muted" }, request.message) : undefined,
        el("pre", {}, JSON.stringify(shown, null, 2)),
        el("div", { class: "wait-actions" }, buttons),
        el("div", { class: "error wait-error", role: "alert" }),
      );
    }),
  );
}

export async function respond(requestId, response) {
  const runId = state.currentRunId;
  try {
    await getJson(`/api/runs/${encodeURIComponent(runId)}/respond`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ requestId, response }),
    });
  } catch (error) {
    const box = document.querySelector(`.wait[data-request="${requestId}"] .wait-error`);
    if (box) box.textContent = error.message;
    return;
  }
  openRun(runId);
}
