/**
 * The OpenAI-compatible model server the `openai` adapter calls: OpenAI itself, or vLLM,
 * llama.cpp's server, Ollama or any server answering `POST /chat/completions` under a `/v1` base URL.
 */
import { ConfigError } from '../../config-error.ts';
import { upstreamKey, upstreamUrl } from '../../upstream/upstream-config.ts';

export interface OpenAiConfig {
  /** Without a trailing slash: `https://api.openai.com/v1`, `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; null for a local server that takes no key. */
  apiKey: string | null;
  /** The `model` of every request: `gpt-4o-mini`, or the name the local server serves. */
  model: string;
}

/** OpenAI's own API, the base URL when only `OPENAI_API_KEY` is given. */
export const OPENAI_API_BASE_URL = 'https://api.openai.com/v1';

/** `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL`; null when none is set; a ConfigError naming the variable when one is bad. */
export function openaiConfig(env: NodeJS.ProcessEnv): OpenAiConfig | null {
  const apiKey = upstreamKey(env, 'OPENAI_API_KEY');
  const baseUrl = upstreamUrl(env, 'OPENAI_BASE_URL', apiKey === undefined ? undefined : OPENAI_API_BASE_URL);
  const model = env.OPENAI_MODEL?.trim() || undefined;
  if (baseUrl === undefined && model === undefined) return null;
  if (baseUrl === undefined) {
    throw new ConfigError(`OPENAI_BASE_URL must be set to use OPENAI_MODEL: the base URL of an OpenAI-compatible server such as http://127.0.0.1:8000/v1, or set OPENAI_API_KEY to call ${OPENAI_API_BASE_URL}`);
  }
  if (/\/chat\/completions$/.test(new URL(baseUrl).pathname)) {
    throw new ConfigError(`OPENAI_BASE_URL must be the base URL, the part before /chat/completions, such as ${OPENAI_API_BASE_URL} or http://127.0.0.1:8000/v1`);
  }
  if (model === undefined) throw new ConfigError('OPENAI_MODEL must name the model to call, such as gpt-4o-mini or the model a vLLM, llama.cpp or Ollama server serves');
  return { baseUrl, apiKey: apiKey ?? null, model };
}
