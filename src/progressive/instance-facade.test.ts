import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { llmTool } from "../tool/llm-tool.js";
import { Tool } from "../tool/tool.js";
import { UnfoldingTool } from "./unfolding-tool.js";
import { unfoldingTools } from "./unfolding-tools.js";

@unfoldingTools({ name: "admin", description: "Admin operations" })
class AdminTools {
  @llmTool({ description: "Get system status" })
  status() {
    return "healthy";
  }

  static Users =
    @unfoldingTools({ name: "users", description: "User management" })
    class Users {
      @llmTool({ description: "Create a user" })
      create() {
        return "created";
      }
    };
}

@unfoldingTools({ name: "outer", description: "Outer" })
class OuterWithEmptyNested {
  @llmTool({ description: "Get system status" })
  status() {
    return "healthy";
  }

  static Hollow =
    @unfoldingTools({ name: "hollow", description: "Nothing inside" })
    class Hollow {};
}

const noToolsInHollow =
  "Class Hollow has no methods annotated with @llmTool and no inner classes annotated with @unfoldingTools";

function tree(tool: Tool): string {
  return Tool.formatToolTree("root", [tool]);
}

describe("facadeFromInstance (through UnfoldingTool.fromInstance)", () => {
  it("finds nested classes a subclass inherits as static members", () => {
    class MoreAdminTools extends AdminTools {}
    expect(tree(UnfoldingTool.fromInstance(new MoreAdminTools()))).toBe(
      tree(UnfoldingTool.fromInstance(new AdminTools())),
    );
    expect(tree(UnfoldingTool.fromInstance(new MoreAdminTools()))).toContain("users (1 inner tools)");
  });

  it("lets a subclass replace an inherited nested class by declaring one of the same name", () => {
    class OtherAdminTools extends AdminTools {
      static override Users =
        @unfoldingTools({ name: "accounts", description: "Accounts" })
        class Accounts {
          @llmTool({ description: "Open an account" })
          create() {
            return "opened";
          }
        };
    }
    const inner = UnfoldingTool.fromInstance(new OtherAdminTools()).innerTools.map((t) => t.definition.name);
    expect(inner).toEqual(["status", "accounts"]);
  });

  it("stores the deprecated removeOnInvoke the class declares", () => {
    @unfoldingTools({ name: "kept", description: "Kept", removeOnInvoke: false })
    class Kept {
      @llmTool({ description: "Status" })
      status() {
        return "ok";
      }
    }
    expect(UnfoldingTool.fromInstance(new Kept()).removeOnInvoke).toBe(false);
    expect(UnfoldingTool.fromInstance(new AdminTools()).removeOnInvoke).toBe(true);
  });

  it("throws naming a nested class that has no tools", () => {
    expect(() => UnfoldingTool.fromInstance(new OuterWithEmptyNested())).toThrow(
      new ConfigurationError(noToolsInHollow),
    );
  });
});

describe("safelyFacadeFromInstance (through the safe factories)", () => {
  it("reports a nested class without tools instead of pretending the outer class has none", () => {
    expect(() => UnfoldingTool.safelyFromInstance(new OuterWithEmptyNested())).toThrow(noToolsInHollow);
    expect(() => Tool.safelyFromInstance(new OuterWithEmptyNested())).toThrow(noToolsInHollow);
    expect(() => Tool.fromInstance(new OuterWithEmptyNested())).toThrow(noToolsInHollow);
  });
});
