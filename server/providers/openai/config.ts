/**
 * The OpenAI-compatible model server the `openai` adapter calls: OpenAI itself, or vLLM,
 * llama.cpp's server, Ollama or any server answering `POST /chat/completions` under a `/v1` base URL.
 */
import { ConfigError } from '../../config.ts';

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

function baseUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  // A URL carrying a user name or password is refused without echoing it.
  if (url && (url.username || url.password)) throw new ConfigError('OPENAI_BASE_URL must not carry a user name or password: give the key in OPENAI_API_KEY');
  if (!url || !/^https?:$/.test(url.protocol) || /[?#]/.test(text) || /\/chat\/completions\/?$/.test(url.pathname)) {
    throw new ConfigError(`OPENAI_BASE_URL must be the http or https base URL of an OpenAI-compatible API, the part before /chat/completions, such as ${OPENAI_API_BASE_URL} or http://127.0.0.1:8000/v1, got "${text}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/** `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL`; null when none is set; a ConfigError naming the variable when one is bad. */
export function openaiConfig(env: NodeJS.ProcessEnv): OpenAiConfig | null {
  const baseUrlText = env.OPENAI_BASE_URL || undefined;
  const apiKey = env.OPENAI_API_KEY || undefined;
  const model = env.OPENAI_MODEL?.trim() || undefined;
  if (baseUrlText === undefined && apiKey === undefined && model === undefined) return null;
  // The key is never echoed: only what is wrong with it.
  if (apiKey !== undefined && /[\s\u0000-\u001f\u007f-\uffff]/.test(apiKey)) throw new ConfigError('OPENAI_API_KEY must be printable ASCII without spaces or line breaks (it is sent as a Bearer token)');
  if (baseUrlText === undefined && apiKey === undefined) {
    throw new ConfigError(`OPENAI_BASE_URL must be set to use OPENAI_MODEL: the base URL of an OpenAI-compatible server such as http://127.0.0.1:8000/v1, or set OPENAI_API_KEY to call ${OPENAI_API_BASE_URL}`);
  }
  if (model === undefined) throw new ConfigError('OPENAI_MODEL must name the model to call, such as gpt-4o-mini or the model a vLLM, llama.cpp or Ollama server serves');
  return { baseUrl: baseUrlText === undefined ? OPENAI_API_BASE_URL : baseUrl(baseUrlText), apiKey: apiKey ?? null, model };
}
