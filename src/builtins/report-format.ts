/**
 * A duration as the process tools print it: `1h 2m 3s` from an hour, `2m 5s`
 * from a minute, `1.5s` (tenths) from a second, else `250ms`.
 */
export function formatDuration(durationMs: number): string {
  const ms = Math.max(0, Math.floor(durationMs));
  const totalSeconds = Math.floor(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const millis = ms % 1000;
  if (hours > 0) return `${hours}h ${minutes}m ${seconds}s`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  if (seconds > 0) return `${seconds}.${Math.floor(millis / 100)}s`;
  return `${millis}ms`;
}

/** A whole number with thousands separators: `1,000,000`. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** US dollars with `digits` decimals, without the sign: `0.0125`. */
export function formatUsd(value: number, digits: number): string {
  return value.toFixed(digits);
}
