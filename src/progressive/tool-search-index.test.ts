import { describe, expect, it } from "vitest";
import { InputSchema } from "../tool/input-schema.js";
import { Param } from "../tool/param.js";
import { Tool } from "../tool/tool.js";
import { ToolResult } from "../tool/tool-result.js";
import { literalTerms } from "./query-literals.js";
import { acronymTerms, searchTerms, surfaceTerms } from "./search-terms.js";
import { ToolSearchIndex, toolDocumentText } from "./tool-search-index.js";

function tool(name: string, description: string, ...params: string[]): Tool {
  const schema = InputSchema.of(...params.map((param) => Param.string(param, param, { required: false })));
  return Tool.create(name, description, schema, () => ToolResult.text("ok"));
}

function names(index: ToolSearchIndex, query: string, limit = 5): string[] {
  return index.search(query, limit).map((hit) => hit.tool.definition.name);
}

describe("searchTerms", () => {
  it("splits camelCase, snake_case and kebab-case, drops stop words and stems lightly", () => {
    expect(searchTerms("listOpenIssues")).toEqual(["list", "open", "issu", "listopenissu"]);
    expect(searchTerms("create_pull-request for the files")).toEqual(["creat", "pull", "request", "file"]);
    expect(searchTerms("Deleted branches, running queries")).toEqual(["delet", "branch", "run", "query"]);
    expect(searchTerms("string")).toEqual(["string"]);
  });

  it("drops a spoken request's filler", () => {
    expect(searchTerms("hey, could you quickly show me the logs? thanks")).toEqual(searchTerms("show logs"));
  });

  it("takes irregular past forms to their base", () => {
    expect(searchTerms("sent paid chosen")).toEqual(searchTerms("send pay choose"));
  });
});

describe("surfaceTerms", () => {
  it("keeps the exact form of each word stemming changed, marked", () => {
    expect(surfaceTerms("list open files and the user")).toEqual(["=files"]);
  });
});

describe("acronymTerms", () => {
  it("abbreviates a name's inner phrases, never with its first word", () => {
    expect(acronymTerms("get_pull_request_files")).toEqual(["pr", "prf", "rf"]);
    expect(acronymTerms("create_issue")).toEqual([]);
  });
});

describe("ToolSearchIndex", () => {
  const index = ToolSearchIndex.of([
    tool("git_log", "Shows the commit logs", "repo_path"),
    tool("read_file", "Read the complete contents of a file", "path"),
    tool("delete_volume", "Permanently delete a volume"),
    tool("search_repositories", "Search for GitHub repositories", "query"),
    tool("getUserProfile", "Profile information of a user", "userId"),
  ]);

  it("matches names, descriptions and parameter names, whatever their case style", () => {
    expect(names(index, "user profile", 1)).toEqual(["getUserProfile"]);
    expect(names(index, "files", 1)).toEqual(["read_file"]);
    expect(names(index, "userId", 1)).toEqual(["getUserProfile"]);
  });

  it("matches a query word that begins a longer word (repo → repositories)", () => {
    expect(names(index, "github repo", 1)).toEqual(["search_repositories"]);
  });

  it("relates everyday action words (remove ~ delete, find ~ search)", () => {
    expect(names(index, "remove the volume", 1)).toEqual(["delete_volume"]);
    expect(names(index, "find github projects", 1)).toEqual(["search_repositories"]);
  });

  it("relates the generic verbs of saving and of uploading", () => {
    const catalogue = ToolSearchIndex.of([
      tool("get_draft", "Get a draft"),
      tool("store_draft", "Store a draft"),
      tool("list_attachments", "List attachments"),
      tool("upload_attachment", "Upload an attachment"),
    ]);
    expect(names(catalogue, "save the draft", 1)).toEqual(["store_draft"]);
    expect(names(catalogue, "attach this to the ticket as an attachment", 1)).toEqual(["upload_attachment"]);
  });

  it("reads a phrasal verb as the verb it means (set up → create, tear down → delete)", () => {
    const catalogue = ToolSearchIndex.of([
      tool("update_meeting", "Update a meeting", "meeting_id"),
      tool("create_meeting", "Create a new meeting", "topic"),
      tool("delete_stack", "Delete a stack", "stack_id"),
      tool("create_stack", "Create a stack", "template"),
    ]);
    expect(names(catalogue, "set up a meeting for tomorrow", 1)).toEqual(["create_meeting"]);
    expect(names(catalogue, "set the meeting to noon", 1)).toEqual(["update_meeting"]);
    expect(names(catalogue, "tear down the stack", 1)).toEqual(["delete_stack"]);
  });

  it("matches an identifier's abbreviation (env → environment) and an acronym (PR → pull request)", () => {
    const catalogue = ToolSearchIndex.of([
      tool("create_env_var", "Create a new env var"),
      tool("get_pull_request", "Get a pull request"),
      tool("get_page_rule", "Get a page rule"),
    ]);
    expect(names(catalogue, "environment variable", 1)).toEqual(["create_env_var"]);
    expect(names(catalogue, "details of PR 310", 1)).toEqual(["get_pull_request"]);
  });

  it("prefers a word's exact form among otherwise equal tools (images → list_images)", () => {
    const catalogue = ToolSearchIndex.of([
      tool("get_image", "Get a single image by its ID"),
      tool("list_images", "List images"),
    ]);
    expect(names(catalogue, "which images do I have", 1)).toEqual(["list_images"]);
  });

  it("counts a word reached two ways once (start and new both relate to create)", () => {
    const catalogue = ToolSearchIndex.of([
      tool("create_time_off", "Create a new time off"),
      tool("create_branch", "Create a new branch"),
    ]);
    expect(names(catalogue, "start a new branch off develop", 1)).toEqual(["create_branch"]);
  });

  it("boosts the tools of a namespace the query names", () => {
    const catalogue = ToolSearchIndex.of([
      tool("xero_list_bank_transaction", "List bank transactions in Xero"),
      tool("xero_get_contact", "Get a contact"),
      tool("xero_get_invoice", "Get an invoice"),
      tool("plaid_list_transaction", "List transactions in Plaid"),
      tool("plaid_get_account", "Get a bank account"),
      tool("plaid_get_institution", "Get an institution"),
    ]);
    expect(names(catalogue, "pull my bank transactions from plaid", 1)).toEqual(["plaid_list_transaction"]);
  });

  it("searches an MCP tool's server name and boosts the server the query names", () => {
    const onServer = (server: string, name: string, description: string): Tool =>
      tool(name, description).withDefinitionMetadata({ mcpServer: server });
    const catalogue = ToolSearchIndex.of([
      onServer("memory", "create_relations", "Create relations between entities in the knowledge graph"),
      onServer("memory", "read_graph", "Read the entire knowledge graph"),
      onServer("crm", "create_note", "Create a note about a person"),
      onServer("crm", "get_person", "Get a person"),
    ]);
    expect(names(catalogue, "record in memory that Alice works at Acme", 1)).toEqual(["create_relations"]);
    expect(names(catalogue, "memory", 5)).toEqual(["create_relations", "read_graph"]);
  });

  it("never lets a server's name outrank a tool the query names exactly", () => {
    const catalogue = ToolSearchIndex.of([
      tool("get_memory_usage", "Memory in use by the process"),
      tool("read_graph", "Read the entire knowledge graph").withDefinitionMetadata({ mcpServer: "memory" }),
      tool("open_nodes", "Open nodes of the knowledge graph").withDefinitionMetadata({ mcpServer: "memory" }),
    ]);
    expect(names(catalogue, "get memory usage", 1)).toEqual(["get_memory_usage"]);
  });

  describe("a URL, e-mail address or file path in the query", () => {
    const catalogue = ToolSearchIndex.of([
      tool("get_page_title", "Get the title of a web page", "selector"),
      tool("fetch", "Fetch a resource from the internet", "url"),
      tool("read_file", "Read the contents of a file", "path"),
      tool("send_message", "Send a message", "email"),
    ]);

    it("stands for the kind of value it is (url; file and path; email)", () => {
      expect(names(catalogue, "what's inside config/settings.yaml", 1)).toEqual(["read_file"]);
      expect(names(catalogue, "grab https://example.com/docs for me", 1)).toEqual(["fetch"]);
      expect(names(catalogue, "write to bob@example.com", 1)).toEqual(["send_message"]);
    });

    it("never outranks the tool whose words the query uses", () => {
      expect(names(catalogue, "the page title of https://example.com/docs", 1)).toEqual(["get_page_title"]);
    });

    it("takes a whole number for an item's id or number", () => {
      const issues = ToolSearchIndex.of([
        tool("list_issues", "List issues", "state"),
        tool("get_issue", "Get an issue", "issue_number"),
      ]);
      expect(names(issues, "issue 42", 1)).toEqual(["get_issue"]);
      expect(names(issues, "issue #42", 1)).toEqual(["get_issue"]);
    });

    it("counts the words inside a value less than the request's own words", () => {
      const withNotes = ToolSearchIndex.of([
        tool("list_notes", "List notes"),
        tool("write_file", "Write a file", "path", "content"),
      ]);
      expect(names(withNotes, "save this text as notes.md", 1)).toEqual(["write_file"]);
      expect(names(withNotes, "save this text in my notes", 1)).toEqual(["list_notes"]);
    });

    it("takes no branch name, version or bare a/b for a path", () => {
      expect(literalTerms("branch feature/search off main, v1.2.3, and/or 3pm")).toEqual([]);
    });
  });

  it("offers a destructive tool after its equals unless the query asks to destroy", () => {
    const catalogue = ToolSearchIndex.of([
      tool("delete_deployment", "Permanently delete a deployment", "deployment_id"),
      tool("create_deployment", "Create a new deployment", "project"),
    ]);
    expect(names(catalogue, "deploy the site to production", 2)).toEqual([
      "create_deployment",
      "delete_deployment",
    ]);
    expect(names(catalogue, "tear down the deployment and remove it", 1)).toEqual(["delete_deployment"]);
  });

  it("still ranks a destructive tool first when the query matches it better", () => {
    const catalogue = ToolSearchIndex.of([
      tool("delete_volume", "Permanently delete a volume"),
      tool("get_volume_snapshot", "Get a snapshot of a disk"),
    ]);
    expect(names(catalogue, "volume", 1)).toEqual(["delete_volume"]);
  });

  it("reads for a question: get, list, read and show tools win over changing ones", () => {
    const catalogue = ToolSearchIndex.of([
      tool("update_forecast", "Update a forecast", "forecast_id"),
      tool("get_forecast", "Get a forecast", "forecast_id"),
    ]);
    expect(names(catalogue, "what's the forecast for Paris", 1)).toEqual(["get_forecast"]);
    expect(names(catalogue, "forecast for Paris?", 1)).toEqual(["get_forecast"]);
    expect(names(catalogue, "can you change the forecast for Paris", 1)).toEqual(["update_forecast"]);
    expect(names(catalogue, "what about them?")).toEqual([]);
  });

  it("never lets a question's reading actions outrank the action it names", () => {
    const catalogue = ToolSearchIndex.of([
      tool("get_forecast", "Get a forecast", "forecast_id"),
      tool("update_forecast", "Update a forecast", "forecast_id"),
    ]);
    expect(names(catalogue, "how do I update the forecast?", 1)).toEqual(["update_forecast"]);
  });

  it("finds nothing for words no tool has, and nothing for a limit under 1", () => {
    expect(names(index, "book a flight")).toEqual([]);
    expect(names(index, "file", 0)).toEqual([]);
  });

  it("ranks the best first, ties in catalogue order, and reuses its scratch space between searches", () => {
    const tied = ToolSearchIndex.of([tool("report_y", "Weekly report"), tool("report_x", "Weekly report")]);
    expect(names(tied, "weekly report")).toEqual(["report_y", "report_x"]);
    expect(names(tied, "weekly report")).toEqual(["report_y", "report_x"]);
    const scores = tied.search("report", 2).map((hit) => hit.score);
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[0]).toBe(scores[1]);
  });

  it("indexes an empty catalogue", () => {
    expect(ToolSearchIndex.of([]).search("anything", 5)).toEqual([]);
  });

  it("gives an embedding model the name, description, parameter names and MCP server", () => {
    expect(toolDocumentText(tool("git_log", "Shows the commit logs", "repo_path", "max_count"))).toBe(
      "git_log: Shows the commit logs (parameters: repo_path, max_count)",
    );
    const onServer = tool("read_graph", "Read the knowledge graph").withDefinitionMetadata({
      mcpServer: "memory",
    });
    expect(toolDocumentText(onServer)).toBe("read_graph: Read the knowledge graph (MCP server: memory)");
  });
});

describe("ToolSearchIndex: at most a share of a result from one MCP server", () => {
  const on = (server: string, name: string, description: string): Tool =>
    tool(name, description).withDefinitionMetadata({ mcpServer: server });
  // Six "invoice" tools on one server that match better than the other servers' three.
  const catalogue = [
    ...["a", "b", "c", "d", "e", "f"].map((letter) =>
      on("spam", `spam_${letter}`, "invoice invoice invoice payment"),
    ),
    on("billing", "create_invoice", "Create an invoice"),
    on("ledger", "list_invoices", "List invoices"),
    tool("local_invoice", "Print an invoice"),
  ];

  it("2 of 5 by default; the server's further matches follow the others'", () => {
    const found = names(ToolSearchIndex.of(catalogue), "invoice payment");
    expect(found.slice(0, 2)).toEqual(["spam_a", "spam_b"]);
    expect(found.slice(2).sort()).toEqual(["create_invoice", "list_invoices", "local_invoice"]);
    expect(names(ToolSearchIndex.of(catalogue), "invoice payment", 8)).toHaveLength(8);
    // Uncapped, the one server fills the result.
    expect(names(ToolSearchIndex.of(catalogue, { maxServerShare: 1 }), "invoice payment")).toEqual(
      ["a", "b", "c", "d", "e"].map((letter) => `spam_${letter}`),
    );
  });

  it("a result is never shorter: a catalogue of one server fills it", () => {
    expect(names(ToolSearchIndex.of(catalogue.slice(0, 6)), "invoice")).toHaveLength(5);
  });

  it("a query naming the server lifts its cap", () => {
    expect(names(ToolSearchIndex.of(catalogue), "spam invoice payment")).toEqual(
      ["a", "b", "c", "d", "e"].map((letter) => `spam_${letter}`),
    );
  });

  it("rejects a share outside (0, 1]", () => {
    expect(() => ToolSearchIndex.of(catalogue, { maxServerShare: 0 })).toThrow(/maxServerShare/);
    expect(() => ToolSearchIndex.of(catalogue, { maxServerShare: 1.5 })).toThrow(/maxServerShare/);
  });
});
