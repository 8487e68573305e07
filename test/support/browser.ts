import { type Browser, chromium } from "playwright-core";
import { CHROMIUM } from "./system-component.js";

/** Debian's Chromium, headless, as the studio's browser tests drive it (playwright's own download cannot work here). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM.path,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
  });
}
