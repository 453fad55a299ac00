// The language model of both assistants: OpenAI's Responses API, or /chat/completions for OpenAI-compatible servers.
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import type { Config } from "../core/config.ts";

/** The configured model, or undefined without OPENAI_API_KEY (the assistants then answer "assistant not configured"). */
export function configuredModel(config: Config): LanguageModel | undefined {
  if (!config.openaiApiKey) return undefined;
  const provider = createOpenAI({ apiKey: config.openaiApiKey, ...(config.openaiBaseUrl ? { baseURL: config.openaiBaseUrl } : {}) });
  return config.openaiApiStyle === "chat" ? provider.chat(config.openaiModel) : provider.responses(config.openaiModel);
}
