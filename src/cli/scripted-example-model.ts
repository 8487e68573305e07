import { parseModelId } from "../llm/model-id.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import type { ExampleDefinition } from "./example-definition.js";

/**
 * A fresh model replaying `example`'s recorded script from the start, named
 * after the model the script was recorded with (when the example says), so
 * its tokens are priced as that model's — the same in `run` and in a worker.
 */
export function scriptedExampleModel(example: ExampleDefinition): ScriptedModel {
  const recorded = example.recordedWith;
  return recorded
    ? new ScriptedModel(example.script(), { modelId: parseModelId(recorded).modelId })
    : new ScriptedModel(example.script());
}
