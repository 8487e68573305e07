// The embabel-ts studio page: plain browser JavaScript modules, no build step.
import { setUpForm } from "./run-form.js";
import { loadRuns, route } from "./runs-panel.js";

window.addEventListener("popstate", route);
setUpForm().catch(() => {});
route();
setInterval(() => loadRuns().catch(() => {}), 5000);
