// The language model of both assistants: OpenAI's Responses API, or /chat/completions for OpenAI-compatible servers.
import type { LanguageModel } from "ai";
import type { Config } from "../core/config.ts";

/** Whether a model is configured: without OPENAI_API_KEY the assistants answer "assistant not configured". */
export function modelConfigured(config: Config): boolean {
  return Boolean(config.openaiApiKey);
}

/** The configured model (modelConfigured); the provider package loads with the first turn, not at start-up. */
export async function configuredModel(config: Config): Promise<LanguageModel> {
  const { createOpenAI } = await import("@ai-sdk/openai");
  const provider = createOpenAI({ apiKey: config.openaiApiKey, ...(config.openaiBaseUrl ? { baseURL: config.openaiBaseUrl } : {}) });
  return config.openaiApiStyle === "chat" ? provider.chat(config.openaiModel) : provider.responses(config.openaiModel);
}
