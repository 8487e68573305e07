// The docs an npm user reads (README.md, CHANGELOG.md and docs/, all in the
// tarball) lead somewhere from node_modules/embabel-ts too: every relative link
// points at a file the tarball holds, and a repository path that is not in the
// tarball (src/…, test/…, bench/…) is a link to the repository, not bare text.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { root } from "./support/dist.js";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  repository: { url: string };
  homepage: string;
  bugs: { url: string };
};
/** Where the repository's files are linked from. */
const REPOSITORY = "https://github.com/embabel/embabel-ts";

/** `markdown` without its fenced code blocks (their text is code, not links), lines kept in place. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, " "));
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

let tarball: Set<string>;

beforeAll(async () => {
  // --ignore-scripts: no prepack build; the file list comes from package.json's "files".
  const { stdout } = await run(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
  tarball = new Set(packed?.files.map((file) => file.path));
}, 120_000);

describe("the package links back", () => {
  it("names its repository, home page and issue tracker", () => {
    expect(manifest.repository.url).toBe(`git+${REPOSITORY}.git`);
    expect(manifest.homepage).toBe(`${REPOSITORY}#readme`);
    expect(manifest.bugs.url).toBe(`${REPOSITORY}/issues`);
  });

  it("every relative link in the shipped docs points at a file in the tarball", () => {
    const pages = [...tarball].filter((path) => path.endsWith(".md") && !path.startsWith("examples/"));
    expect(pages).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "docs/cli.md"]));
    const broken: string[] = [];
    for (const page of pages) {
      const text = prose(readFileSync(join(root, page), "utf8"));
      for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const link = match[1] as string;
        if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("#")) continue;
        const target = posix.normalize(
          posix.join(posix.dirname(page), decodeURI(link.split("#")[0] as string)),
        );
        if (!tarball.has(target))
          broken.push(`${page}:${lineOf(text, match.index)}: ${link} (${target} is not in the tarball)`);
      }
    }
    expect(broken, `links an npm reader cannot follow:\n${broken.join("\n")}`).toEqual([]);
  });

  it("cites repository files that are not in the tarball as links to the repository", () => {
    // CHANGELOG.md is history: its entries name the files of their day.
    const pages = [...tarball].filter((path) => path === "README.md" || path.startsWith("docs/"));
    const bare: string[] = [];
    for (const page of pages) {
      const text = prose(readFileSync(join(root, page), "utf8"));
      for (const match of text.matchAll(
        /(?<!\[)`((?:src|test|bench|scripts|examples)\/[\w.-][\w./-]*)`(?!\]\()/g,
      )) {
        const path = match[1] as string;
        if (!tarball.has(path)) bare.push(`${page}:${lineOf(text, match.index)}: \`${path}\``);
      }
      for (const match of text.matchAll(
        /\]\((https:\/\/github\.com\/embabel\/embabel-ts\/(?:blob|tree)\/main\/([^)#\s]+))/g,
      )) {
        const path = match[2] as string;
        if (!existsSync(join(root, path)))
          bare.push(`${page}:${lineOf(text, match.index)}: ${match[1]} (no ${path} here)`);
      }
    }
    expect(
      bare,
      `write these as [\`path\`](${REPOSITORY}/blob/main/path) (a folder: /tree/main/):\n${bare.join("\n")}`,
    ).toEqual([]);
  });
});

describe("prose", () => {
  it("blanks fenced blocks and keeps line numbers", () => {
    const text = prose("a\n```ts\n[x](y)\n```\n[z](w)");
    expect(text).not.toContain("[x](y)");
    expect(lineOf(text, text.indexOf("[z]"))).toBe(5);
  });
});
