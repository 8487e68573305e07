// The list of runs, and which run the URL shows.
import { getJson } from "./api.js";
import { closeDetail } from "./detail-panel.js";
import { duration, el, money, status } from "./dom.js";
import { openRun } from "./run-view.js";
import { main, runsList, state } from "./state.js";

export async function loadRuns() {
  const runs = await getJson("/api/runs");
  runsList.replaceChildren(
    ...runs.map((run) =>
      el(
        "li",
        {},
        el(
          "a",
          {
            href: `/runs/${encodeURIComponent(run.id)}`,
            class: run.id === state.currentRunId ? "current" : undefined,
            "data-run": run.id,
            onclick: (event) => {
              event.preventDefault();
              navigate(run.id);
            },
          },
          el("div", {}, el("span", { class: "title" }, run.title), " ", status(run.status)),
          el(
            "div",
            { class: "sub" },
            run.error
              ? run.file
              : `${run.startedAt ? new Date(run.startedAt).toLocaleTimeString() : ""} · ${duration(run.durationMs)} · ${run.tokens} tok · ${money(run.costUsd)}${run.input ? ` · ${run.input}` : ""}`,
          ),
        ),
      ),
    ),
  );
  if (runs.length === 0) runsList.append(el("li", { class: "muted" }, "No runs yet."));
}

// --- one run ---------------------------------------------------------------

export function navigate(runId) {
  history.pushState({}, "", `/runs/${encodeURIComponent(runId)}`);
  route();
}

export function route() {
  const match = /^\/runs\/([^/]+)$/.exec(location.pathname);
  if (match) openRun(decodeURIComponent(match[1]));
  else {
    state.currentRunId = undefined;
    main.replaceChildren(el("div", { class: "empty" }, "Pick a run on the left, or start one."));
    closeDetail();
  }
  loadRuns().catch(() => {});
}

export function showError(title, message) {
  main.replaceChildren(
    el(
      "div",
      { class: "error-page", role: "alert" },
      el("h2", {}, title),
      el("p", { class: "error" }, message),
      el("p", {}, el("a", { href: "/" }, "Back to the runs")),
    ),
  );
}
