/** True when `name` looks like the path of a module (`./dist/agents.js`, `agents.mjs`) rather than an example's name. */
export function isModulePath(name: string): boolean {
  return name.includes("/") || name.includes("\\") || /\.(c|m)?(js|ts)$/.test(name);
}
