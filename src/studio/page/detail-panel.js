// The detail panel of the selected node: an LLM call's messages, a tool call's input and result.
import { getJson } from "./api.js";
import { duration, el, money, panel, pre, pretty, section } from "./dom.js";
import { detail, state } from "./state.js";
import { retryText } from "./trace-rows.js";

export function select(node) {
  state.selectedId = node.id;
  for (const row of document.querySelectorAll(".row.selected")) row.classList.remove("selected");
  document.querySelector(`.row[data-id="${CSS.escape(node.id)}"]`)?.classList.add("selected");
  showDetail(node);
}

export function closeDetail() {
  detail.hidden = true;
  detail.replaceChildren();
}

export async function showDetail(node) {
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
          `/api/runs/${encodeURIComponent(state.currentRunId)}/llm/${encodeURIComponent(node.id)}`,
        );
      } catch (error) {
        panel(`LLM call ${node.iteration}`, el("p", { class: "error" }, error.message));
        return;
      }
      if (state.selectedId !== node.id) return;
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

export function renderMessage(message, isNew) {
  const parts =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  return el(
    "div",
    { class: `message${isNew ? " new" : ""}` },
    el("div", { class: "role" }, message.role),
    (parts ?? []).map((part) => renderPart(part)),
  );
}

export function renderPart(part) {
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
