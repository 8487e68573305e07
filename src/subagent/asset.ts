/**
 * Something a chat application keeps and shows the user (a concert plan, a
 * report, a pull request): any object with a string `id`. Tools that return
 * assets as artifacts can be tracked with an {@link AssetTracker}.
 */
export interface Asset {
  /** Identifies the asset; a tracker keeps one asset per id. */
  readonly id: string;
}

/** Guards for {@link Asset}. */
export const Asset = {
  /** True for non-null objects with a string `id`. */
  isAsset(value: unknown): value is Asset {
    return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
  },
};
