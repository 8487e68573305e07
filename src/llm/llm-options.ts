import type { LlmCallSettings } from "../loop/tool-loop.js";

/**
 * The fields of {@link LlmOptions}, every one optional: the loop's sampling
 * settings (with `maxTokens` for `maxOutputTokens`) plus which model to use.
 */
export interface LlmOptionsInit extends Omit<LlmCallSettings, "maxOutputTokens"> {
  /** A model name known to the registry (wins over `role`). */
  readonly model?: string;
  /** A role (`default`, `smart`, `fast`, …) the registry maps to a model. @default "default" */
  readonly role?: string;
  /** Maximum output tokens. */
  readonly maxTokens?: number;
}

/**
 * Which model to use and how to sample it. Immutable: every `with*` returns a
 * new instance, and each is available as a static starting point too
 * (`LlmOptions.withModel("gpt-4.1").withTemperature(0)`).
 */
export class LlmOptions implements LlmOptionsInit {
  /** No model, no role (the registry's `default` role), provider defaults. */
  static readonly DEFAULT = new LlmOptions({});

  readonly model?: string;
  readonly role?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly seed?: number;
  readonly stopSequences?: readonly string[];
  readonly providerOptions?: LlmCallSettings["providerOptions"];

  private constructor(init: LlmOptionsInit) {
    Object.assign(this, withoutUndefined(init));
    Object.freeze(this);
  }

  /** Options from plain fields (an `LlmOptions` is returned as is). */
  static of(init: LlmOptionsInit = {}): LlmOptions {
    return init instanceof LlmOptions ? init : new LlmOptions(init);
  }

  /** Options selecting the model called `name`. */
  static withModel(name: string): LlmOptions {
    return LlmOptions.DEFAULT.withModel(name);
  }

  /** Options selecting the model mapped to `role`. */
  static withRole(role: string): LlmOptions {
    return LlmOptions.DEFAULT.withRole(role);
  }

  /** Options with a sampling temperature. */
  static withTemperature(temperature: number): LlmOptions {
    return LlmOptions.DEFAULT.withTemperature(temperature);
  }

  /** Options with a maximum number of output tokens. */
  static withMaxTokens(maxTokens: number): LlmOptions {
    return LlmOptions.DEFAULT.withMaxTokens(maxTokens);
  }

  /** Options with nucleus sampling. */
  static withTopP(topP: number): LlmOptions {
    return LlmOptions.DEFAULT.withTopP(topP);
  }

  /** A copy selecting the model called `name` (a model beats a role). */
  withModel(name: string): LlmOptions {
    return this.copy({ model: name });
  }

  /** A copy selecting the model mapped to `role`. */
  withRole(role: string): LlmOptions {
    return this.copy({ role });
  }

  /** A copy with a sampling temperature. */
  withTemperature(temperature: number): LlmOptions {
    return this.copy({ temperature });
  }

  /** A copy with a maximum number of output tokens. */
  withMaxTokens(maxTokens: number): LlmOptions {
    return this.copy({ maxTokens });
  }

  /** A copy with nucleus sampling. */
  withTopP(topP: number): LlmOptions {
    return this.copy({ topP });
  }

  /** A copy with top-k sampling. */
  withTopK(topK: number): LlmOptions {
    return this.copy({ topK });
  }

  /** A copy with a seed, for providers that support reproducible sampling. */
  withSeed(seed: number): LlmOptions {
    return this.copy({ seed });
  }

  /** A copy with stop sequences. */
  withStopSequences(stopSequences: readonly string[]): LlmOptions {
    return this.copy({ stopSequences: [...stopSequences] });
  }

  /** A copy with provider-specific options (replacing earlier ones). */
  withProviderOptions(providerOptions: NonNullable<LlmCallSettings["providerOptions"]>): LlmOptions {
    return this.copy({ providerOptions });
  }

  /** A copy with `other`'s set fields applied on top. */
  merge(other: LlmOptionsInit): LlmOptions {
    return this.copy(other);
  }

  /** The sampling settings the tool loop passes to the model. */
  toSettings(): LlmCallSettings {
    return withoutUndefined({
      temperature: this.temperature,
      maxOutputTokens: this.maxTokens,
      topP: this.topP,
      topK: this.topK,
      seed: this.seed,
      stopSequences: this.stopSequences,
      providerOptions: this.providerOptions,
    });
  }

  private copy(changes: LlmOptionsInit): LlmOptions {
    return new LlmOptions({ ...this, ...withoutUndefined(changes) });
  }
}

function withoutUndefined<T extends object>(value: T): T {
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) result[key] = entry;
  return result as T;
}
