import { describe, expect, it } from "vitest";
import { z } from "zod";
import { domainType } from "../tool/type-token.js";
import { Blackboard, typeMatcher } from "./blackboard.js";

class Animal {
  constructor(readonly name: string) {}
}
class Dog extends Animal {}
class Cat extends Animal {}

const Person = domainType("Person", z.object({ name: z.string() }));

describe("Blackboard", () => {
  it("keeps objects in insertion order", () => {
    const board = new Blackboard().add(1).add("two").add({ three: 3 });
    expect(board.objects).toEqual([1, "two", { three: 3 }]);
  });

  it("returns the latest object of a type, including subclasses", () => {
    const rex = new Dog("Rex");
    const tom = new Cat("Tom");
    const board = new Blackboard().add(rex).add(tom);
    expect(board.last(Animal)).toBe(tom);
    expect(board.last(Dog)).toBe(rex);
  });

  it("looks types up by simple name, by qualified name and by superclass name", () => {
    const rex = new Dog("Rex");
    const board = new Blackboard().add(rex);
    expect(board.last("Dog")).toBe(rex);
    expect(board.last("Animal")).toBe(rex);
    expect(board.last("Cat")).toBeUndefined();
  });

  it("matches a qualified name exactly: a declared static qualifiedName, a tag or a domain type name", () => {
    class Cat {
      static readonly qualifiedName = "com.example.Cat";
    }
    const tom = new Cat();
    const rex = new Dog("Rex");
    const board = new Blackboard().add(tom).add(rex);
    expect(board.last("com.example.Cat")).toBe(tom);
    expect(board.last("com.other.Cat")).toBeUndefined();
    // A class without a declared qualified name has none: a dotted name never matches it by its last segment.
    expect(board.last("com.example.Dog")).toBeUndefined();
    expect(board.last("Cat")).toBe(tom);
  });

  it("finds domain-typed objects by token and by name", () => {
    const alice = Person.create({ name: "Alice" });
    const board = new Blackboard().add(alice);
    expect(board.last(Person)).toBe(alice);
    expect(board.last("Person")).toBe(alice);
  });

  it("matches maps tagged with _typeName or _typeLabels", () => {
    const tagged = { _typeName: "Invoice", _typeLabels: ["Document"] };
    const board = new Blackboard().add(tagged);
    expect(board.last("Invoice")).toBe(tagged);
    expect(board.last("Document")).toBe(tagged);
  });

  it("lists and counts every object of a type", () => {
    const board = new Blackboard().add(new Dog("a")).add(new Cat("b")).add(new Dog("c"));
    expect(board.all(Dog).map((dog) => dog.name)).toEqual(["a", "c"]);
    expect(board.count(Animal)).toBe(3);
    expect(board.count("Cat")).toBe(1);
    expect(board.has(String)).toBe(false);
  });

  it("binds names to objects and appends them once", () => {
    const rex = new Dog("Rex");
    const board = new Blackboard().bind("it", rex).bind("dog", rex);
    expect(board.get("it")).toBe(rex);
    expect(board.get("dog")).toBe(rex);
    expect(board.objects).toEqual([rex]);
    expect(board.names).toEqual(["it", "dog"]);
    expect(board.get("missing")).toBeUndefined();
  });

  it("returns the latest object of any type as lastResult", () => {
    expect(new Blackboard().lastResult()).toBeUndefined();
    expect(new Blackboard().add(1).add("x").lastResult()).toBe("x");
  });

  it("hides objects from every lookup", () => {
    const rex = new Dog("Rex");
    const board = new Blackboard().bind("rex", rex).add(new Cat("Tom")).hide(rex);
    expect(board.objects).toHaveLength(1);
    expect(board.get("rex")).toBeUndefined();
    expect(board.last(Dog)).toBeUndefined();
  });

  it("keeps condition flags apart from objects", () => {
    const board = new Blackboard().setCondition("approved", true);
    expect(board.getCondition("approved")).toBe(true);
    expect(board.getCondition("unknown")).toBeUndefined();
    expect(board.objects).toEqual([]);
  });

  it("clears everything but protected bindings", () => {
    const conversation = { id: "c1" };
    const board = new Blackboard().bindProtected("conversation", conversation).bind("x", 1).add(2);
    board.setCondition("flag", true);
    board.clear();
    expect(board.objects).toEqual([conversation]);
    expect(board.get("conversation")).toBe(conversation);
    expect(board.get("x")).toBeUndefined();
    expect(board.getCondition("flag")).toBeUndefined();
  });

  describe("spawn", () => {
    it("gives the child the parent's objects, bindings and conditions", () => {
      const parent = new Blackboard().bind("it", "input").add(new Dog("Rex")).setCondition("ready", true);
      const child = parent.spawn();
      expect(child.objects).toEqual(parent.objects);
      expect(child.get("it")).toBe("input");
      expect(child.getCondition("ready")).toBe(true);
      expect(child.parent).toBe(parent);
      expect(child.id).not.toBe(parent.id);
    });

    it("keeps the child's writes from the parent, and exposes them as ownObjects", () => {
      const parent = new Blackboard().add("from parent");
      const child = parent.spawn();
      child.add("from child").bind("result", 42).setCondition("done", true);
      expect(parent.objects).toEqual(["from parent"]);
      expect(parent.get("result")).toBeUndefined();
      expect(parent.getCondition("done")).toBeUndefined();
      expect(child.objects).toEqual(["from parent", "from child", 42]);
      expect(child.ownObjects).toEqual(["from child", 42]);
      expect([...child.ownBindings]).toEqual([["result", 42]]);
    });

    it("does not show the parent's later writes to the child", () => {
      const parent = new Blackboard();
      const child = parent.spawn();
      parent.add("late");
      expect(child.objects).toEqual([]);
    });

    it("lets the parent adopt what the child added", () => {
      const parent = new Blackboard().add("a");
      const child = parent.spawn().add("b");
      parent.addAll(child.ownObjects);
      expect(parent.objects).toEqual(["a", "b"]);
    });

    it("keeps one id per blackboard, read as often as wanted, and a new one per child", () => {
      const parent = new Blackboard();
      const child = parent.spawn();
      expect(parent.id).toBe(parent.id);
      expect(child.id).toBe(child.id);
      expect(new Set([parent.id, child.id, new Blackboard().id]).size).toBe(3);
    });

    it("keeps hidden objects, conditions and protected names set after the spawn on their own side", () => {
      const secret = { secret: true };
      const parent = new Blackboard().add(secret);
      const child = parent.spawn();
      parent.hide(secret).setCondition("ready", true).bindProtected("keep", "parent");
      child.setCondition("done", true).bindProtected("mine", "child");
      expect(child.objects).toEqual([secret, "child"]);
      expect(child.getCondition("ready")).toBeUndefined();
      expect(parent.getCondition("done")).toBeUndefined();
      expect(parent.snapshot()).toMatchObject({
        hidden: [secret],
        protectedNames: ["keep"],
        conditions: [["ready", true]],
      });
      expect(child.snapshot()).toMatchObject({
        hidden: [],
        protectedNames: ["mine"],
        conditions: [["done", true]],
      });
      expect(child.clear().objects).toEqual(["child"]);
    });

    it("restores hidden objects, protected names and conditions from a snapshot", () => {
      const secret = { secret: true };
      const original = new Blackboard()
        .add(secret)
        .hide(secret)
        .bindProtected("keep", 1)
        .setCondition("ok", false);
      const restored = Blackboard.fromSnapshot(original.snapshot());
      expect(restored.snapshot()).toEqual(original.snapshot());
      expect(restored.objects).toEqual([1]);
      expect(restored.getCondition("ok")).toBe(false);
      expect(restored.clear().get("keep")).toBe(1);
    });

    it("keeps hidden objects hidden in the child", () => {
      const secret = { secret: true };
      const parent = new Blackboard().add(secret).hide(secret);
      expect(parent.spawn().objects).toEqual([]);
    });
  });

  it("counts every binding of a root blackboard as its own, and forgets a child's cleared bindings", () => {
    const root = new Blackboard().bind("it", 1).bind("task", 2);
    expect([...root.ownBindings]).toEqual([
      ["it", 1],
      ["task", 2],
    ]);
    const child = root.spawn().bind("draft", 3);
    expect([...child.ownBindings]).toEqual([["draft", 3]]);
    child.clear();
    expect([...child.ownBindings]).toEqual([]);
    expect(child.bind("note", 4).ownBindings.get("note")).toBe(4);
  });
});

describe("typeMatcher", () => {
  it("matches by token or by name", () => {
    expect(typeMatcher(Dog)(new Dog("x"))).toBe(true);
    expect(typeMatcher("Animal")(new Cat("y"))).toBe(true);
    expect(typeMatcher("Dog")(null)).toBe(false);
    expect(typeMatcher(String)("text")).toBe(true);
  });
});
