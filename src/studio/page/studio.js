// The embabel-ts studio page: plain browser JavaScript, no build step.
const main = document.getElementById("main");
const detail = document.getElementById("detail");
const runsList = document.getElementById("runs");
const liveBadge = document.getElementById("live-badge");

let currentRunId;
let currentView;
let selectedId;
let events;
let refreshTimer;
const collapsed = new Set();

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(textOf(child)));
  }
  return node;
}

const duration = (ms) => {
  if (ms === undefined || ms === null) return "…";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60000)} m ${Math.round((ms % 60000) / 1000)} s`;
};
const money = (usd) => (usd > 0 ? `$${usd < 0.01 ? usd.toFixed(5) : usd.toFixed(4)}` : "$0");
const short = (text, max = 90) => {
  const line = String(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};
const pretty = (text) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return String(text ?? "");
  }
};
/** Text for any value a trace may hold (a crafted trace can put an object where a name belongs). */
const textOf = (value) => {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "?";
  }
};
/** `1 tool call`, `2 tool calls`. */
const count = (n, noun, nouns = `${noun}s`) => [el("b", {}, n), ` ${n === 1 ? noun : nouns}`];
const status = (value) =>
  el("span", { class: `status ${textOf(value).replace(/[^\w-]/g, "")}` }, textOf(value));

async function getJson(url, init) {
  const response = await fetch(url, init);
  const body = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok)
    throw Object.assign(new Error(body.error ?? response.statusText), { status: response.status });
  return body;
}

// --- runs list -------------------------------------------------------------

async function loadRuns() {
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
            class: run.id === currentRunId ? "current" : undefined,
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

function navigate(runId) {
  history.pushState({}, "", `/runs/${encodeURIComponent(runId)}`);
  route();
}

function route() {
  const match = /^\/runs\/([^/]+)$/.exec(location.pathname);
  if (match) openRun(decodeURIComponent(match[1]));
  else {
    currentRunId = undefined;
    main.replaceChildren(el("div", { class: "empty" }, "Pick a run on the left, or start one."));
    closeDetail();
  }
  loadRuns().catch(() => {});
}

function showError(title, message) {
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

async function openRun(runId) {
  if (runId !== currentRunId) {
    events?.close();
    events = undefined;
    selectedId = undefined;
    closeDetail();
  }
  currentRunId = runId;
  let view;
  try {
    view = await getJson(`/api/runs/${encodeURIComponent(runId)}`);
  } catch (error) {
    liveBadge.hidden = true;
    showError(error.status === 404 ? "No such run" : "This trace cannot be shown", error.message);
    return;
  }
  if (runId !== currentRunId) return;
  currentView = view;
  renderRun(view);
  liveBadge.hidden = !view.live;
  if (view.live && !events) follow(runId);
  if (selectedId) {
    const node = findNode(view.roots, selectedId);
    if (node) showDetail(node);
  }
}

function follow(runId) {
  events = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
  const refresh = () => {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => openRun(runId), 150);
  };
  events.addEventListener("record", refresh);
  events.addEventListener("end", () => {
    events?.close();
    events = undefined;
    setTimeout(() => {
      openRun(runId);
      loadRuns();
    }, 50);
  });
}

function findNode(nodes, id) {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = node.children ? findNode(node.children, id) : undefined;
    if (found) return found;
  }
  return undefined;
}

function renderRun(view) {
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
function requestLine(request) {
  return [el("b", {}, textOf(request.id)), " ", textOf(request.what)];
}

// A run that ended while it waited: nothing here can answer it any more; say so, and how it can be.
function renderExitedWhileWaiting(view) {
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
function renderWaits(requests, answerable) {
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

async function respond(requestId, response) {
  const runId = currentRunId;
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

function allNodes(nodes, out = []) {
  for (const node of nodes) {
    out.push(node);
    if (node.children) allNodes(node.children, out);
  }
  return out;
}

function addRows(node, depth, rows, scale) {
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

function addRow(node, depth, rows, scale) {
  const hasChildren = node.children && node.children.length > 0;
  const isCollapsed = collapsed.has(node.id);
  const left = ((node.startedAt - scale.start) / scale.span) * 100;
  const width = ((node.durationMs ?? Date.now() - node.startedAt) / scale.span) * 100;
  rows.push(
    el(
      "div",
      {
        class: `row node kind-${node.kind}${node.id === selectedId ? " selected" : ""}`,
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
              renderRun(currentView);
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
function actionStatus(node) {
  if (!node.outcome) return status("running");
  if (node.outcome !== "waiting") return status(node.outcome);
  const answered = allNodes(currentView?.roots ?? []).some(
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
function describeWait(node) {
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
function retryText(retry) {
  return `retrying in ${(retry.delayMs / 1000).toFixed(1)} s after ${retry.reason} (attempt ${retry.attempt} of ${retry.maxAttempts})`;
}

function describe(node) {
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

function select(node) {
  selectedId = node.id;
  for (const row of document.querySelectorAll(".row.selected")) row.classList.remove("selected");
  document.querySelector(`.row[data-id="${CSS.escape(node.id)}"]`)?.classList.add("selected");
  showDetail(node);
}

function closeDetail() {
  detail.hidden = true;
  detail.replaceChildren();
}

function panel(title, ...body) {
  detail.hidden = false;
  detail.replaceChildren(
    el("button", { class: "close", title: "Close", onclick: () => closeDetail() }, "×"),
    el("h2", {}, title),
    ...body.flat(Number.POSITIVE_INFINITY).filter((part) => part !== undefined && part !== null),
  );
}

const section = (title, ...body) => [el("h3", {}, title), ...body];
const pre = (text, attributes = {}) => el("pre", attributes, text);

async function showDetail(node) {
  switch (node.kind) {
    case "tool":
      panel(
        `Tool call · ${node.name}`,
        el("div", { class: "muted" }, `${duration(node.durationMs)} · id ${node.toolCallId}`),
        section("Input", pre(pretty(node.input), { id: "tool-input" })),
        section(
          node.result?.kind === "error" ? "Output (error)" : "Output",
          pre(node.result ? pretty(node.result.content) : "(running)", { id: "tool-output" }),
        ),
        node.added.length || node.removed.length
          ? section(
              "Tools changed",
              el(
                "ul",
                { class: "tools" },
                node.added.map((name) => el("li", { class: "added" }, name)),
                node.removed.map((name) => el("li", { class: "removed" }, name)),
              ),
            )
          : undefined,
      );
      return;
    case "llm": {
      panel(`LLM call ${node.iteration}`, el("div", { class: "muted" }, "loading…"));
      let call;
      try {
        call = await getJson(
          `/api/runs/${encodeURIComponent(currentRunId)}/llm/${encodeURIComponent(node.id)}`,
        );
      } catch (error) {
        panel(`LLM call ${node.iteration}`, el("p", { class: "error" }, error.message));
        return;
      }
      if (selectedId !== node.id) return;
      panel(
        `LLM call ${node.iteration} · ${node.model ?? ""}`,
        el(
          "div",
          { class: "muted" },
          `${duration(node.durationMs)} · ${node.usage ? `${node.usage.inputTokens} in / ${node.usage.outputTokens} out tokens` : ""}${node.costUsd !== undefined ? ` · ${money(node.costUsd)}` : ""}`,
        ),
        node.retries?.length
          ? section(
              `Retries (${node.retries.length})`,
              el(
                "ul",
                { class: "retries" },
                node.retries.map((retry) => el("li", {}, retryText(retry))),
              ),
            )
          : undefined,
        section(
          `Tools offered (${call.tools.length})`,
          el(
            "ul",
            { class: "tools", id: "offered-tools" },
            call.tools.map((tool) =>
              el(
                "li",
                { class: tool.change === "added" ? "added" : undefined },
                el("b", {}, tool.name),
                tool.description ? el("span", { class: "desc" }, tool.description) : undefined,
                tool.inputSchema
                  ? el(
                      "details",
                      {},
                      el("summary", { class: "muted" }, "input schema"),
                      pre(JSON.stringify(tool.inputSchema, null, 2)),
                    )
                  : undefined,
              ),
            ),
            call.removedTools.map((name) => el("li", { class: "removed" }, name)),
          ),
        ),
        section(
          `Messages (${call.messages.length}; ${call.messages.length - call.newFrom} new)`,
          call.messages.map((message, index) => renderMessage(message, index >= call.newFrom)),
        ),
        section(
          "Response",
          call.response.map((part) => renderPart(part)),
        ),
      );
      return;
    }
    default: {
      const { children, ...fields } = node;
      panel(
        node.kind === "process" ? `Process · ${node.agent ?? node.id}` : node.kind,
        pre(JSON.stringify(node.record ?? fields, null, 2)),
      );
    }
  }
}

function renderMessage(message, isNew) {
  const parts =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  return el(
    "div",
    { class: `message${isNew ? " new" : ""}` },
    el("div", { class: "role" }, message.role),
    (parts ?? []).map((part) => renderPart(part)),
  );
}

function renderPart(part) {
  switch (part.type) {
    case "text":
    case "reasoning":
      return pre(part.text);
    case "tool-call":
      return pre(
        `→ ${part.toolName}(${typeof part.input === "string" ? part.input : JSON.stringify(part.input)})`,
      );
    case "tool-result": {
      const output = part.output?.value ?? part.output;
      return pre(
        `← ${part.toolName}: ${typeof output === "string" ? output : JSON.stringify(output, null, 2)}`,
      );
    }
    default:
      return pre(JSON.stringify(part, null, 2));
  }
}

// --- starting a run --------------------------------------------------------

async function setUpForm() {
  const form = document.getElementById("new-run");
  const select = document.getElementById("example");
  const input = document.getElementById("input");
  const error = document.getElementById("run-error");
  const { examples, canRun, models = [] } = await getJson("/api/examples");
  if (!canRun || examples.length === 0) {
    form.hidden = true;
    return;
  }
  select.replaceChildren(...examples.map((example) => el("option", { value: example.name }, example.name)));
  const scriptedMode = form.querySelector("input[name=mode][value=scripted]");
  const modelMode = form.querySelector("input[name=mode][value=model]");
  const fill = () => {
    const example = examples.find((candidate) => candidate.name === select.value);
    input.value = example?.sampleInput ?? "";
    input.title = example?.summary ?? "";
    // An agent without a recorded script runs on a configured model only.
    const canScript = example?.scripted !== false;
    scriptedMode.disabled = !canScript;
    if (!canScript) modelMode.checked = true;
  };
  select.addEventListener("change", fill);
  fill();
  // Only models the studio was started with: the page never names a model id or URL.
  const model = document.getElementById("model");
  model.replaceChildren(
    el("option", { value: "" }, "the configured default"),
    ...models.map((name) => el("option", { value: name }, name)),
  );
  model.hidden = models.length === 0;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const button = document.getElementById("start");
    button.disabled = true;
    try {
      const data = new FormData(form);
      const { runId } = await getJson("/api/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          example: data.get("example"),
          input: data.get("input"),
          mode: data.get("mode"),
          model: data.get("model") || undefined,
        }),
      });
      navigate(runId);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
}

window.addEventListener("popstate", route);
setUpForm().catch(() => {});
route();
setInterval(() => loadRuns().catch(() => {}), 5000);
