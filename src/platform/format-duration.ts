/** A duration for people: `<1ms`, `850ms`, `1.2s`, `2m 5s` (never `1.3544799999999668ms`). */
export function formatDuration(ms: number): string {
  if (ms < 1) return "<1ms";
  const rounded = Math.round(ms);
  if (rounded < 1000) return `${rounded}ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}
