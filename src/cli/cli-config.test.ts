import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { loadConfig } from "./cli-config.js";
import { selectModels } from "./model-selection.js";

function directoryWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "embabel-cli-config-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

describe("loadConfig", () => {
  it("returns an empty config when no file exists", () => {
    const loaded = loadConfig(directoryWith({}));
    expect(loaded.path).toBeUndefined();
    expect(loaded.config).toEqual({ models: {}, roles: {}, mcpServers: {} });
  });

  it("reads embabel.config.json, turning id strings into models", () => {
    const dir = directoryWith({
      "embabel.config.json": JSON.stringify({
        models: {
          best: "openai:gpt-4.1",
          local: { id: "ollama:qwen2.5", baseURL: "http://127.0.0.1:11434" },
        },
        roles: { default: "best", fast: "local" },
      }),
    });
    const loaded = loadConfig(dir);
    expect(loaded.path).toBe(join(dir, "embabel.config.json"));
    expect(loaded.config.models).toEqual({
      best: { id: "openai:gpt-4.1" },
      local: { id: "ollama:qwen2.5", baseURL: "http://127.0.0.1:11434" },
    });
    expect(loaded.config.roles).toEqual({ default: "best", fast: "local" });
  });

  it("reads embabel.config.yaml", () => {
    const dir = directoryWith({ "embabel.config.yaml": "models:\n  default: anthropic:claude-sonnet-4-5\n" });
    expect(loadConfig(dir).config.models).toEqual({ default: { id: "anthropic:claude-sonnet-4-5" } });
  });

  it("reads an explicit path relative to the working directory", () => {
    const dir = directoryWith({ "other.yml": "models:\n  default: openai:gpt-4.1-mini\n" });
    expect(loadConfig(dir, "other.yml").config.models.default?.id).toBe("openai:gpt-4.1-mini");
  });

  it("parses mcpServers and toolGroups, with the file's folder for relative paths", () => {
    const dir = directoryWith({
      "embabel.config.json": JSON.stringify({ mcpServers: { files: { command: "npx", args: ["server"] } } }),
    });
    const loaded = loadConfig(dir);
    expect(loaded.config.mcpServers).toEqual({ files: { command: "npx", args: ["server"] } });
    expect(loaded.config.baseDir).toBe(dir);
    expect(loaded.notes).toEqual([]);
  });

  it("reads toolGroups by role", () => {
    const dir = directoryWith({ "embabel.config.yaml": "toolGroups:\n  web:\n    tools: [search]\n" });
    expect(loadConfig(dir).config.toolGroups).toEqual({ web: { tools: ["search"] } });
  });

  it("reads searchableAbove, and rejects one that is not a whole number", () => {
    const dir = directoryWith({ "embabel.config.json": JSON.stringify({ searchableAbove: 30 }) });
    expect(loadConfig(dir).config.searchableAbove).toBe(30);
    const bad = directoryWith({ "embabel.config.json": JSON.stringify({ searchableAbove: -2 }) });
    expect(() => loadConfig(bad)).toThrow(/searchableAbove/);
  });

  it("fails on a missing explicit file, naming it", () => {
    const dir = directoryWith({});
    expect(() => loadConfig(dir, "nope.json")).toThrow(`Config file not found: ${join(dir, "nope.json")}`);
  });

  it("fails on invalid JSON, naming the file and the format", () => {
    const dir = directoryWith({ "embabel.config.json": "{ models: " });
    expect(() => loadConfig(dir)).toThrow(/^Config file .*embabel\.config\.json:1:3 is not valid JSON: /);
  });

  it("points at the line and column of a JSON syntax error", () => {
    const dir = directoryWith({
      "embabel.config.json": '{\n  "models": {\n    "default": "openai:gpt-4.1",\n  }\n}\n',
    });
    expect(() => loadConfig(dir)).toThrow(
      `Config file ${join(dir, "embabel.config.json")}:4:3 is not valid JSON: Expected double-quoted property name`,
    );
    const truncated = directoryWith({ "embabel.config.json": '{\n  "models": {' });
    expect(() => loadConfig(truncated)).toThrow(/embabel\.config\.json:2:14 is not valid JSON: /);
    const empty = directoryWith({ "embabel.config.json": "\n\n" });
    expect(() => loadConfig(empty)).toThrow(
      /embabel\.config\.json:3:1 is not valid JSON: Unexpected end of JSON input$/,
    );
  });

  it("says which file is used when both embabel.config.json and embabel.config.yaml exist", () => {
    const dir = directoryWith({
      "embabel.config.json": '{"models": {"default": "openai:gpt-4.1"}}',
      "embabel.config.yaml": "models:\n  default: anthropic:claude-sonnet-4-5\n",
    });
    const loaded = loadConfig(dir);
    expect(loaded.path).toBe(join(dir, "embabel.config.json"));
    expect(loaded.config.models.default?.id).toBe("openai:gpt-4.1");
    expect(loaded.notes).toEqual(["Using embabel.config.json; embabel.config.yaml is ignored (remove one)."]);
  });

  it("fails on an unknown key, naming it", () => {
    const dir = directoryWith({ "embabel.config.json": JSON.stringify({ modles: {} }) });
    expect(() => loadConfig(dir)).toThrow(
      expect.objectContaining({
        name: ConfigurationError.name,
        message: expect.stringMatching(/^Invalid config file [\s\S]*"modles"/),
      }),
    );
  });

  it("fails on a model entry of the wrong shape, naming the field", () => {
    const dir = directoryWith({ "embabel.config.json": JSON.stringify({ models: { best: 42 } }) });
    expect(() => loadConfig(dir)).toThrow(
      `  models.best: expected a model id ("openai:gpt-4.1") or { "id": "openai-compatible:<model>", "baseURL": "http://…" }`,
    );
  });

  it("reads the shipped embabel.config.example.json, whose models all resolve", () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const loaded = loadConfig(root, "embabel.config.example.json");
    expect(loaded.config.roles).toEqual({ default: "best", fast: "quick" });
    const selection = selectModels(loaded.config, { OPENAI_API_KEY: "sk-test" }, undefined);
    expect(selection.models).toMatchObject({
      best: "openai:gpt-4.1",
      lmstudio: "openai-compatible:qwen2.5-7b-instruct@http://127.0.0.1:1234/v1",
    });
    expect(loaded.notes).toEqual([]);
  });

  it("fails on a role naming an unknown model", () => {
    const dir = directoryWith({
      "embabel.config.json": JSON.stringify({ models: { best: "openai:gpt-4.1" }, roles: { fast: "quick" } }),
    });
    expect(() => loadConfig(dir)).toThrow(
      `roles.fast: names model 'quick', which is not under "models" (known: [best]).`,
    );
  });

  it("reports every problem of the file in one pass: a bad model and a role naming no model", () => {
    const dir = directoryWith({
      "embabel.config.json": JSON.stringify({ models: { default: 42 }, roles: { default: "nope" } }),
    });
    let message = "";
    try {
      loadConfig(dir);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split("\n").slice(1)).toEqual([
      expect.stringMatching(/^ {2}models\.default: expected a model id/),
      `  roles.default: names model 'nope', which is not under "models" (known: [default]).`,
    ]);
  });

  it("suggests the key a mistyped one was meant to be", () => {
    const dir = directoryWith({
      "embabel.config.json": JSON.stringify({ modles: { default: "openai:gpt-4.1" } }),
    });
    expect(() => loadConfig(dir)).toThrow(
      /\(top level\): Unrecognized key: "modles"\. Did you mean 'models'\? Known keys: models, roles, mcpServers, toolGroups, skills, searchableAbove\./,
    );
  });

  it("suggests the model a role was meant to name", () => {
    const dir = directoryWith({
      "embabel.config.json": JSON.stringify({
        models: { smart: "openai:gpt-4.1" },
        roles: { default: "smrat" },
      }),
    });
    expect(() => loadConfig(dir)).toThrow(/Did you mean 'smart'\?/);
  });

  it("reads the skills folders, resolving them against the config file's folder", () => {
    const dir = directoryWith({
      "embabel.config.json": JSON.stringify({ skills: ["./skills", "/opt/skills"] }),
    });
    expect(loadConfig(dir).config.skills).toEqual([join(dir, "skills"), "/opt/skills"]);
  });

  it("refuses skills that are not a list of folder paths, naming the field", () => {
    const dir = directoryWith({ "embabel.config.json": JSON.stringify({ skills: "./skills" }) });
    expect(() => loadConfig(dir)).toThrow(/Invalid config file .*embabel\.config\.json:\n {2}skills: /);
  });
});
