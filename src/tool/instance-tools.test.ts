import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../errors/configuration-error.js";
import { describeToolMethods, registerInstanceToolsFactory, safelyFromInstance } from "./instance-tools.js";
import { llmTool } from "./llm-tool.js";
import { Tool } from "./tool.js";

class Base {
  prefix = "base";

  @llmTool({ description: "Base first", category: "lookup" })
  first(): string {
    return `${this.prefix}:first`;
  }

  @llmTool({ description: "Overridden later" })
  shared(): string {
    return "base shared";
  }
}

class Derived extends Base {
  override prefix = "derived";

  @llmTool({ description: "Derived only", category: "write" })
  third(): string {
    return "third";
  }

  @llmTool({ description: "Derived shared" })
  override shared(): string {
    return "derived shared";
  }
}

class Undecorated extends Base {}

class WithPrivateAndStatic {
  #secret = "s3cret";

  @llmTool({ description: "Reads a private field through a private method", name: "secret" })
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: reached through @llmTool
  #readSecret(): string {
    return this.#secret;
  }

  @llmTool({ description: "A static tool" })
  static version(): string {
    return "1.0";
  }
}

class Clashing {
  @llmTool({ description: "One", name: "same" })
  one(): string {
    return "1";
  }

  @llmTool({ description: "Two", name: "same" })
  two(): string {
    return "2";
  }
}

class Plain {
  method(): string {
    return "plain";
  }
}

const names = (tools: readonly Tool[]) => tools.map((tool) => tool.definition.name);

describe("fromInstance", () => {
  it("counts inherited methods, superclass first, an override keeping its place", () => {
    expect(names(Tool.fromInstance(new Derived()))).toEqual(["first", "shared", "third"]);
  });

  it("uses the subclass's options and method for an overridden tool", async () => {
    const shared = Tool.fromInstance(new Derived())[1]!;
    expect(shared.definition.description).toBe("Derived shared");
    expect((await shared.call("")).content).toBe("derived shared");
  });

  it("binds inherited methods to the instance", async () => {
    const first = Tool.fromInstance(new Derived())[0]!;
    expect((await first.call("")).content).toBe("derived:first");
  });

  it("finds the tools of an undecorated subclass", () => {
    expect(names(Tool.fromInstance(new Undecorated()))).toEqual(["first", "shared"]);
  });

  it("supports private methods and static methods", async () => {
    const tools = Tool.fromInstance(new WithPrivateAndStatic());
    expect(names(tools)).toEqual(["secret", "version"]);
    expect((await tools[0]!.call("")).content).toBe("s3cret");
    expect((await tools[1]!.call("")).content).toBe("1.0");
  });

  it("calls an inherited static method, even a private one, on the class that declares it", async () => {
    class SubclassOfPrivateAndStatic extends WithPrivateAndStatic {}
    const tools = Tool.fromInstance(new SubclassOfPrivateAndStatic());
    expect(names(tools)).toEqual(["secret", "version"]);
    expect((await tools[1]!.call("")).content).toBe("1.0");
  });

  it("calls an inherited static #private method (a subclass cannot reach it itself)", async () => {
    class Versioned {
      @llmTool({ description: "Version", name: "version" })
      // biome-ignore lint/correctness/noUnusedPrivateClassMembers: reached through @llmTool
      static #version(): string {
        return "2.0";
      }
    }
    class Product extends Versioned {}
    const [version] = Tool.fromInstance(new Product());
    expect((await version!.call("")).content).toBe("2.0");
  });

  it("throws a ConfigurationError naming the class when there are no tool methods", () => {
    expect(() => Tool.fromInstance(new Plain())).toThrow(
      new ConfigurationError("No methods annotated with @llmTool found on Plain"),
    );
    expect(() => Tool.fromInstance({})).toThrow(/No methods annotated with @llmTool found on Object/);
  });

  it("throws a ConfigurationError when two methods share a tool name", () => {
    expect(() => Tool.fromInstance(new Clashing())).toThrow(
      /Two @llmTool methods of Clashing have the tool name 'same': one and two/,
    );
  });

  it("throws a ConfigurationError naming an invalid tool name when the class is defined", () => {
    let caught: unknown;
    try {
      class BadName {
        @llmTool({ description: "Bad", name: "not a valid name" })
        bad(): string {
          return "";
        }
      }
      Tool.fromInstance(new BadName());
    } catch (error) {
      caught = error;
    }
    expect(ConfigurationError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toContain("@llmTool on method 'bad'");
    expect((caught as Error).message).toContain("Invalid tool name 'not a valid name'");
  });

  it("names an unnamed private method's tool without its '#'", async () => {
    class Vault {
      @llmTool({ description: "Opens the vault" })
      // biome-ignore lint/correctness/noUnusedPrivateClassMembers: reached through @llmTool
      #open(): string {
        return "open";
      }
    }
    const [open] = Tool.fromInstance(new Vault());
    expect(open!.definition.name).toBe("open");
    expect((await open!.call("")).content).toBe("open");
  });

  it("gives each instance its own tools", async () => {
    const one = new Derived();
    const two = new Derived();
    two.prefix = "two";
    expect((await Tool.fromInstance(one)[0]!.call("")).content).toBe("derived:first");
    expect((await Tool.fromInstance(two)[0]!.call("")).content).toBe("two:first");
  });
});

describe("safelyFromInstance", () => {
  it("returns an empty list for an object without tool methods", () => {
    expect(safelyFromInstance(new Plain())).toEqual([]);
    expect(Tool.safelyFromInstance({})).toEqual([]);
  });

  it("returns the tools of a decorated object", () => {
    expect(names(Tool.safelyFromInstance(new Base()))).toEqual(["first", "shared"]);
  });
});

describe("describeToolMethods", () => {
  it("lists each method tool with its category", () => {
    const described = describeToolMethods(new Derived());
    expect(described.map(({ tool, category }) => [tool.definition.name, category])).toEqual([
      ["first", "lookup"],
      ["shared", undefined],
      ["third", "write"],
    ]);
  });

  it("returns an empty list for an undecorated object", () => {
    expect(describeToolMethods(new Plain())).toEqual([]);
  });
});

describe("a copy of instance-tools that @llmTool never recorded into (another copy of the package, or a bundle without @llmTool)", () => {
  const fresh = async () => {
    vi.resetModules();
    return import("./instance-tools.js");
  };

  it("reads a decorated class through the reader its decorator left on the class", async () => {
    const other = await fresh();
    expect(other.describeToolMethods).not.toBe(describeToolMethods);
    expect(other.describeToolMethods(new Derived()).map(({ tool }) => tool.definition.name)).toEqual([
      "first",
      "shared",
      "third",
    ]);
  });

  it("gives an undecorated object no tools, and the same error as ever", async () => {
    const other = await fresh();
    expect(other.safelyFromInstance(new Plain())).toEqual([]);
    expect(() => other.fromInstance(new Plain())).toThrow(
      new ConfigurationError("No methods annotated with @llmTool found on Plain"),
    );
  });
});

class Facaded {
  @llmTool({ description: "Inner" })
  inner(): string {
    return "inner";
  }
}

describe("registerInstanceToolsFactory", () => {
  const facade = Tool.create("facade", "The facade", () => ({ kind: "text", content: "" }) as never);
  registerInstanceToolsFactory((instance) => (instance instanceof Facaded ? [facade] : undefined));

  it("lets a factory answer fromInstance and safelyFromInstance", () => {
    expect(Tool.fromInstance(new Facaded())).toEqual([facade]);
    expect(Tool.safelyFromInstance(new Facaded())).toEqual([facade]);
  });

  it("leaves describeToolMethods to the decorated methods", () => {
    expect(describeToolMethods(new Facaded()).map(({ tool }) => tool.definition.name)).toEqual(["inner"]);
  });

  it("falls back to the methods when factories return undefined", () => {
    expect(names(Tool.fromInstance(new Base()))).toEqual(["first", "shared"]);
  });
});

describe("llmTool input typing", () => {
  it("rejects at compile time a method whose parameter does not match the schema", () => {
    class Typed {
      // @ts-expect-error the method expects `c`, the schema gives `a`
      @llmTool({ description: "Typed", input: z.object({ a: z.number() }) })
      typed({ c }: { c: string }): string {
        return c;
      }
    }
    expect(Tool.fromInstance(new Typed())).toHaveLength(1);
  });
});
