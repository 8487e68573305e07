// The rows of a run's tree: one per node, with its timing bar and summary.
import { select } from "./detail-panel.js";
import { duration, el, money, short, status, textOf } from "./dom.js";
import { renderRun } from "./run-view.js";
import { collapsed, state } from "./state.js";

export function allNodes(nodes, out = []) {
  for (const node of nodes) {
    out.push(node);
    if (node.children) allNodes(node.children, out);
  }
  return out;
}

export function addRows(node, depth, rows, scale) {
  try {
    addRow(node, depth, rows, scale);
  } catch (error) {
    // A record of an unexpected shape: one error row, and the rest of the run still shows.
    rows.push(
      el(
        "div",
        { class: "row node kind-event unreadable", "data-kind": "event" },
        el(
          "div",
          { class: "label", style: `padding-left:${8 + depth * 16}px` },
          el("span", { class: "icon" }, "!"),
          el("span", { class: "error" }, `This part of the trace cannot be shown: ${error.message}`),
        ),
      ),
    );
  }
}

export function addRow(node, depth, rows, scale) {
  const hasChildren = node.children && node.children.length > 0;
  const isCollapsed = collapsed.has(node.id);
  const left = ((node.startedAt - scale.start) / scale.span) * 100;
  const width = ((node.durationMs ?? Date.now() - node.startedAt) / scale.span) * 100;
  rows.push(
    el(
      "div",
      {
        class: `row node kind-${node.kind}${node.id === state.selectedId ? " selected" : ""}`,
        "data-kind": node.kind,
        "data-id": node.id,
        "data-type": node.type,
        onclick: () => select(node),
      },
      el(
        "div",
        { class: "label", style: `padding-left:${8 + depth * 16}px` },
        el(
          "span",
          {
            class: "toggle",
            onclick: (event) => {
              event.stopPropagation();
              if (!hasChildren) return;
              if (isCollapsed) collapsed.delete(node.id);
              else collapsed.add(node.id);
              renderRun(state.currentView);
            },
          },
          hasChildren ? (isCollapsed ? "▸" : "▾") : "",
        ),
        describe(node),
      ),
      el(
        "div",
        { class: "lane" },
        el("div", {
          class: "bar",
          style: `left:${Math.max(0, Math.min(100, left))}%;width:${Math.max(0, Math.min(100 - left, width))}%`,
          title: duration(node.durationMs),
        }),
      ),
    ),
  );
  if (hasChildren && !isCollapsed) for (const child of node.children) addRows(child, depth + 1, rows, scale);
}

/** An action's outcome; one that waited and was answered since reads `answered` (it ran again below), not a stale `waiting`. */
export function actionStatus(node) {
  if (!node.outcome) return status("running");
  if (node.outcome !== "waiting") return status(node.outcome);
  const answered = allNodes(state.currentView?.roots ?? []).some(
    (other) => other.type === "response-received" && other.startedAt >= node.startedAt,
  );
  return answered
    ? el(
        "span",
        { class: "status answered", title: "It waited for a person, was answered, and ran again" },
        "answered",
      )
    : status("waiting");
}

/** A wait's rows: who is asked what (with the arguments), and who answered how, after how long. */
export function describeWait(node) {
  const record = node.record ?? {};
  if (node.type === "awaiting-response") {
    const requests = Array.isArray(record.requests) ? record.requests : [];
    return [
      el("span", { class: "icon" }, "⏸"),
      el("span", { class: "name wait-name" }, "waits for a person"),
      ...requests.map((request) =>
        el(
          "span",
          { class: "wait-request" },
          el("span", { class: "tag" }, textOf(request.id)),
          " ",
          textOf(request.what),
          request.arguments === undefined
            ? ""
            : el("span", { class: "muted" }, ` ${short(textOf(request.arguments), 60)}`),
        ),
      ),
    ];
  }
  const approved = record.approved === true ? "approved" : record.approved === false ? "denied" : "answered";
  const reason = typeof record.response?.reason === "string" ? `: ${record.response.reason}` : "";
  return [
    el("span", { class: "icon" }, record.approved === false ? "✗" : "✓"),
    el("span", { class: "tag" }, textOf(record.requestId)),
    el("span", { class: `status ${approved}` }, approved),
    el("span", {}, `by ${textOf(record.respondent ?? "?")}${reason}`),
    el("span", { class: "muted" }, `${textOf(record.what ?? "")} · waited ${duration(record.waitedMs)}`),
  ];
}

/** `retrying in 1.0 s after 429 (attempt 2 of 3)`, as the CLI shows a retry. */
export function retryText(retry) {
  return `retrying in ${(retry.delayMs / 1000).toFixed(1)} s after ${retry.reason} (attempt ${retry.attempt} of ${retry.maxAttempts})`;
}

export function describe(node) {
  switch (node.kind) {
    case "process":
      return [
        el("span", { class: "icon" }, "◆"),
        el("span", { class: "name" }, node.agent ?? "process"),
        node.parentId ? el("span", { class: "tag" }, "subagent") : undefined,
        status(node.status),
        el("span", { class: "muted" }, duration(node.durationMs)),
      ];
    case "plan":
      return [
        el("span", { class: "icon" }, "☰"),
        el("span", { class: "name" }, node.replan ? "Replan" : "Plan"),
        el("span", {}, node.actions.length ? node.actions.join(" → ") : "(goal reached)"),
        el("span", { class: "muted" }, `goal ${node.goal} · cost ${node.cost}`),
      ];
    case "action":
      return [
        el("span", { class: "icon" }, node.outcome === "waiting" ? "⏸" : "▶"),
        el("span", { class: "name" }, node.name),
        actionStatus(node),
        el("span", { class: "muted" }, duration(node.durationMs)),
      ];
    case "llm":
      return [
        el("span", { class: "icon" }, "✦"),
        el("span", { class: "name" }, `LLM call ${node.iteration}`),
        node.interactionId ? el("span", { class: "tag loop" }, node.interactionId) : undefined,
        el("span", { class: "muted" }, node.model ?? ""),
        el("span", { class: "tag" }, `${node.toolNames.length} tools`),
        node.retries?.length
          ? el(
              "span",
              { class: "tag retried", title: node.retries.map(retryText).join("\n") },
              `retried ×${node.retries.length}`,
            )
          : undefined,
        el(
          "span",
          { class: "muted" },
          `${node.usage ? `${node.usage.inputTokens}→${node.usage.outputTokens} tok · ` : ""}${node.costUsd !== undefined ? `${money(node.costUsd)} · ` : ""}${duration(node.durationMs)}`,
        ),
      ];
    case "tool":
      return [
        el("span", { class: "icon" }, "⚙"),
        el("span", { class: "name" }, node.name),
        el("span", { class: "muted" }, short(node.input, 50)),
        node.result?.kind === "error" ? el("span", { class: "tag error" }, "error") : undefined,
        node.added.length ? el("span", { class: "tag added" }, `+ ${node.added.join(", ")}`) : undefined,
        node.removed.length
          ? el("span", { class: "tag removed" }, `− ${node.removed.join(", ")}`)
          : undefined,
        el("span", { class: "muted" }, duration(node.durationMs)),
      ];
    default:
      if (node.type === "awaiting-response" || node.type === "response-received") return describeWait(node);
      if (node.type === "unreadable-record") {
        return [el("span", { class: "icon" }, "!"), el("span", { class: "error" }, short(node.summary, 160))];
      }
      return [el("span", { class: "icon" }, "·"), el("span", { class: "muted" }, short(node.summary, 120))];
  }
}

// --- details ---------------------------------------------------------------
