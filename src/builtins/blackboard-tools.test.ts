import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentPlatform } from "../platform/agent-platform.js";
import type { Blackboard } from "../platform/blackboard.js";
import type { Tool } from "../tool/tool.js";
import { domainType } from "../tool/type-token.js";
import { DefaultBlackboardEntryFormatter } from "./blackboard-entry-formatter.js";
import { BlackboardTools, NO_BLACKBOARD } from "./blackboard-tools.js";

class Animal {
  constructor(readonly name: string) {}
}
class Person extends Animal {
  constructor(
    name: string,
    readonly age: number,
  ) {
    super(name);
  }
  infoString(verbose = false, indent = 0): string {
    return `${" ".repeat(indent)}Person: ${this.name}, age ${this.age}${verbose ? "" : "…"}`;
  }
}
class Order {
  constructor(
    readonly id: string,
    readonly total: number,
  ) {}
}
const Ticket = domainType("Ticket", z.object({ title: z.string() }));

const facade = BlackboardTools.create();

function inner(name: string, tools = facade): Tool {
  const found = tools.innerTools.find((tool) => tool.definition.name === name);
  if (!found) throw new Error(`no inner tool ${name}`);
  return found;
}

/** Runs the inner tool `name` with `input` in a process whose blackboard `setup` filled. */
async function ask(
  name: string,
  input: string,
  setup: (blackboard: Blackboard) => void,
  tools = facade,
): Promise<string> {
  const process = await AgentPlatform.create({ models: {} }).runInProcess(async (context) => {
    setup(context.blackboard);
    const result = await inner(name, tools).call(input);
    expect(result.kind).toBe("text");
    return result.content;
  });
  expect(process.status).toBe("completed");
  return process.result as string;
}

describe("BlackboardTools.create", () => {
  it("is the blackboard facade with the specification's description, notes and five tools", () => {
    expect(facade.definition.name).toBe("blackboard");
    expect(facade.definition.description).toBe(
      "Access objects in the current process context. Invoke to see available operations for listing, getting, and describing objects.",
    );
    expect(facade.childToolUsageNotes).toBe(
      "Use blackboard_list to see what's available. Use blackboard_get for named bindings, blackboard_last for the most recent of a type.",
    );
    expect(facade.innerTools.map((tool) => [tool.definition.name, tool.definition.description])).toEqual([
      ["blackboard_list", "List all objects currently in the blackboard with their types and indices"],
      ["blackboard_get", "Get an object by its binding name"],
      [
        "blackboard_last",
        "Get the most recent object of a given type. Matches by simple class name or fully qualified name.",
      ],
      ["blackboard_describe", "Get a detailed description/formatting of an object by its binding name"],
      ["blackboard_count", "Count the number of objects of a given type in the blackboard"],
    ]);
  });

  it("gives each parameter the specification's description, required", () => {
    const schema = (name: string) => inner(name).definition.inputSchema.jsonSchema;
    expect(schema("blackboard_list")).toMatchObject({ type: "object", properties: {} });
    expect(schema("blackboard_get")).toMatchObject({
      properties: { name: { type: "string", description: "The binding name to look up" } },
      required: ["name"],
    });
    expect(schema("blackboard_last")).toMatchObject({
      properties: {
        typeName: { type: "string", description: "The type name (e.g., 'User' or 'com.example.User')" },
      },
      required: ["typeName"],
    });
    expect(schema("blackboard_describe")).toMatchObject({
      properties: { name: { type: "string", description: "The binding name of the object to describe" } },
      required: ["name"],
    });
    expect(schema("blackboard_count")).toMatchObject({
      properties: {
        typeName: {
          type: "string",
          description: "The type name to count (e.g., 'User' or 'com.example.User')",
        },
      },
      required: ["typeName"],
    });
  });

  it("answers every tool outside a process with the no-process text", async () => {
    for (const tool of facade.innerTools) {
      expect(await tool.call('{"name":"x","typeName":"x"}')).toMatchObject({
        kind: "text",
        content: NO_BLACKBOARD,
      });
    }
    expect(NO_BLACKBOARD).toBe(
      "No agent process available. Blackboard tools require an active agent context.",
    );
  });
});

describe("blackboard_list", () => {
  it("says an empty blackboard is empty", async () => {
    expect(await ask("blackboard_list", "", () => {})).toBe("Blackboard is empty - no objects available.");
  });

  it("lists visible objects with 0-based indices and type names, hidden ones left out", async () => {
    const text = await ask("blackboard_list", "{}", (blackboard) => {
      blackboard.add(new Person("Alice", 30));
      const secret = new Order("o-0", 1);
      blackboard.add(secret).hide(secret);
      blackboard.add(new Order("o-1", 12));
      blackboard.add(Ticket.create({ title: "t" }));
      blackboard.add({ _typeName: "Invoice", amount: 3 });
      blackboard.add("plain text");
    });
    expect(text).toBe(
      [
        "Blackboard contains 5 object(s):",
        "[0] Person",
        "[1] Order",
        "[2] Ticket",
        "[3] Invoice",
        "[4] String",
      ].join("\n"),
    );
  });
});

describe("blackboard_get", () => {
  it("returns the bound object with its type, formatted", async () => {
    const text = await ask("blackboard_get", '{"name":"bob"}', (blackboard) =>
      blackboard.bind("bob", new Person("Bob", 41)),
    );
    expect(text).toBe("Person bound to 'bob':\nPerson: Bob, age 41");
  });

  it("says when nothing (or only a hidden object) is bound to the name", async () => {
    expect(await ask("blackboard_get", '{"name":"x"}', () => {})).toBe(
      "No object found with binding name 'x'",
    );
    const hidden = await ask("blackboard_get", '{"name":"secret"}', (blackboard) => {
      const order = new Order("o-9", 9);
      blackboard.bind("secret", order).hide(order);
    });
    expect(hidden).toBe("No object found with binding name 'secret'");
  });

  it("treats blank, invalid or non-object JSON and a non-string name as a missing parameter", async () => {
    for (const input of ["", "   ", "{not json", "[1]", '"bob"', '{"name":7}', "{}"]) {
      expect(await ask("blackboard_get", input, (blackboard) => blackboard.bind("bob", 1))).toBe(
        "Missing required parameter: name",
      );
    }
  });
});

describe("blackboard_last", () => {
  it("returns the most recent object of the type", async () => {
    const text = await ask("blackboard_last", '{"typeName":"Person"}', (blackboard) => {
      blackboard.add(new Person("First", 1));
      blackboard.add(new Order("o", 2));
      blackboard.add(new Person("Last", 2));
    });
    expect(text).toBe("Last Person:\nPerson: Last, age 2");
    expect(text).not.toContain("First");
  });

  it("matches a qualified name, a superclass, a domain type and a plain object's type tags", async () => {
    const fill = (blackboard: Blackboard) => {
      blackboard.add(new Person("Carl", 3));
      blackboard.add(Ticket.create({ title: "Broken printer" }));
      blackboard.add({ _typeName: "Invoice", _typeLabels: ["Document"], amount: 3 });
    };
    expect(await ask("blackboard_last", '{"typeName":"com.example.Person"}', fill)).toBe(
      "No object of type 'com.example.Person' found in blackboard",
    );
    expect(await ask("blackboard_last", '{"typeName":"Animal"}', fill)).toBe(
      "Last Person:\nPerson: Carl, age 3",
    );
    expect(await ask("blackboard_last", '{"typeName":"Ticket"}', fill)).toBe(
      'Last Ticket:\n{\n  "title": "Broken printer"\n}',
    );
    expect(await ask("blackboard_last", '{"typeName":"Document"}', fill)).toContain("Last Invoice:\n");
  });

  it("matches a fully qualified name exactly that type; a bare name by simple name (the chapter's FQN rule)", async () => {
    class Customer {
      static readonly qualifiedName = "com.example.Customer";
      constructor(readonly name: string) {}
    }
    class OtherCustomer {
      static readonly qualifiedName = "com.other.Customer";
    }
    const fill = (blackboard: Blackboard) => {
      blackboard.add(new Customer("Ada"));
      blackboard.add(new OtherCustomer());
      blackboard.add({ _typeName: "com.example.Invoice", amount: 3 });
    };
    expect(await ask("blackboard_count", '{"typeName":"com.example.Customer"}', fill)).toBe(
      "Found 1 object(s) of type 'com.example.Customer' in blackboard",
    );
    expect(await ask("blackboard_last", '{"typeName":"com.example.Customer"}', fill)).toContain(
      '"name": "Ada"',
    );
    expect(await ask("blackboard_count", '{"typeName":"com.elsewhere.Customer"}', fill)).toBe(
      "Found 0 object(s) of type 'com.elsewhere.Customer' in blackboard",
    );
    expect(await ask("blackboard_count", '{"typeName":"Customer"}', fill)).toBe(
      "Found 2 object(s) of type 'Customer' in blackboard",
    );
    expect(await ask("blackboard_count", '{"typeName":"Invoice"}', fill)).toBe(
      "Found 1 object(s) of type 'Invoice' in blackboard",
    );
    expect(await ask("blackboard_count", '{"typeName":"com.example.Invoice"}', fill)).toBe(
      "Found 1 object(s) of type 'com.example.Invoice' in blackboard",
    );
  });

  it("says when no object has the type, and skips hidden objects", async () => {
    const text = await ask("blackboard_last", '{"typeName":"Order"}', (blackboard) => {
      const order = new Order("o", 1);
      blackboard.add(order).hide(order);
    });
    expect(text).toBe("No object of type 'Order' found in blackboard");
    expect(await ask("blackboard_last", "nope", () => {})).toBe("Missing required parameter: typeName");
  });
});

describe("blackboard_describe", () => {
  it("describes the bound object with the formatter", async () => {
    const text = await ask("blackboard_describe", '{"name":"order"}', (blackboard) =>
      blackboard.bind("order", new Order("o-7", 99.5)),
    );
    expect(text).toBe('Description of Order \'order\':\n{\n  "id": "o-7",\n  "total": 99.5\n}');
  });

  it("uses a custom formatter", async () => {
    const tools = BlackboardTools.create({ format: (entry) => `<<${(entry as Order).id}>>` });
    const text = await ask(
      "blackboard_describe",
      '{"name":"order"}',
      (blackboard) => blackboard.bind("order", new Order("o-8", 1)),
      tools,
    );
    expect(text).toBe("Description of Order 'order':\n<<o-8>>");
    const asFunction = BlackboardTools.create((entry) => `fn:${(entry as Order).total}`);
    expect(
      await ask(
        "blackboard_get",
        '{"name":"order"}',
        (blackboard) => blackboard.bind("order", new Order("o-8", 4)),
        asFunction,
      ),
    ).toBe("Order bound to 'order':\nfn:4");
  });

  it("answers a missing name and an unbound name as blackboard_get does", async () => {
    expect(await ask("blackboard_describe", "{}", () => {})).toBe("Missing required parameter: name");
    expect(await ask("blackboard_describe", '{"name":"ghost"}', () => {})).toBe(
      "No object found with binding name 'ghost'",
    );
  });
});

describe("blackboard_count", () => {
  it("counts the visible objects of a type", async () => {
    const text = await ask("blackboard_count", '{"typeName":"Person"}', (blackboard) => {
      for (const name of ["A", "B", "C"]) blackboard.add(new Person(name, 1));
      const hidden = new Person("H", 1);
      blackboard.add(hidden).hide(hidden);
      blackboard.add(new Order("o", 1));
    });
    expect(text).toBe("Found 3 object(s) of type 'Person' in blackboard");
    expect(await ask("blackboard_count", '{"typeName":"Nothing"}', () => {})).toBe(
      "Found 0 object(s) of type 'Nothing' in blackboard",
    );
    expect(await ask("blackboard_count", "", () => {})).toBe("Missing required parameter: typeName");
  });
});

describe("DefaultBlackboardEntryFormatter", () => {
  const format = (entry: unknown) => DefaultBlackboardEntryFormatter.format(entry);

  it("prefers an object's verbose info string", () => {
    expect(format(new Person("Charlie", 35))).toBe("Person: Charlie, age 35");
  });

  it("uses content, then an own toString, then the fields", () => {
    expect(format({ content: "the text", other: 1 })).toBe("the text");
    expect(format(new URL("https://example.com/a"))).toBe("https://example.com/a");
    expect(format(new Order("o-1", 5))).toBe('{\n  "id": "o-1",\n  "total": 5\n}');
    expect(format({ title: "plain" })).toBe('{\n  "title": "plain"\n}');
  });

  it("renders primitives and values JSON cannot show", () => {
    expect(format("text")).toBe("text");
    expect(format(42)).toBe("42");
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(format(cyclic)).toContain("name: 'loop'");
  });
});
