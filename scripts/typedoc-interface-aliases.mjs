// A TypeDoc plugin (typedoc.json's `plugin`). `Tool` and `Agent` are each an
// interface declared in a file of its own, below the code that builds it, and
// factories of the same name; the public type is `type Tool = ToolInterface`
// with `@interface`, which TypeDoc documents as the interface. Code beside the
// interface names the interface itself (importing the public name would close
// an import circle), so TypeDoc would leave those references unlinked: this
// points them at the documented public name. Only an alias to an interface of
// its own name is touched.
import { Converter, ReflectionKind } from "typedoc";
import ts from "typescript";

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    // The type's reflection, not the factories' (a variable of the same symbol).
    if (!reflection.kindOf(ReflectionKind.Interface | ReflectionKind.TypeAlias)) return;
    const symbol = context.getSymbolFromReflection(reflection);
    const declaration = symbol?.declarations?.find(ts.isTypeAliasDeclaration);
    if (symbol === undefined || declaration === undefined || !ts.isTypeReferenceNode(declaration.type))
      return;
    let target = context.checker.getSymbolAtLocation(declaration.type.typeName);
    if (target !== undefined && target.flags & ts.SymbolFlags.Alias)
      target = context.checker.getAliasedSymbol(target);
    if (target === undefined || target.name !== symbol.name || !(target.flags & ts.SymbolFlags.Interface))
      return;
    const bySymbol = context.project.symbolToReflectionIdMap;
    const id = context.createSymbolId(target);
    if (!bySymbol.has(id)) bySymbol.set(id, reflection.id);
  });
}
