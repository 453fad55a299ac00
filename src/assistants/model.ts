// The language model of both assistants: OpenAI's Responses API, or /chat/completions for OpenAI-compatible servers.
import type { LanguageModel } from "ai";
import type { Config } from "../core/config.ts";
import { telemetryActive } from "../core/telemetry.ts";

/** What the model is made from (a turn worker gets these, not the whole configuration). */
export type ModelSettings = Pick<Config, "openaiApiKey" | "openaiBaseUrl" | "openaiModel" | "openaiApiStyle">;

/** Whether a model is configured: without OPENAI_API_KEY the assistants answer "assistant not configured". */
export function modelConfigured(config: ModelSettings): boolean {
  return Boolean(config.openaiApiKey);
}

export function modelSettings({ openaiApiKey, openaiBaseUrl, openaiModel, openaiApiStyle }: Config): ModelSettings {
  return { openaiApiKey, openaiBaseUrl, openaiModel, openaiApiStyle };
}

/** The configured model (modelConfigured); the provider package loads with the first turn, not at start-up. */
export async function configuredModel(settings: ModelSettings): Promise<LanguageModel> {
  const { createOpenAI } = await import("@ai-sdk/openai");
  const provider = createOpenAI({ apiKey: settings.openaiApiKey, ...(settings.openaiBaseUrl ? { baseURL: settings.openaiBaseUrl } : {}) });
  const model = settings.openaiApiStyle === "chat" ? provider.chat(settings.openaiModel) : provider.responses(settings.openaiModel);
  // A span per model call while this thread traces; untraced, the model's stream keeps one stage fewer.
  if (!telemetryActive()) return model;
  const { tracedModel } = await import("./turns/model-trace.ts");
  return tracedModel(model, settings);
}
