// Build step: copy the studio's page (plain HTML, CSS and JS, no bundling) next to the
// compiled studio server, so dist/ — and the published package — serves it as is.
import { cpSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
cpSync(`${root}src/studio/page`, `${root}dist/src/studio/page`, { recursive: true });
