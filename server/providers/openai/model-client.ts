/**
 * One model call: `POST {OPENAI_BASE_URL}/chat/completions` through the bounded upstream client,
 * answered by a JSON object that matches the schema asked for (or any object, in JSON mode).
 */
import type { Logger } from 'pino';
import { modelNotServed } from '../../../lib/error-messages.ts';
import { UpstreamClient } from '../../upstream/upstream-client.ts';
import { ProviderError } from '../types.ts';
import { checkedAnswer, type AnswerSchema } from './answer-schema.ts';
import { answerObject, responseFormat, type ChatCompletionRequest, type ChatMessage } from './chat-completion.ts';
import type { OpenAiConfig } from './config.ts';

/** How messages and logs name the model server (never its address or key). */
export const MODEL_SERVER_NAME = 'The language model server';

/** A model answer takes long on a local CPU server; its JSON is small. */
export const MODEL_CALL_LIMITS: ModelCallLimits = { timeoutMs: 120_000, maxResponseBytes: 1024 * 1024, maxInFlight: 4 };

export interface ModelCallLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  maxInFlight: number;
}

export interface ModelRequest {
  /** The `json_schema` name: letters, digits, `_` and `-`, at most 64. */
  name: string;
  /** The shape the answer must have; null for any JSON object (JSON mode). */
  schema: AnswerSchema | null;
  messages: ChatMessage[];
}

export interface OpenAiModel {
  /** The model's answer: a JSON object matching `request.schema`, or the ProviderError saying why there is none. */
  answer<T = Record<string, unknown>>(request: ModelRequest, signal: AbortSignal): Promise<T>;
}

/** The upstream client for the configured server, bounded by MODEL_CALL_LIMITS; the key goes in `Authorization: Bearer` only when set. */
export function modelUpstream(config: OpenAiConfig, logger: Logger, limits: Partial<ModelCallLimits> = {}): UpstreamClient {
  return new UpstreamClient({
    name: MODEL_SERVER_NAME,
    baseUrl: config.baseUrl,
    ...MODEL_CALL_LIMITS,
    ...limits,
    headers: config.apiKey === null ? {} : { authorization: `Bearer ${config.apiKey}` },
  }, logger);
}

/** The model of `config`, called through `upstream` (one per server, so its in-flight bound holds for every caller). */
export function createOpenAiModel(config: OpenAiConfig, deps: { upstream: Pick<UpstreamClient, 'request'>; logger: Logger }): OpenAiModel {
  return {
    async answer<T>(request: ModelRequest, signal: AbortSignal): Promise<T> {
      const body: ChatCompletionRequest = {
        model: config.model,
        messages: request.messages,
        response_format: responseFormat(request.name, request.schema?.schema ?? null),
      };
      let completion: unknown;
      try {
        completion = (await deps.upstream.request({ method: 'POST', path: '/chat/completions', body, signal })).body;
      } catch (error) {
        // The model is the operator's choice, not the caller's: a 404 means OPENAI_MODEL or OPENAI_BASE_URL is wrong, not that the page is missing.
        if (error instanceof ProviderError && error.code === 'upstream_not_found') {
          deps.logger.error({ provider: MODEL_SERVER_NAME }, `${MODEL_SERVER_NAME} answered 404: check OPENAI_MODEL and OPENAI_BASE_URL`);
          throw new ProviderError('provider_unavailable', modelNotServed());
        }
        throw error;
      }
      const answer = answerObject(completion);
      return request.schema === null ? (answer as T) : checkedAnswer<T>(answer, request.schema);
    },
  };
}
