// The form that starts a run of an example.
import { getJson } from "./api.js";
import { el } from "./dom.js";
import { navigate } from "./runs-panel.js";

export async function setUpForm() {
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
